//go:build !unix

package extern

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing where there are no process groups; only the
// program itself is killed.
func setProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup kills the program.
func killProcessGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
