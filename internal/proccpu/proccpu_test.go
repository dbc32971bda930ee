//go:build unix

package proccpu

import "testing"

// Work done shows in Used: it grows while the process computes.
func TestUsedGrows(t *testing.T) {
	before := Used()
	if before <= 0 {
		t.Fatalf("Used() = %v at the start of a test process", before)
	}
	x := uint64(1)
	for Used() == before {
		for i := 0; i < 1_000_000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	if Used() < before {
		t.Errorf("Used went back: %v after %v (%d)", Used(), before, x)
	}
}
