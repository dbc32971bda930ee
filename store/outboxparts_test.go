package store

import (
	"bytes"
	"os"
	"testing"
	"time"
)

// TestOutboxSharedPart: a part two mails carry is kept once, sealed, and
// each mail reads back whole; it stays while one of them is queued and
// goes with the last (sent or failed).
func TestOutboxSharedPart(t *testing.T) {
	db := openTest(t)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	pic := bytes.Repeat([]byte("PICTURE-BYTES-"), 1000)
	part := func() []OutboxPart { return []OutboxPart{{Key: "k1", Off: 5, Data: pic}} }
	a := enqueue(t, db, OutboxMessage{MessageID: "a@x", From: "gm@x", To: []string{"p1@x"}, Raw: []byte("head-tail-a"), Parts: part(), Queued: t0})
	b := enqueue(t, db, OutboxMessage{MessageID: "b@x", From: "gm@x", To: []string{"p2@x"}, Raw: []byte("HEAD-TAIL-B"), Parts: part(), Queued: t0})
	want := map[string]string{"a@x": "head-" + string(pic) + "tail-a", "b@x": "HEAD-" + string(pic) + "TAIL-B"}
	for _, m := range due(t, db, t0) {
		if string(m.Raw) != want[m.MessageID] {
			t.Errorf("%s read back as %d bytes, want the whole mail (%d)", m.MessageID, len(m.Raw), len(want[m.MessageID]))
		}
	}
	stored := func() (parts int, size int) {
		db.View(func(tx *Tx) error {
			tx.bucket(bucketOutboxParts).ForEach(func(_, v []byte) error { parts++; size += len(v); return nil })
			return nil
		})
		return
	}
	if n, size := stored(); n != 1 || size > len(pic)+100 {
		t.Fatalf("%d parts of %d bytes stored, want one of about %d", n, size, len(pic))
	}
	file, err := os.ReadFile(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(file, pic[:100]) {
		t.Error("the part is in the file in the clear: it must be sealed")
	}
	if err := db.Update(func(tx *Tx) error { return tx.MailSent(a, t0) }); err != nil {
		t.Fatal(err)
	}
	if n, _ := stored(); n != 1 {
		t.Fatalf("after one of two mails left: %d parts, want 1", n)
	}
	if m := due(t, db, t0); len(m) != 1 || string(m[0].Raw) != want["b@x"] {
		t.Fatalf("the second mail lost its part: %v", m)
	}
	if err := db.Update(func(tx *Tx) error { return tx.MailFailed(b, t0, "550") }); err != nil {
		t.Fatal(err)
	}
	if n, _ := stored(); n != 0 {
		t.Fatalf("after both mails left: %d parts, want none", n)
	}
}
