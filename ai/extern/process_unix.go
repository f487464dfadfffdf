//go:build unix

package extern

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes the program the leader of a new process group, so
// that it and everything it starts can be killed together.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills the process group led by pid.
func killProcessGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}
