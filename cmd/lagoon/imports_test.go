package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/lagoon-games/lagoon"

// TestOnlyTheListNamesGames reads the imports of every package of the
// module (its code, not its tests) and finds that no package imports a
// game but the game's own packages (its bots import it) and this command,
// whose list of games (games.go) pairs each game's rules with its bots:
// the bots (ai), the server, the store and the page name no game, and no
// game names another. A game is a directory at the module's root with a
// bots package.
func TestOnlyTheListNamesGames(t *testing.T) {
	root := filepath.Join("..", "..")
	games := gamesOf(t, root)
	if len(games) < 3 {
		t.Fatalf("found the games %v; want Blue Lagoon's, Druids' and Laguna's at least", games)
	}
	imports := importsOf(t, root)
	for pkg, imported := range imports {
		for _, imp := range imported {
			g := gameOf(games, imp)
			if g == "" || pkg == module+"/cmd/lagoon" || gameOf(games, pkg) == g {
				continue
			}
			t.Errorf("%s imports %s, of the game %s", pkg, imp, g)
		}
	}
	if len(imports) < 10 {
		t.Fatalf("read the imports of %d packages; the test reads the wrong tree", len(imports))
	}
}

// gamesOf returns the import paths of the games: the directories at root
// that hold a bots package.
func gamesOf(t *testing.T, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var games []string
	for _, e := range entries {
		if st, err := os.Stat(filepath.Join(root, e.Name(), "bots")); err == nil && st.IsDir() {
			games = append(games, module+"/"+e.Name())
		}
	}
	return games
}

// gameOf returns the game a package is of (the game's own package or one
// below it), or "".
func gameOf(games []string, pkg string) string {
	for _, g := range games {
		if pkg == g || strings.HasPrefix(pkg, g+"/") {
			return g
		}
	}
	return ""
}

// importsOf returns the imports of the code (not the tests) of every
// package under root, by the package's import path.
func importsOf(t *testing.T, root string) map[string][]string {
	t.Helper()
	imports := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && name != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(name))
		if err != nil {
			return err
		}
		pkg := path.Join(module, filepath.ToSlash(rel))
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			imports[pkg] = append(imports[pkg], imp)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return imports
}
