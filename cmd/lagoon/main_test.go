package main

import (
	"bytes"
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
