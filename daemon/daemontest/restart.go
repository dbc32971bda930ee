package daemontest

import (
	"path/filepath"
	"testing"

	"pbemd/daemon"
	"pbemd/store"
)

// openStore opens a new store under t.TempDir. The Table closes it (the
// one it has then: Restart opens the file again) when the test ends,
// after bbolt's consistency check.
func openStore(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func (tb *Table) closeStore() {
	if err := tb.DB.Check(); err != nil {
		tb.T.Errorf("bbolt check of %s: %v", tb.DB.Path(), err)
	}
	tb.DB.Close()
}

// Restart closes the store and opens its file again under a new daemon
// with the same options and clock, as a restart of pbemd does: what the
// daemon knows afterwards is what the store kept.
func (tb *Table) Restart() {
	tb.T.Helper()
	path := tb.DB.Path()
	if err := tb.DB.Close(); err != nil {
		tb.T.Fatal(err)
	}
	db, err := store.Open(path)
	if err != nil {
		tb.T.Fatal(err)
	}
	tb.DB = db
	if tb.D, err = daemon.New(db, tb.opt); err != nil {
		tb.T.Fatal(err)
	}
}
