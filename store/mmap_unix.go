//go:build unix

package store

import (
	"os"
	"syscall"
)

// mapFile maps size bytes of f read-only, so a check reads pages without a
// system call each.
func mapFile(f *os.File, size int64) ([]byte, func(), error) {
	if int64(int(size)) != size {
		return nil, func() {}, nil // too big to map here: read it instead
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, func() {}, nil // not mappable (a pipe, a special file): read it instead
	}
	return data, func() { syscall.Munmap(data) }, nil
}
