//go:build !linux

package store

// releasePages does nothing where MADV_DONTNEED may not keep a shared
// file mapping's contents.
func releasePages(addr uintptr, size int64) {}
