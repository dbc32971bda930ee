package store

import (
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// The pages of the store's file that bbolt has mapped count in the
// process's resident set once read through the mapping, and stay there
// until the mapping is dropped (bbolt maps the whole file and remaps it
// only to grow it). A deadline burst reads and rewrites every due game's
// records and writes thousands of pictures, and bbolt reads each leaf it
// rewrites (a new picture's neighbours too) through the mapping: in a
// burst of 10,000 games they were 250 MB of the process's 390 MB, pages
// the process never needs again. So once the file has grown by
// releaseEvery since the last time, the pages of the mapping are given
// back (madvise MADV_DONTNEED on Linux: the page table entries go, the
// pages stay in the kernel's page cache, and a page read again is mapped
// again from it). Nothing is lost: bbolt maps the file read-only and
// writes with write(2).

// releaseEvery is how much the file grows between two releases.
const releaseEvery = 8 << 20

// resident is the part of DB that gives mapped pages back.
type resident struct {
	last atomic.Int64 // the file's size (bbolt's high-water mark) at the last release
}

// afterCommit is called with the size of the file a write transaction
// began with, after it is committed.
func (db *DB) afterCommit(size int64) {
	last := db.resident.last.Load()
	if size-last < releaseEvery || !db.resident.last.CompareAndSwap(last, size) {
		return
	}
	db.releaseMapped()
}

// releaseMapped gives the mapped pages of the file back. A read
// transaction pins the mapping meanwhile (bbolt remaps only when no
// reader holds it).
func (db *DB) releaseMapped() {
	db.bolt.View(func(tx *bolt.Tx) error {
		releasePages(db.bolt.Info().Data, tx.Size())
		return nil
	})
}
