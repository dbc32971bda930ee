package store

import (
	"errors"
	"path/filepath"
	"testing"
	"time"
)

var errDiskFull = errors.New("no space left on device")

// A refused commit lands nothing, is told apart from the transaction's
// own errors, and is remembered until a commit succeeds again.
func TestWriteFaultRollsBackAndIsClassified(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbemd.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetWriteFault(func(Commit) error { return errDiskFull })
	err = db.Update(func(tx *Tx) error {
		_, err := tx.MarkMailProcessed("lost@x", time.Now())
		return err
	})
	if !errors.Is(err, ErrWrite) || !errors.Is(err, errDiskFull) {
		t.Fatalf("Update under a write fault = %v; want ErrWrite wrapping the cause", err)
	}
	if f := db.LastWriteFailure(); f == nil || !errors.Is(f.Err, errDiskFull) {
		t.Fatalf("LastWriteFailure = %+v", f)
	}
	own := errors.New("not my store's fault")
	if err := db.Update(func(tx *Tx) error { return own }); !errors.Is(err, own) || errors.Is(err, ErrWrite) {
		t.Fatalf("an error of the transaction itself = %v; must not be ErrWrite", err)
	}

	db.SetWriteFault(nil)
	if err := db.Update(func(tx *Tx) error {
		_, err := tx.MarkMailProcessed("kept@x", time.Now())
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if f := db.LastWriteFailure(); f != nil {
		t.Fatalf("LastWriteFailure after a good commit = %+v", f)
	}
	db.Close()

	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *Tx) error {
		if tx.MailWasProcessed("lost@x") {
			t.Error("the refused transaction landed")
		}
		if !tx.MailWasProcessed("kept@x") {
			t.Error("the good transaction did not land")
		}
		return nil
	})
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

// The hook sees how much a commit writes: a nearly full disk can refuse
// a mail's effects while a small record still fits.
func TestWriteFaultSeesCommitSize(t *testing.T) {
	db := openTest(t)
	var nodes []int
	db.SetWriteFault(func(c Commit) error { nodes = append(nodes, c.Nodes); return nil })
	db.Update(func(tx *Tx) error { _, err := tx.AddMailFailure("m@x", time.Now(), "x"); return err })
	db.Update(func(tx *Tx) error {
		tx.MarkMailProcessed("m@x", time.Now())
		_, err := tx.EnqueueMail(OutboxMessage{MessageID: "r@x", To: []string{"p@x"}, Raw: []byte("hi"), Queued: time.Now()})
		return err
	})
	t.Logf("nodes %v", nodes)
	if len(nodes) != 2 || nodes[0] < 1 || nodes[1] <= nodes[0] {
		t.Fatalf("nodes per commit %v: want a small one, then a bigger one", nodes)
	}
}

func TestUpdateOnAClosedStoreIsAWriteError(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := db.Update(func(tx *Tx) error { return nil }); !errors.Is(err, ErrWrite) {
		t.Fatalf("Update on a closed store = %v", err)
	}
}
