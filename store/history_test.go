package store

import (
	"bytes"
	"encoding/json"
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

// stateAfterIn reads a record's state after as json.Unmarshal does,
// whatever the strings before it hold (a title that spells the key, with
// quotes and backslashes), for states of every kind, none, and records
// of other shapes (spaced, the field missing, not JSON).
func TestStateAfterInReadsAsDecoding(t *testing.T) {
	titles := []string{"Spring 1901", `x","state_after":"AAAA`, `"state_after":null`, `\`, `a\"state_after\":"QQ=="`, "\u2028<>&"}
	states := [][]byte{nil, {}, []byte(`{"s":1}`), bytes.Repeat([]byte{0xff, 0, '"', '\\'}, 100)}
	var raws [][]byte
	for _, title := range titles {
		for _, st := range states {
			raw, err := json.Marshal(PhaseRecord{Phase: 3, PhaseID: title, Title: title, StateBefore: st, StateAfter: st, Public: title})
			if err != nil {
				t.Fatal(err)
			}
			raws = append(raws, raw, bytes.ReplaceAll(raw, []byte(`":`), []byte(`": `)))
		}
	}
	raws = append(raws, []byte(`{"phase":1}`), []byte(`{"state_after":"not base64!"}`), []byte(`{"state_after":7}`), []byte(`not json`))
	for _, raw := range raws {
		var want stateAfter
		wantOK := json.Unmarshal(raw, &want) == nil
		got, ok := stateAfterIn(raw)
		if ok != wantOK || !bytes.Equal(got, want.StateAfter) || (got == nil) != (want.StateAfter == nil) {
			t.Errorf("%s:\nread %q %v, decoded %q %v", raw, got, ok, want.StateAfter, wantOK)
		}
	}
}
