//go:build unix

package store

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// lockFile takes the exclusive lock bbolt itself takes (flock), waiting at
// most timeout for another process to let go.
func lockFile(f *os.File, timeout time.Duration) error {
	return flock(f, syscall.LOCK_EX, timeout)
}

// lockShared takes a shared lock: a check reads the file only while no
// daemon writes it.
func lockShared(f *os.File, timeout time.Duration) error {
	return flock(f, syscall.LOCK_SH, timeout)
}

func flock(f *os.File, how int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		if time.Now().After(deadline) {
			return ErrInUse
		}
		time.Sleep(50 * time.Millisecond)
	}
}
