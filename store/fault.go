package store

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// ErrWrite is wrapped by every Update error that comes from writing the
// transaction rather than from what the transaction was about: the commit
// failed (disk full, I/O error), the store is closed or read-only, or a
// write fault was injected (SetWriteFault). Nothing of the transaction
// landed. Such a failure is not the fault of the mail or tick that caused
// the transaction: do it again later, unchanged.
var ErrWrite = errors.New("store cannot write")

// Commit describes a transaction about to be committed, for a write fault
// hook.
type Commit struct {
	// Nodes is how many B+tree nodes the transaction changed: about how
	// many pages its commit must write. A hook that refuses commits above
	// a few nodes behaves like a nearly full disk, where a small record
	// still fits and a whole mail's effects do not.
	Nodes int
}

// writeFaults is the part of DB that injects and records write failures.
type writeFaults struct {
	hook atomic.Pointer[func(Commit) error]
	last atomic.Pointer[WriteFailure]
}

// WriteFailure is the last failed commit.
type WriteFailure struct {
	At  time.Time
	Err error
}

// SetWriteFault installs fn, which every Update consults just before it
// commits: when fn returns an error the transaction is rolled back and
// Update returns that error wrapped in ErrWrite, as a commit on a full
// disk would. nil removes the hook. It exists for tests of what the rest
// of pbemd does while the store cannot write; it is safe to call while
// the store is in use.
func (db *DB) SetWriteFault(fn func(Commit) error) {
	if fn == nil {
		db.faults.hook.Store(nil)
		return
	}
	db.faults.hook.Store(&fn)
}

// LastWriteFailure reports the last failed commit, or nil when the last
// commit succeeded (the store can write again).
func (db *DB) LastWriteFailure() *WriteFailure { return db.faults.last.Load() }

// commit commits btx, consulting the fault hook first, and classifies
// and records the outcome.
func (db *DB) commit(btx *bolt.Tx) error {
	if fn := db.faults.hook.Load(); fn != nil {
		st := btx.Stats()
		if err := (*fn)(Commit{Nodes: int(st.GetNodeCount())}); err != nil {
			btx.Rollback()
			return db.writeFailed(err)
		}
	}
	if err := btx.Commit(); err != nil {
		return db.writeFailed(err)
	}
	db.faults.last.Store(nil)
	return nil
}

func (db *DB) writeFailed(err error) error {
	db.faults.last.Store(&WriteFailure{At: time.Now(), Err: err})
	return fmt.Errorf("%w: %w", ErrWrite, err)
}
