package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string // in the standard output or error
	}{
		{[]string{"-h"}, 0, "Commands:"},
		{[]string{"--help"}, 0, "Commands:"},
		{[]string{"help"}, 0, "Commands:"},
		{[]string{"help", "arena"}, 0, "-games"},
		{[]string{"arena", "-h"}, 0, "-games"},
		{[]string{"help", "nonsense"}, 2, `unknown command "nonsense"`},
		{[]string{"nonsense"}, 2, `unknown command "nonsense"`},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tc.args, strings.NewReader(""), &stdout, &stderr)
		if out := stdout.String() + stderr.String(); code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("lagoon %s: exit %d, output %q; want exit %d and %q", strings.Join(tc.args, " "), code, out, tc.code, tc.want)
		}
	}
}

// The flags the README's "Run it" gives for serving are the ones lagoon -h
// lists: a newcomer reads one, then the other.
func TestHelpListsTheREADMEsServeFlags(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section, _, _ := strings.Cut(string(readme), "## Test it")
	_, section, _ = strings.Cut(section, "## Run it")
	flags := regexp.MustCompile("`(-[a-z][a-z-]*)`").FindAllStringSubmatch(section, -1)
	if len(flags) == 0 {
		t.Fatal(`the README's "Run it" names no flag`)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-h"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("lagoon -h: exit %d", code)
	}
	for _, f := range flags {
		if !strings.Contains(stdout.String(), "  "+f[1]+" ") {
			t.Errorf("lagoon -h does not list %s, which the README gives:\n%s", f[1], stdout.String())
		}
	}
}
