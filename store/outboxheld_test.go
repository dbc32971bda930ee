package store

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"testing"
	"time"
)

// TestOutboxHeldPart: a mail queued with a part not made yet is in the
// outbox but not due, and does not read back; the part's job is listed
// until the part is stored, which lets the mail go with the part's bytes
// as they were made (a File part: the reader encodes it). A mail that waits for two parts waits for both; the
// part is kept sealed and once, sealed in its transaction (PutPart) or
// ahead (SealPart, PutSealedPart).
func TestOutboxHeldPart(t *testing.T) {
	db := openTest(t)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var k1, k2 string
	if err := db.Update(func(tx *Tx) (err error) {
		if k1, err = tx.NewPart([]byte(`{"what":"picture one"}`)); err != nil {
			return err
		}
		k2, err = tx.NewPart([]byte(`{"what":"picture two"}`))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	one := []OutboxPart{{Key: k1, Off: 5, File: true}}
	a := enqueue(t, db, OutboxMessage{MessageID: "a@x", From: "gm@x", To: []string{"p1@x"}, Raw: []byte("head-tail-a"), Parts: one, Queued: t0})
	enqueue(t, db, OutboxMessage{MessageID: "b@x", From: "gm@x", To: []string{"p2@x"}, Raw: []byte("HEAD-TAIL-B"), Parts: one, Queued: t0})
	enqueue(t, db, OutboxMessage{MessageID: "c@x", From: "gm@x", To: []string{"p3@x"}, Raw: []byte("1-2-3"),
		Parts: []OutboxPart{{Key: k1, Off: 2, File: true}, {Key: k2, Off: 4, File: true}}, Queued: t0})
	enqueue(t, db, OutboxMessage{MessageID: "plain@x", From: "gm@x", To: []string{"p4@x"}, Raw: []byte("no picture"), Queued: t0})

	if ids := dueIDs(t, db, t0); len(ids) != 1 || ids[0] != "plain@x" {
		t.Fatalf("due before the parts are made: %v, want only the mail without parts", ids)
	}
	db.View(func(tx *Tx) error {
		if n := tx.OutboxLen(); n != 4 {
			t.Errorf("the outbox counts %d mails, want 4 (the held ones too)", n)
		}
		if _, err := tx.OutboxMail(a); !errors.Is(err, ErrHeld) {
			t.Errorf("a held mail read back: %v, want ErrHeld", err)
		}
		if got := tx.PendingParts(10); len(got) != 2 || got[0].Key != k1 || string(got[0].Job) != `{"what":"picture one"}` || got[1].Key != k2 {
			t.Errorf("pending parts %v, want %s then %s with their jobs", got, k1, k2)
		}
		return nil
	})

	png := bytes.Repeat([]byte("\x89PNG-some-picture-bytes-"), 300)
	if err := db.Update(func(tx *Tx) error { return tx.PutPart(k1, png) }); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a@x": "head-" + string(png) + "tail-a", "b@x": "HEAD-" + string(png) + "TAIL-B", "plain@x": "no picture"}
	got := due(t, db, t0)
	if len(got) != 3 {
		t.Fatalf("%d mails due after the first part, want 3 (c waits for its second)", len(got))
	}
	for _, m := range got {
		if string(m.Raw) != want[m.MessageID] {
			t.Errorf("%s read back as %q…, want the mail with the part's bytes", m.MessageID, m.Raw[:min(40, len(m.Raw))])
		}
	}
	second, err := db.SealPart([]byte("second")) // sealed ahead, outside the transaction
	if err != nil {
		t.Fatal(err)
	}
	again, err := db.SealPart([]byte("made twice, sealed ahead"))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error {
		if err := tx.PutSealedPart(k2, second); err != nil {
			return err
		}
		if err := tx.PutSealedPart(k1, again); err != nil { // made already: kept as it was
			return err
		}
		return tx.PutPart(k1, []byte("made twice")) // the same
	}); err != nil {
		t.Fatal(err)
	}
	got = due(t, db, t0)
	if len(got) != 4 || string(got[2].Raw) != "1-"+string(png)+"2-second3" {
		t.Fatalf("after both parts: %d due, c reads %q", len(got), got[min(2, len(got)-1)].Raw)
	}
	db.View(func(tx *Tx) error {
		if p := tx.PendingParts(10); len(p) != 0 {
			t.Errorf("parts still pending once made: %v", p)
		}
		return nil
	})
	file, err := os.ReadFile(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(file, png[:100]) {
		t.Error("the part is in the file in the clear: it must be sealed")
	}
}

// TestOutboxHeldPartGoesWithItsMails: a part to be made that no mail
// carries any more (each sent or failed; here, the last one failed) is no
// longer pending, and storing it later stores nothing.
func TestOutboxHeldPartGoesWithItsMails(t *testing.T) {
	db := openTest(t)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var key string
	if err := db.Update(func(tx *Tx) (err error) { key, err = tx.NewPart([]byte("{}")); return err }); err != nil {
		t.Fatal(err)
	}
	id := enqueue(t, db, OutboxMessage{MessageID: "a@x", From: "gm@x", To: []string{"p1@x"}, Raw: []byte("ab"), Parts: []OutboxPart{{Key: key, Off: 1}}, Queued: t0})
	if err := db.Update(func(tx *Tx) error { return tx.MailFailed(id, t0, "the GM gave up on it") }); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error { return tx.PutPart(key, []byte("late")) }); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		if p := tx.PendingParts(10); len(p) != 0 {
			t.Errorf("pending: %v", p)
		}
		for _, b := range [][]byte{bucketOutboxParts, bucketOutboxRefs, bucketOutboxHeld, bucketOutboxDue} {
			if n := tx.bucket(b).Stats().KeyN; n != 0 {
				t.Errorf("bucket %s keeps %d keys", b, n)
			}
		}
		return nil
	})
}

