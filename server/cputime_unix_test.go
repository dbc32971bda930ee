//go:build unix

package server

import (
	"syscall"
	"time"
)

// processCPU is the processor time the process has used, user and
// system: on a shared machine it says what a mail costs better than the
// wall clock does.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
