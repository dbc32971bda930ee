package server

import (
	"runtime/debug"
	"testing"
)

// TestTuneGCAsServeRunsIt: TuneGC sets the collector's percent and soft
// memory limit, leaves whichever the environment names alone, and its
// restore puts back what was set before.
func TestTuneGCAsServeRunsIt(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	limit := debug.SetMemoryLimit(-1)
	restore := TuneGC()
	if p := debug.SetGCPercent(-1); p != ServeGCPercent {
		t.Errorf("GC percent %d, want %d", p, ServeGCPercent)
	}
	debug.SetGCPercent(ServeGCPercent)
	if l := debug.SetMemoryLimit(-1); l != ServeMemoryLimit {
		t.Errorf("memory limit %d, want %d", l, ServeMemoryLimit)
	}
	restore()
	if p := debug.SetGCPercent(-1); p != 100 {
		t.Errorf("after restore, GC percent %d, want 100", p)
	}
	debug.SetGCPercent(100)
	if l := debug.SetMemoryLimit(-1); l != limit {
		t.Errorf("after restore, memory limit %d, want %d", l, limit)
	}

	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "1GiB")
	restore = TuneGC()
	if p := debug.SetGCPercent(-1); p != 100 {
		t.Errorf("GOGC set by the GM, yet the percent is %d", p)
	}
	debug.SetGCPercent(100)
	if l := debug.SetMemoryLimit(-1); l != limit {
		t.Errorf("GOMEMLIMIT set by the GM, yet the limit is %d", l)
	}
	restore()
}
