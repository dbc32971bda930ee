package store

import (
	"slices"
	"testing"
	"time"
)

// TestOutboxPersonalBeforeBulk: due personal mail comes before due bulk
// mail, whatever the order they were queued in; a retried or held
// personal mail stays personal; a mail not yet due waits whatever its
// class; NextMailDue sees both classes.
func TestOutboxPersonalBeforeBulk(t *testing.T) {
	db := openTest(t)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	mail := func(id string, personal bool, next time.Time) OutboxMessage {
		return OutboxMessage{MessageID: id, To: []string{"p@x"}, Raw: []byte(id), Queued: t0, NextAttempt: next, Personal: personal}
	}
	for i := range 3 {
		enqueue(t, db, mail("bulk"+string(rune('1'+i))+"@x", false, time.Time{}))
	}
	ack := enqueue(t, db, mail("ack@x", true, time.Time{}))
	enqueue(t, db, mail("later@x", true, t0.Add(time.Hour)))

	got := due(t, db, t0)
	var ids []string
	for _, m := range got {
		ids = append(ids, m.MessageID)
	}
	if want := []string{"ack@x", "bulk1@x", "bulk2@x", "bulk3@x"}; !slices.Equal(ids, want) {
		t.Fatalf("due %v, want %v", ids, want)
	}
	if !got[0].Personal || got[1].Personal {
		t.Errorf("classes read back: %v %v, want personal then bulk", got[0].Personal, got[1].Personal)
	}
	if ids := dueIDs(t, db, t0.Add(time.Hour)); ids[0] != "ack@x" || ids[1] != "later@x" {
		t.Errorf("due an hour later %v, want the two personal mails first", ids)
	}

	// An attempt and a retry keep the mail in its class.
	if err := db.Update(func(tx *Tx) error {
		if err := tx.BeginMailAttempt(ack, t0.Add(time.Minute)); err != nil {
			return err
		}
		return tx.RetryMail(ack, t0.Add(2*time.Minute), "451 later")
	}); err != nil {
		t.Fatal(err)
	}
	if ids := dueIDs(t, db, t0); slices.Contains(ids, "ack@x") {
		t.Errorf("a retried mail is due before its retry: %v", ids)
	}
	if ids := dueIDs(t, db, t0.Add(2*time.Minute)); ids[0] != "ack@x" {
		t.Errorf("due at the retry: %v, want the retried answer first", ids)
	}
	db.View(func(tx *Tx) error {
		if next, ok, err := tx.NextMailDue(); !ok || err != nil || !next.IsZero() {
			t.Errorf("NextMailDue = %v %v %v, want the bulk mails due at once", next, ok, err)
		}
		return nil
	})

	// Sent, it leaves both schedules.
	if err := db.Update(func(tx *Tx) error { return tx.MailSent(ack, t0) }); err != nil {
		t.Fatal(err)
	}
	if ids := dueIDs(t, db, t0.Add(time.Hour)); slices.Contains(ids, "ack@x") || len(ids) != 4 {
		t.Errorf("due after the answer was sent: %v", ids)
	}

	// Only personal mail left: NextMailDue finds it.
	for _, m := range due(t, db, t0) {
		if err := db.Update(func(tx *Tx) error { return tx.MailSent(m.ID, t0) }); err != nil {
			t.Fatal(err)
		}
	}
	db.View(func(tx *Tx) error {
		if next, ok, err := tx.NextMailDue(); !ok || err != nil || !next.Equal(t0.Add(time.Hour)) {
			t.Errorf("NextMailDue = %v %v %v, want the personal mail an hour on", next, ok, err)
		}
		return nil
	})
}

// TestOutboxHeldPersonalStaysPersonal: an answer that waits for a
// picture is let go into the personal schedule, with one part or two; a
// held mail of a store older than the classes (its entry without one)
// is let go as bulk.
func TestOutboxHeldPersonalStaysPersonal(t *testing.T) {
	db := openTest(t)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var k1, k2 string
	if err := db.Update(func(tx *Tx) (err error) {
		if k1, err = tx.NewPart(nil); err != nil {
			return err
		}
		k2, err = tx.NewPart(nil)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	enqueue(t, db, OutboxMessage{MessageID: "bulk@x", To: []string{"p@x"}, Raw: []byte("bulk"), Queued: t0})
	enqueue(t, db, OutboxMessage{MessageID: "map@x", To: []string{"p@x"}, Raw: []byte("map: "), Queued: t0, Personal: true,
		Parts: []OutboxPart{{Key: k1, Off: 5}}})
	enqueue(t, db, OutboxMessage{MessageID: "maps@x", To: []string{"p@x"}, Raw: []byte("maps: "), Queued: t0, Personal: true,
		Parts: []OutboxPart{{Key: k1, Off: 5}, {Key: k2, Off: 6}}})
	old := enqueue(t, db, OutboxMessage{MessageID: "old@x", To: []string{"p@x"}, Raw: []byte("old: "), Queued: t0, Personal: true,
		Parts: []OutboxPart{{Key: k2, Off: 5}}})
	// old's entry as a store without classes wrote it: no class byte.
	if err := db.Update(func(tx *Tx) error {
		held := tx.bucket(bucketOutboxHeld)
		v := held.Get(heldKey(k2, old))
		return held.Put(heldKey(k2, old), append([]byte(nil), v[:17]...))
	}); err != nil {
		t.Fatal(err)
	}
	if ids := dueIDs(t, db, t0); !slices.Equal(ids, []string{"bulk@x"}) {
		t.Fatalf("due before the pictures are made: %v", ids)
	}
	if err := db.Update(func(tx *Tx) error {
		if err := tx.PutPart(k1, []byte("A")); err != nil {
			return err
		}
		return tx.PutPart(k2, []byte("B"))
	}); err != nil {
		t.Fatal(err)
	}
	if ids, want := dueIDs(t, db, t0), []string{"map@x", "maps@x", "bulk@x", "old@x"}; !slices.Equal(ids, want) {
		t.Fatalf("due once the pictures are made: %v, want %v", ids, want)
	}
}
