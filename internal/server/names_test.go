package server

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNamesNoGame: the server and the store reach games only through the
// game contract. No file of theirs but a test imports a package of the
// module other than package game and the server's own (internal/...).
func TestNamesNoGame(t *testing.T) {
	const module = "github.com/lagoon-games/lagoon/"
	files, err := filepath.Glob(filepath.Join("..", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			rest, ours := strings.CutPrefix(path, module)
			if ours && rest != "game" && !strings.HasPrefix(rest, "internal/") {
				t.Errorf("%s imports %s: the server hosts games through package game alone", name, path)
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d files checked", checked)
	}
}
