package server

import (
	"os"
	"runtime/debug"
)

// The garbage collector's setting `pbemd serve` runs with. Go's default
// collects each time the heap has grown by its live size (GOGC=100); the
// daemon's live heap while it reads mail is a few megabytes, so it
// collected every few hundred mails. serve lets the heap grow four times
// its live size instead, under a soft limit of 200 MiB of Go memory: near
// the limit the collector works harder again rather than let the heap
// pass it. BenchmarkIngestDaemon/handler=batch/gc=serve and
// BenchmarkDeadlineBurst/gc=serve measure the daemon so set, the latter's
// RSS figures what the limit costs a 10,000-game burst.
const (
	ServeGCPercent   = 400
	ServeMemoryLimit = 200 << 20 // bytes of Go memory: heap, stacks, the runtime's own
)

// TuneGC sets the collector as serve runs it and returns the way back to
// the setting before. A GOGC or GOMEMLIMIT in the environment is the
// GM's choice and stays: TuneGC then leaves that part alone.
func TuneGC() (restore func()) {
	percent, limit := -2, int64(-2)
	if os.Getenv("GOGC") == "" {
		percent = debug.SetGCPercent(ServeGCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		limit = debug.SetMemoryLimit(ServeMemoryLimit)
	}
	return func() {
		if percent != -2 {
			debug.SetGCPercent(percent)
		}
		if limit != -2 {
			debug.SetMemoryLimit(limit)
		}
	}
}
