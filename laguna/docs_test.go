package laguna

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestAPICitesTheHandsDecision: docs/api.md's "A hand's time" cites the
// decision of docs/laguna.md that says what a hand's time is, by its number,
// which moves when decisions are added before it.
func TestAPICitesTheHandsDecision(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../docs/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	decision := regexp.MustCompile(`(?m)^(\d+)\. \*\*A hand's time\.\*\*`).FindStringSubmatch(read("laguna.md"))
	if decision == nil {
		t.Fatal("docs/laguna.md has no decision \"A hand's time\"")
	}
	_, section, ok := strings.Cut(read("api.md"), "#### A hand's time")
	section, _, _ = strings.Cut(section, "\n#")
	cited := regexp.MustCompile(`docs/laguna\.md decision\s+(\d+)`).FindStringSubmatch(section)
	if !ok || cited == nil {
		t.Fatal("docs/api.md's \"A hand's time\" cites no decision of docs/laguna.md")
	}
	if cited[1] != decision[1] {
		t.Errorf("docs/api.md's \"A hand's time\" cites decision %s; docs/laguna.md's \"A hand's time\" is decision %s", cited[1], decision[1])
	}
}
