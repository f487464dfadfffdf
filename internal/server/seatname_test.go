package server

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lagoon-games/lagoon/internal/players"
)

// TestPersonNamesLikeBots: a person's name that would be drawn as a bot's or
// a rules' seat's, ending in a word in brackets, is refused however its
// brackets are written: fullwidth, superscript, ornaments, tortoise shells,
// parenthesised letters, or with a mark, a joiner or a blank letter after
// the bracket; names that only hold a bracket, or have it elsewhere, and
// names of every script are taken.
func TestPersonNamesLikeBots(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"Ann (bot)", false},
		{"Ann （bot）", false},       // fullwidth, the issue's
		{"Bot ⁽max⁾", false},       // superscript, the issue's
		{"Bot ❨max❩", false},       // ornaments, the issue's
		{"Ann (bot)\u0301", false}, // a combining mark after the bracket, the issue's
		{"Ann (bot)\u20dd", false}, // an enclosing mark
		{"Ann (bot)\u0338\u0301", false},
		{"Bot ₍easy₎", false},
		{"Bot ﹙easy﹚", false},
		{"Bot ︵easy︶", false},
		{"Bot ❪max❫", false},
		{"Bot ❲max❳", false},
		{"Bot 〔max〕", false},
		{"Bot ﹝max﹞", false},
		{"Bot ⟮max⟯", false},
		{"Bot ⦅max⦆", false},
		{"Bot ｟max｠", false},
		{"Bot ⸨max⸩", false},
		{"Bot ﴾max﴿", false},
		{"Bot ༼max༽", false},
		{"Bot ⒨", false}, // a parenthesised letter
		{"AJ (Legend)\u200d", false},
		{"AJ (Legend)\u3164", false},
		{"AJ (Legend)\u00a0\u2800", false},
		{"Ann ❨bot)", false},
		{"Ann", true},
		{"Ann :)", true},
		{"(Ann) Lee", true},
		{"Ann (Lee", true},
		{"Zoë", true},
		{"Nguyễn Thị Ánh", true},
		{"Nguye\u0323\u0302n", true}, // two marks on one letter, decomposed
		{"བསྒྲུབས", true},
		{"ကျွန်ုပ်", true},
		{"שָׁלוֹם", true},
		{"a\u0301\u0302\u0303\u0304", true}, // four marks: the most one character carries
		{"a\u0301\u0302\u0303\u0304\u0305", false},
		{"Ann" + strings.Repeat("\u0336", 12), false}, // a pile of marks ("Zalgo")
		{"Z\u0351\u0352\u0357\u035b\u0363\u0364 Ann", false},
	} {
		_, e := checkPersonName(tc.name)
		if (e == nil) != tc.ok {
			t.Errorf("a person named %q (%+q): %v, want taken %v", tc.name, tc.name, e, tc.ok)
		}
	}
}

// TestBotNamesKeepTheirBrackets: a bot's seat may be named in brackets,
// but not with marks piled on a character.
func TestBotNamesKeepTheirBrackets(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"Robo (easy)", true},
		{"Robo ❨easy❩", true},
		{"Robo" + strings.Repeat("\u0301", 5), false},
	} {
		if _, e := checkName(tc.name); (e == nil) != tc.ok {
			t.Errorf("a bot named %q: %v, want taken %v", tc.name, e, tc.ok)
		}
	}
}

// FuzzCheckPersonName: whatever a name, checking it never panics; a name
// taken is short, checks again as itself, carries no pile of marks, and
// does not fold to a name in brackets.
func FuzzCheckPersonName(f *testing.F) {
	for _, seed := range []string{"Ann", "Ann (bot)", "Bot ⁽max⁾", "Ann (bot)\u0301", "Nguyễn", "a\u0301\u0302\u0303\u0304\u0305", "\u202eAnn", " "} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got, e := checkPersonName(name)
		if e != nil {
			return
		}
		if utf8.RuneCountInString(got) > maxNameRunes || players.StackedMarks(got) || players.EndsInBrackets(got) {
			t.Fatalf("%+q taken as %+q", name, got)
		}
		if again, e := checkPersonName(got); e != nil || again != got {
			t.Fatalf("%+q taken as %+q, which checks as %+q, %v", name, got, again, e)
		}
	})
}
