//go:build !unix

package store

import (
	"os"
	"time"
)

// lockFile leaves locking to bbolt where flock does not exist.
func lockFile(f *os.File, timeout time.Duration) error { return nil }

func lockShared(f *os.File, timeout time.Duration) error { return nil }