// TestOutboxHeldPartSurvivesReopen: a mail held for a part and the part's
// job are there after the store is closed and opened again, so a part
// whose maker died is made after a restart.
func TestOutboxHeldPartSurvivesReopen(t *testing.T) {
	path := t.TempDir() + "/pbemd.db"
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var key string
	if err := db.Update(func(tx *Tx) (err error) { key, err = tx.NewPart([]byte(`{"job":1}`)); return err }); err != nil {
		t.Fatal(err)
	}
	enqueue(t, db, OutboxMessage{MessageID: "a@x", From: "gm@x", To: []string{"p1@x"}, Raw: []byte("ab"), Parts: []OutboxPart{{Key: key, Off: 1}}, Queued: t0})
	db.Close()
	if db, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if ids := dueIDs(t, db, t0); len(ids) != 0 {
		t.Fatalf("due after reopening: %v", ids)
	}
	var pending []PendingPart
	db.View(func(tx *Tx) error { pending = tx.PendingParts(10); return nil })
	if len(pending) != 1 || pending[0].Key != key || string(pending[0].Job) != `{"job":1}` {
		t.Fatalf("pending after reopening: %v", pending)
	}
	if err := db.Update(func(tx *Tx) error { return tx.PutPart(key, []byte("-")) }); err != nil {
		t.Fatal(err)
	}
	if got := due(t, db, t0); len(got) != 1 || string(got[0].Raw) != "a-b" {
		t.Fatalf("after the part is made: %v", got)
	}
}

// TestOutboxMailWaitsAfterAPart: a mail that waits for a part it does not
// carry (After) is held until the part is made, and then due in the order
// it was queued, after the mail that carries it; a part made already is
// not waited for; and a part that will never be made (every mail that
// carries it left) holds nobody.
func TestOutboxMailWaitsAfterAPart(t *testing.T) {
	db := openTest(t)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var k1, k2 string
	if err := db.Update(func(tx *Tx) (err error) {
		if k1, err = tx.NewPart([]byte("{}")); err != nil {
			return err
		}
		k2, err = tx.NewPart([]byte("{}"))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	enqueue(t, db, OutboxMessage{MessageID: "results@x", From: "gm@x", To: []string{"p1@x"}, Raw: []byte("ab"), Parts: []OutboxPart{{Key: k1, Off: 1, File: true}}, Queued: t0})
	enqueue(t, db, OutboxMessage{MessageID: "over@x", From: "gm@x", To: []string{"p1@x"}, Raw: []byte("game over"), After: []string{k1}, Queued: t0})
	if ids := dueIDs(t, db, t0); len(ids) != 0 {
		t.Fatalf("due before the part is made: %v", ids)
	}
	if err := db.Update(func(tx *Tx) error { return tx.PutPart(k1, []byte("-")) }); err != nil {
		t.Fatal(err)
	}
	if ids := dueIDs(t, db, t0); !slices.Equal(ids, []string{"results@x", "over@x"}) {
		t.Fatalf("due once the part is made: %v, want the results, then the end", ids)
	}
	enqueue(t, db, OutboxMessage{MessageID: "late@x", From: "gm@x", To: []string{"p1@x"}, Raw: []byte("x"), After: []string{k1}, Queued: t0})
	if ids := dueIDs(t, db, t0); len(ids) != 3 {
		t.Fatalf("a mail waiting for a part made already is held: %v", ids)
	}

	gone := enqueue(t, db, OutboxMessage{MessageID: "r2@x", From: "gm@x", To: []string{"p2@x"}, Raw: []byte("ab"), Parts: []OutboxPart{{Key: k2, Off: 1, File: true}}, Queued: t0})
	enqueue(t, db, OutboxMessage{MessageID: "o2@x", From: "gm@x", To: []string{"p2@x"}, Raw: []byte("end"), After: []string{k2}, Queued: t0})
	if err := db.Update(func(tx *Tx) error { return tx.MailFailed(gone, t0, "the GM gave up on it") }); err != nil {
		t.Fatal(err)
	}
	if ids := dueIDs(t, db, t0); !slices.Contains(ids, "o2@x") {
		t.Fatalf("a mail waits for a part nobody will make: due %v", ids)
	}
	db.View(func(tx *Tx) error {
		if n := tx.bucket(bucketOutboxHeld).Stats().KeyN; n != 0 {
			t.Errorf("%d mails still held", n)
		}
		return nil
	})
}
