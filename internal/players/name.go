package players

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds the rules of the names players choose (docs/players.md,
// Names). Whether a name ends in brackets is judged on its folded form
// (fold.go), the same rule as the server's for the names people give
// their seats, so that no look-alike bracket passes either.

// Name lengths, in characters (runes), of a name once trimmed.
const (
	MinNameRunes = 2
	MaxNameRunes = 24
)

// NameError is a name refused, with the reason in words for the person
// who chose it.
type NameError struct{ Reason string }

func (e *NameError) Error() string { return e.Reason }

// guestName is the form of guests' names, which no player may choose.
var guestName = regexp.MustCompile(`(?i)^guest\s*[0-9]+$`)

// CheckName returns the name a player asked for, trimmed of spaces at its
// ends, or a *NameError saying why it is refused: a name is 2 to 24
// characters; it has a letter or a digit; its only space is the plain one,
// never two in a row; it has no control, format (the invisible marks that
// turn text's direction round, or join and hide), separator, private or
// invalid character; no character carries more than MaxStackedMarks
// marks; it is not a guest's ("Guest 1234") nor ends in a word in
// brackets, however they are drawn (EndsInBrackets), as the names of bots
// and the rules' own seats do.
func CheckName(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", &NameError{"the name is not valid UTF-8"}
	}
	name = strings.Trim(name, " ")
	n := utf8.RuneCountInString(name)
	if n < MinNameRunes || n > MaxNameRunes {
		return "", &NameError{fmt.Sprintf("a name is %d to %d characters; %q is %d", MinNameRunes, MaxNameRunes, name, n)}
	}
	for i, r := range name {
		switch {
		case r == ' ':
			if strings.HasPrefix(name[i+1:], " ") {
				return "", &NameError{"a name has no two spaces in a row"}
			}
		case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, unicode.Z) || !unicode.IsGraphic(r) || blank(r):
			return "", &NameError{fmt.Sprintf("a name may not hold the character U+%04X: a control, a format or private character, a space other than the plain one, or one that shows nothing", r)}
		}
	}
	if !strings.ContainsFunc(name, func(r rune) bool { return unicode.In(r, unicode.L, unicode.N) }) {
		return "", &NameError{"a name has a letter or a digit"}
	}
	if guestName.MatchString(name) {
		return "", &NameError{"names like \"Guest 1234\" are the guests'"}
	}
	if StackedMarks(name) {
		return "", &NameError{fmt.Sprintf("a name may not have a character with more than %d marks stacked on it", MaxStackedMarks)}
	}
	if EndsInBrackets(name) {
		return "", &NameError{"a name may not end in brackets, or in anything drawn like them, as the names of bots and of the rules' own seats do"}
	}
	return name, nil
}

// blank reports whether r is one of the letters made to stand for a blank
// (the Hangul fillers, the blank Braille pattern) or the replacement
// character, which shows for what could not be read.
func blank(r rune) bool {
	switch r {
	case '\u115f', '\u1160', '\u3164', '\uffa0', '\u2800', utf8.RuneError:
		return true
	}
	return false
}
