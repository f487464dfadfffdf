package players_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/lagoon-games/lagoon/internal/players"
)

// TestCheckName: the names players may choose, and the reasons for those
// they may not.
func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		refused    string // a word of the reason, "" for a name allowed
	}{
		{"Ann", "Ann", ""},
		{"  Ann Lee  ", "Ann Lee", ""},
		{"Σίσυφος", "Σίσυφος", ""},
		{"李小龍", "李小龍", ""},
		{"R2-D2", "R2-D2", ""},
		{"Guest of honour", "Guest of honour", ""},
		{"J", "", "2 to 24"},
		{"", "", "2 to 24"},
		{strings.Repeat("a", 25), "", "2 to 24"},
		{strings.Repeat("é", 24), strings.Repeat("é", 24), ""},
		{"Ann  Lee", "", "two spaces"},
		{"Ann\tLee", "", "U+0009"},
		{"Ann\nLee", "", "U+000A"},
		{"Ann\u00a0Lee", "", "U+00A0"},
		{"Ann\u3000Lee", "", "U+3000"},
		{"Ann\u2028Lee", "", "U+2028"},
		{"\u202eAnn", "", "U+202E"},
		{"Ann\u2066", "", "U+2066"},
		{"An\u200bn", "", "U+200B"},
		{"An\u200dn", "", "U+200D"},
		{"Ann\ue000", "", "U+E000"},
		{"Ann\ufffd", "", "U+FFFD"},
		{"\u3164\u3164", "", "U+3164"},
		{"Ann\xff", "", "UTF-8"},
		{"!!", "", "letter or a digit"},
		{"Guest 1234", "", "guests'"},
		{"guest1234", "", "guests'"},
		{"Ann (bot)", "", "brackets"},
		{"Bot (medium)", "", "brackets"},
		// Look-alike brackets, as issue 47 found them in seats' names.
		{"Ann \uff08bot\uff09", "", "brackets"},
		{"Bot \u207dmax\u207e", "", "brackets"},
		{"Bot \u2768max\u2769", "", "brackets"},
		{"Ann (bot)\u0301", "", "brackets"},
		{"Ann (bot) is here", "Ann (bot) is here", ""},
		{"Zo\u00eb", "Zo\u00eb", ""},
		{"Ze\u0301\u0302\u0303\u0304", "Ze\u0301\u0302\u0303\u0304", ""},
		{"Ze\u0301\u0302\u0303\u0304\u0305", "", "marks stacked"},
	} {
		got, err := players.CheckName(tc.name)
		var ne *players.NameError
		switch {
		case tc.refused == "" && (err != nil || got != tc.want):
			t.Errorf("%q: %q, %v; want %q", tc.name, got, err, tc.want)
		case tc.refused != "" && (!errors.As(err, &ne) || !strings.Contains(ne.Reason, tc.refused)):
			t.Errorf("%q: %q, %v; want it refused for %q", tc.name, got, err, tc.refused)
		}
	}
}

// FuzzCheckName: a name allowed is valid UTF-8, of 2 to 24 characters
// that all show, with no space at its ends, and allowed again as it is.
func FuzzCheckName(f *testing.F) {
	for _, s := range []string{"Ann", " Ann Lee ", "\u202eAnn", "Guest 12", "Ann (bot)", "李小龍", "a\u200db"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := players.CheckName(s)
		if err != nil {
			var ne *players.NameError
			if !errors.As(err, &ne) {
				t.Fatalf("%q refused without a NameError: %v", s, err)
			}
			return
		}
		n := utf8.RuneCountInString(got)
		if !utf8.ValidString(got) || n < players.MinNameRunes || n > players.MaxNameRunes || strings.TrimSpace(got) != got {
			t.Errorf("%q allowed as %q", s, got)
		}
		for _, r := range got {
			if r != ' ' && (!unicode.IsGraphic(r) || unicode.In(r, unicode.Cf, unicode.Z)) {
				t.Errorf("%q allowed with U+%04X", got, r)
			}
		}
		if players.EndsInBrackets(got) || players.StackedMarks(got) {
			t.Errorf("%q allowed, ending in brackets or with marks stacked", got)
		}
		if again, err := players.CheckName(got); err != nil || again != got {
			t.Errorf("%q allowed, then %q, %v", got, again, err)
		}
	})
}

// TestRename: a player takes a name, which their session sees at once; a
// name refused or taken changes nothing.
func TestRename(t *testing.T) {
	svc, _, _ := setup(t)
	_, other := newGuest(t, svc)
	_, cookie := newGuest(t, svc)
	rename := func(cookie, name string) (players.Player, error) {
		var p players.Player
		var err error
		r := httptest.NewRequest("PUT", "/api/me/name", nil)
		r.AddCookie(&http.Cookie{Name: players.CookieName, Value: cookie})
		svc.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, err = svc.Rename(r, name)
		})).ServeHTTP(httptest.NewRecorder(), r)
		return p, err
	}
	if p, err := rename(other, "Bea"); err != nil || p.Name != "Bea" {
		t.Fatalf("naming the other guest: %+v, %v", p, err)
	}
	var ne *players.NameError
	for _, tc := range []struct {
		name string
		ok   func(error) bool
		now  string
	}{
		{"  Ann ", func(err error) bool { return err == nil }, "Ann"},
		{"\u202eAnn", func(err error) bool { return errors.As(err, &ne) }, "Ann"},
		{"BEA", func(err error) bool { return errors.Is(err, players.ErrNameTaken) }, "Ann"},
		{"Ann Lee", func(err error) bool { return err == nil }, "Ann Lee"},
	} {
		if _, err := rename(cookie, tc.name); !tc.ok(err) {
			t.Errorf("naming %q: %v", tc.name, err)
		}
		if _, p, ok := visit(t, svc, cookie, false, nil); !ok || p.Name != tc.now {
			t.Errorf("after naming %q: %+v, %v; want %q", tc.name, p, ok, tc.now)
		}
	}
	if _, err := rename("", "Cy"); !errors.Is(err, players.ErrNoVisit) {
		t.Errorf("naming without a player: %v, want ErrNoVisit", err)
	}
}
