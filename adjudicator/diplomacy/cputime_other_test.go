//go:build !unix

package diplomacy

import "time"

// processCPU is not measured here: the cpu-ms/op metric reads 0.
func processCPU() time.Duration { return 0 }
