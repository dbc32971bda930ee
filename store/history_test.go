package store

import (
	"bytes"
	"path/filepath"
	"testing"
)

// The state before a phase is kept once: in the record before it, as its
// state after. A record whose state before is not that keeps its own.
func TestPhaseRecordsKeepEachStateOnce(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s0, s1, s2, other := []byte(`{"s":0}`), []byte(`{"s":1}`), []byte(`{"s":2}`), []byte(`{"s":"edited"}`)
	recs := []PhaseRecord{
		{Phase: 0, PhaseID: "S1901M", StateBefore: s0, StateAfter: s1},
		{Phase: 1, PhaseID: "F1901M", StateBefore: s1, StateAfter: s2},
		{Phase: 2, PhaseID: "W1901A", StateBefore: other, StateAfter: s2},
	}
	if err := db.Update(func(tx *Tx) error {
		for _, r := range recs {
			if err := tx.PutPhase("g", r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.View(func(tx *Tx) error {
		b := tx.bucket(bucketHistory)
		for i, r := range recs {
			raw := b.Get(phaseKey("g", r.Phase))
			stored := bytes.Contains(raw, []byte(`"state_before":null`))
			if want := i == 1; stored != want {
				t.Errorf("phase %d: state before left out %v, want %v: %s", i, stored, want, raw)
			}
			got, err := tx.Phase("g", r.Phase)
			if err != nil {
				return err
			}
			if !bytes.Equal(got.StateBefore, r.StateBefore) || !bytes.Equal(got.StateAfter, r.StateAfter) {
				t.Errorf("phase %d reads back before %s after %s", i, got.StateBefore, got.StateAfter)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// ROLLBACK deletes the last record; processed again, it is kept so.
	if err := db.Update(func(tx *Tx) error {
		if err := tx.DeletePhase("g", 2); err != nil {
			return err
		}
		return tx.PutPhase("g", PhaseRecord{Phase: 2, PhaseID: "W1901A", StateBefore: s2, StateAfter: s2})
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.View(func(tx *Tx) error {
		got, err := tx.Phase("g", 2)
		if err == nil && !bytes.Equal(got.StateBefore, s2) {
			t.Errorf("phase 2 after ROLLBACK reads before %s", got.StateBefore)
		}
		if raw := tx.bucket(bucketHistory).Get(phaseKey("g", 2)); !bytes.Contains(raw, []byte(`"state_before":null`)) {
			t.Errorf("phase 2 after ROLLBACK keeps its state before twice: %s", raw)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
