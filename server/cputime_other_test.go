//go:build !unix

package server

import "time"

// processCPU is not measured here: the cpu-µs/mail metric reads 0.
func processCPU() time.Duration { return 0 }
