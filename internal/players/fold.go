package players

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// This file holds what the rules on names that look like a bot's compare
// (CheckName here, and the server's for the names people give their
// seats): a name in a folded form, in which the characters that
// only look like parentheses are parentheses and the marks written over or
// after a character are gone, and the bound on marks stacked on one
// character, which would otherwise draw over the names around them.

// MaxStackedMarks is the most combining marks one character may carry in a
// name, counted in its decomposed form. Writing needs few: Vietnamese puts
// two on a vowel (ệ), Thai and Burmese two or three, Tibetan's stacks of
// consonants three or four; text piled higher ("Zalgo") is drawn above and
// below the line, over the other seats' names.
const MaxStackedMarks = 4

// StackedMarks reports whether name has a character carrying more than
// MaxStackedMarks combining marks.
func StackedMarks(name string) bool {
	run := 0
	for _, r := range norm.NFD.String(name) {
		if !unicode.Is(unicode.M, r) {
			run = 0
			continue
		}
		if run++; run > MaxStackedMarks {
			return true
		}
	}
	return false
}

// foldName returns name as the rule on bots' names compares it: its
// compatibility decomposition (NFKD: a fullwidth or a superscript
// parenthesis is a parenthesis, as NFKC would make it), the characters
// drawn as parentheses made parentheses (parenLike), and without what does
// not show on its own: combining marks (a mark after a closing bracket
// hides that the name ends in one), format characters such as the joiner,
// and the letters that show as a blank. Surrounding spaces are trimmed.
func foldName(name string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if p, ok := parenLike[r]; ok {
			return p
		}
		if unicode.In(r, unicode.M, unicode.Cf) || !unicode.IsSpace(r) && !Visible(r) {
			return -1
		}
		return r
	}, norm.NFKD.String(name)))
}

// parenLike maps the characters drawn as round parentheses, or nearly so,
// that compatibility decomposition leaves as they are (ornaments,
// mathematical and tortoise-shell brackets, Tibetan's ang khang, the hooks
// of a tall parenthesis) to the parenthesis they look like. Those it does
// map (fullwidth, superscript, subscript, small and vertical forms) need
// no entry, nor do the forms it turns into one of these (U+FF5F into
// U+2985, U+FE5D into U+3014).
var parenLike = map[rune]rune{
	'\u2768': '(', '\u2769': ')', // medium parenthesis ornaments ❨❩
	'\u276a': '(', '\u276b': ')', // medium flattened parenthesis ornaments ❪❫
	'\u2772': '(', '\u2773': ')', // light tortoise shell bracket ornaments ❲❳
	'\u27ee': '(', '\u27ef': ')', // mathematical flattened parentheses ⟮⟯
	'\u27ec': '(', '\u27ed': ')', // mathematical white tortoise shell brackets ⟬⟭
	'\u2985': '(', '\u2986': ')', // white parentheses ⦅⦆
	'\u2993': '(', '\u2994': ')', // arc bracket ⦓⦔
	'\u2995': '(', '\u2996': ')', // double arc bracket ⦕⦖
	'\u2997': '(', '\u2998': ')', // black tortoise shell brackets ⦗⦘
	'\u2e28': '(', '\u2e29': ')', // double parentheses ⸨⸩
	'\u3014': '(', '\u3015': ')', // tortoise shell brackets 〔〕
	'\u3018': '(', '\u3019': ')', // white tortoise shell brackets 〘〙
	'\ufd3e': '(', '\ufd3f': ')', // ornate parentheses ﴾﴿
	'\u0f3c': '(', '\u0f3d': ')', // Tibetan ang khang ༼༽
	'\u239b': '(', '\u239d': '(', // a tall left parenthesis's hooks ⎛⎝
	'\u239e': ')', '\u23a0': ')', // a tall right parenthesis's hooks ⎞⎠
}

// EndsInBrackets reports whether a name, folded, ends in a word in
// parentheses, the form of the names of bots and of the rules' own seats,
// which no person's name may take.
func EndsInBrackets(name string) bool {
	f := foldName(name)
	return strings.HasSuffix(f, ")") && strings.Contains(f, "(")
}

// Visible reports whether r shows as something: a letter, a digit, a
// mark of punctuation or a symbol, and not one of the letters made to
// stand for a blank (the Hangul fillers, the blank Braille pattern).
func Visible(r rune) bool {
	switch r {
	case '\u115f', '\u1160', '\u3164', '\uffa0', '\u2800':
		return false
	}
	return unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S)
}
