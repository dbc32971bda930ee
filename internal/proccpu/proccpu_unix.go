//go:build unix

// Package proccpu reads the processor time the process has used, user
// and system, for benchmarks: on a shared machine it says what one
// operation costs better than the wall clock does.
package proccpu

import (
	"syscall"
	"time"
)

// Used is the processor time the process has used so far, or 0 when the
// system does not say.
func Used() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
