//go:build !unix

package server

// fileLimit returns a limit on open files where the system has none to ask.
func fileLimit() int { return 1 << 14 }
