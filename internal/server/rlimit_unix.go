//go:build unix

package server

import "syscall"

// fileLimit returns the process's limit on open files (Go raises the soft
// limit to the hard one as it starts).
func fileLimit() int {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil || r.Cur > 1<<20 {
		return 1 << 16
	}
	return int(r.Cur)
}
