//go:build linux

package store

import "syscall"

// releasePages drops the process's mapping of the size bytes of a file
// mapped read-only at addr (the pages stay in the page cache).
func releasePages(addr uintptr, size int64) {
	syscall.Syscall(syscall.SYS_MADVISE, addr, uintptr(size), syscall.MADV_DONTNEED)
}
