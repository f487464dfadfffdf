package web_test

import (
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/web"
)

// TestModulesDeclareTheirShape: js/module.js's GameModule names the
// members docs/web.md's table of game modules names, no more and no fewer,
// and every game module is checked against it (// @ts-check, its default
// export declared a GameModule).
func TestModulesDeclareTheirShape(t *testing.T) {
	files := web.Files()
	src, err := fs.ReadFile(files, "js/module.js")
	if err != nil {
		t.Fatal(err)
	}
	var typed []string
	for _, m := range regexp.MustCompile(`@property \{.*\} \[(\w+)\]`).FindAllStringSubmatch(string(src), -1) {
		typed = append(typed, m[1])
	}
	doc, err := os.ReadFile("../docs/web.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(doc), "## Game modules")
	table, _, _ = strings.Cut(table, "\n## ")
	var documented []string
	for line := range strings.Lines(table) {
		cells := strings.Split(line, "|")
		if !strings.HasPrefix(line, "| `") || len(cells) < 3 {
			continue
		}
		for _, m := range regexp.MustCompile("`(\\w+)").FindAllStringSubmatch(cells[1], -1) {
			documented = append(documented, m[1])
		}
	}
	slices.Sort(typed)
	slices.Sort(documented)
	if len(typed) < 10 || !slices.Equal(typed, documented) {
		t.Errorf("GameModule's members %v, docs/web.md's %v", typed, documented)
	}
	modules, err := fs.Glob(files, "js/games/*/index.js")
	if err != nil || len(modules) < 3 {
		t.Fatalf("game modules %v: %v", modules, err)
	}
	for _, name := range modules {
		code, err := fs.ReadFile(files, name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(code), "// @ts-check\n") {
			t.Errorf("%s does not begin with // @ts-check", name)
		}
		if !strings.Contains(string(code), "/** @type {import('../../module.js').GameModule} */\nexport default {") {
			t.Errorf("%s does not declare its default export a GameModule", name)
		}
	}
}
