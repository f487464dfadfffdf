package web_test

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/web"
)

// comments matches JavaScript's and CSS's comments (and, harmlessly, a
// "//" inside a string, such as a URL's).
var comments = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)

// TestShellNamesNoGame reads the shell's files, everything but the game
// modules under js/games/, and finds no game's name and no word of a
// game's own in their code (their comments may give examples): what is a
// game's is its module's.
func TestShellNamesNoGame(t *testing.T) {
	words := []string{
		"bluelagoon", "blue lagoon", "settler", "village", "exploration", "settlement", "coconut", "statuette", "island",
		"tiny", "druids", "laguna",
	}
	files := web.Files()
	err := fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name == "js/games" {
				return fs.SkipDir
			}
			return nil
		}
		switch path.Ext(name) {
		case ".js", ".css", ".html":
		default:
			return nil
		}
		data, err := fs.ReadFile(files, name)
		if err != nil {
			return err
		}
		code := strings.ToLower(comments.ReplaceAllString(string(data), ""))
		for _, w := range words {
			if i := strings.Index(code, w); i >= 0 {
				t.Errorf("%s names %q: …%s…", name, w, code[max(0, i-40):min(len(code), i+40)])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The modules are there, and the shell finds them by id.
	if _, err := fs.Stat(files, "js/games/bluelagoon/index.js"); err != nil {
		t.Errorf("Blue Lagoon's module: %v", err)
	}
}
