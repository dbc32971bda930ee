//go:build unix

package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// What bbolt does wrong on open, a panic or a fault in its memory map, comes
// out of Open as a *DamagedError with the way back, not as a crash.
func TestRecoveredTurnsPanicsAndFaultsIntoDamagedError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbemd.db")
	err := recovered(path, func() error { panic("invalid freelist page: 0, page type is unknown<00>") })
	var de *DamagedError
	if !errors.As(err, &de) || !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "invalid freelist page") || !strings.Contains(err.Error(), "pbemd backup") {
		t.Fatalf("a panic came out as %v", err)
	}

	// A real fault: a mapped file cut short under the mapping, as bbolt
	// meets a truncated store. Reading past the end raises SIGBUS.
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(2 * 4096); err != nil {
		t.Fatal(err)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, 2*4096, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Skipf("no mmap here: %v", err)
	}
	defer syscall.Munmap(data)
	if err := f.Truncate(0); err != nil {
		t.Fatal(err)
	}
	var sink byte
	err = recovered(path, func() error { sink = data[5000]; return nil })
	if !errors.As(err, &de) {
		t.Fatalf("a fault came out as %v (read %d)", err, sink)
	}
}

// A second Open of a store in use waits for the lock, then says the store
// is in use instead of bbolt's bare "timeout".
func TestOpenInUse(t *testing.T) {
	old := lockTimeout
	lockTimeout = 100 * time.Millisecond
	defer func() { lockTimeout = old }()
	path := filepath.Join(t.TempDir(), "pbemd.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = Open(path)
	if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), "already running") {
		t.Fatalf("second Open: %v", err)
	}
}
