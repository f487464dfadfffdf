package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// runCmd runs lagoon with args and returns what it wrote and its exit
// status.
func runCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// TestBackupAndRestore backs up the games of a running server, restores
// the copy as a new data directory and starts a server on it: the moves
// acknowledged before the backup are there. A backup never writes over a
// file, and wants one.
func TestBackupAndRestore(t *testing.T) {
	dir := t.TempDir()
	url, code := startServe(t, dir)
	id, move := playOneMove(t, url)
	file := filepath.Join(t.TempDir(), "copy.db")
	if out, errOut, status := runCmd(t, "backup", "-data", dir, file); status != 0 || !strings.Contains(out, "backed up") {
		t.Fatalf("backup: exit %d, %q, %q", status, out, errOut)
	}
	if _, errOut, status := runCmd(t, "backup", "-data", dir, file); status != 1 || !strings.Contains(errOut, "exists") {
		t.Errorf("a backup over its own copy: exit %d, %q", status, errOut)
	}
	if _, _, status := runCmd(t, "backup", "-data", dir); status != 2 {
		t.Errorf("a backup to no file: exit %d, want 2", status)
	}
	if _, errOut, status := runCmd(t, "backup", "-data", "postgres://postgres@127.0.0.1/test", file+"2"); status != 2 || !strings.Contains(errOut, "pg_dump") {
		t.Errorf("a backup of PostgreSQL: exit %d, %q; want 2 and the way to back it up", status, errOut)
	}
	stopServe(t, syscall.SIGTERM, code)

	restored := t.TempDir()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(restored, "lagoon.db"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	url, code = startServe(t, restored)
	if got := gameMoves(t, url, id); !slices.Equal(got, []string{move}) {
		t.Errorf("the restored game has moves %v, want [%s]", got, move)
	}
	stopServe(t, syscall.SIGTERM, code)
}
