package store

import (
	"strings"

	"bytes"
	bolt "go.etcd.io/bbolt"
	"path/filepath"
	"testing"
)

// openTest opens a fresh store under t.TempDir and checks it on cleanup.
func openTest(t *testing.T) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Errorf("bbolt check: %v", err)
		}
		db.Close()
	})
	return db
}

func TestOpenTwiceKeepsSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbemd.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var first uint64
	if err := db.Update(func(tx *Tx) (err error) { first, err = tx.Sequence("x"); return err }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var second uint64
	if err := db.Update(func(tx *Tx) (err error) { second, err = tx.Sequence("x"); return err }); err != nil {
		t.Fatal(err)
	}
	if second != first+1 {
		t.Fatalf("sequence after reopen = %d, want %d", second, first+1)
	}
}

func TestBackupIsAStore(t *testing.T) {
	db := openTest(t)
	if err := db.Update(func(tx *Tx) error { _, err := tx.Sequence("games"); return err }); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := db.Backup(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "copy.db")
	if err := db.BackupFile(path); err != nil {
		t.Fatal(err)
	}
	cp, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	var n uint64
	if err := cp.Update(func(tx *Tx) (err error) { n, err = tx.Sequence("games"); return err }); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("copy's sequence = %d, want 2 (the original had issued 1)", n)
	}
}

// A store written by a newer pbemd is refused with a message, not misread.
func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbemd.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put([]byte("schema"), u64(SchemaVersion+1))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "newer than this pbemd") {
		t.Fatalf("a newer schema opened: %v", err)
	}
}
