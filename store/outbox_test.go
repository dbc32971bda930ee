package store

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func enqueue(t *testing.T, db *DB, m OutboxMessage) uint64 {
	t.Helper()
	var id uint64
	if err := db.Update(func(tx *Tx) (err error) { id, err = tx.EnqueueMail(m); return err }); err != nil {
		t.Fatalf("enqueue %s: %v", m.MessageID, err)
	}
	return id
}

// due returns the mails due at now, each Raw with its parts' Data put in
// at their places as the store keeps them (the outbox package, which
// reads them for the sender, encodes a File part).
func due(t *testing.T, db *DB, now time.Time) []OutboxMessage {
	t.Helper()
	var out []OutboxMessage
	if err := db.View(func(tx *Tx) (err error) { out, err = tx.DueMail(now, 100); return err }); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		out[i].Raw = spliced(out[i])
	}
	return out
}

// spliced is m's Raw with the Data of its parts in place.
func spliced(m OutboxMessage) []byte {
	var out []byte
	at := 0
	for _, p := range m.Parts {
		out = append(append(out, m.Raw[at:p.Off]...), p.Data...)
		at = p.Off
	}
	return append(out, m.Raw[at:]...)
}

func dueIDs(t *testing.T, db *DB, now time.Time) []string {
	var ids []string
	for _, m := range due(t, db, now) {
		ids = append(ids, m.MessageID)
	}
	return ids
}

func TestOutboxScheduleAndLifecycle(t *testing.T) {
	db := openTest(t)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	a := enqueue(t, db, OutboxMessage{MessageID: "a@x", From: "gm@x", To: []string{"p1@x"}, Raw: []byte("A"), Queued: t0})
	b := enqueue(t, db, OutboxMessage{MessageID: "b@x", From: "gm@x", To: []string{"p2@x"}, Raw: []byte("B"), Queued: t0, NextAttempt: t0.Add(time.Minute)})
	if a == b {
		t.Fatalf("ids not distinct: %d %d", a, b)
	}

	if got := dueIDs(t, db, t0); len(got) != 1 || got[0] != "a@x" {
		t.Fatalf("due at t0 = %v, want [a@x]", got)
	}
	if got := dueIDs(t, db, t0.Add(time.Minute)); len(got) != 2 {
		t.Fatalf("due at t0+1m = %v, want both", got)
	}
	m := due(t, db, t0)[0]
	if string(m.Raw) != "A" || m.From != "gm@x" || m.To[0] != "p1@x" {
		t.Fatalf("due mail = %+v", m)
	}

	// an attempt begins: a no longer due until retryAt, and counted
	if err := db.Update(func(tx *Tx) error { return tx.BeginMailAttempt(a, t0.Add(10*time.Minute)) }); err != nil {
		t.Fatal(err)
	}
	if got := dueIDs(t, db, t0.Add(time.Minute)); len(got) != 1 || got[0] != "b@x" {
		t.Fatalf("due during attempt = %v, want [b@x]", got)
	}
	var next time.Time
	db.View(func(tx *Tx) (err error) { next, _, err = tx.NextMailDue(); return err })
	if !next.Equal(t0.Add(time.Minute)) {
		t.Fatalf("next due = %v, want b's %v", next, t0.Add(time.Minute))
	}

	// temporary failure: rescheduled with the error kept
	if err := db.Update(func(tx *Tx) error { return tx.RetryMail(a, t0.Add(2*time.Minute), "451 try later") }); err != nil {
		t.Fatal(err)
	}
	got := due(t, db, t0.Add(2*time.Minute))
	if len(got) != 2 || got[1].MessageID != "a@x" || got[1].Attempts != 1 || got[1].LastError != "451 try later" {
		t.Fatalf("after retry: %+v", got)
	}

	if err := db.Update(func(tx *Tx) error { return tx.MailSent(a, t0.Add(3*time.Minute)) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error { return tx.MailFailed(b, t0.Add(3*time.Minute), "550 no such user") }); err != nil {
		t.Fatal(err)
	}
	if got := dueIDs(t, db, t0.Add(time.Hour)); len(got) != 0 {
		t.Fatalf("outbox not empty: %v", got)
	}
	db.View(func(tx *Tx) error {
		if n := tx.OutboxLen(); n != 0 {
			t.Errorf("OutboxLen = %d", n)
		}
		if _, ok, _ := tx.NextMailDue(); ok {
			t.Error("NextMailDue reports a mail in an empty outbox")
		}
		for _, c := range []struct{ id, state string }{{"a@x", OutboxSent}, {"b@x", OutboxFailed}} {
			st, err := tx.MailStatus(c.id)
			if err != nil || st.State != c.state {
				t.Errorf("status %s = %+v, %v; want %s", c.id, st, err, c.state)
			}
		}
		if _, err := tx.MailStatus("zz@x"); !errors.Is(err, ErrNotFound) {
			t.Errorf("status of unknown id: %v", err)
		}
		failed, err := tx.FailedMail()
		if err != nil || len(failed) != 1 || failed[0].Reason != "550 no such user" || failed[0].Raw != nil {
			t.Errorf("failed list = %+v, %v", failed, err)
		}
		return nil
	})
}

func TestEnqueueMailIsIdempotentPerMessageID(t *testing.T) {
	db := openTest(t)
	m := OutboxMessage{MessageID: "dup@x", To: []string{"p@x"}, Raw: []byte("X")}
	first := enqueue(t, db, m)
	for _, stage := range []string{"queued", "sent"} {
		t.Run(stage, func(t *testing.T) {
			var id uint64
			err := db.Update(func(tx *Tx) (err error) { id, err = tx.EnqueueMail(m); return err })
			if !errors.Is(err, ErrDuplicateMessageID) || id != first {
				t.Fatalf("second enqueue while %s: id %d, %v; want %d, ErrDuplicateMessageID", stage, id, err, first)
			}
			if n := len(due(t, db, time.Now())); n != map[string]int{"queued": 1, "sent": 0}[stage] {
				t.Fatalf("%d mails due", n)
			}
		})
		db.Update(func(tx *Tx) error { return tx.MailSent(first, time.Now()) })
	}
}

func TestEnqueueMailRejectsIncompleteMail(t *testing.T) {
	db := openTest(t)
	for name, m := range map[string]OutboxMessage{
		"no id":   {To: []string{"p@x"}, Raw: []byte("X")},
		"no rcpt": {MessageID: "a@x", Raw: []byte("X")},
		"no body": {MessageID: "a@x", To: []string{"p@x"}},
	} {
		t.Run(name, func(t *testing.T) {
			if err := db.Update(func(tx *Tx) error { _, err := tx.EnqueueMail(m); return err }); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}

func TestOutboxSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbemd.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	enqueue(t, db, OutboxMessage{MessageID: "a@x", To: []string{"p@x"}, Raw: []byte("body")})
	db.Close()
	db2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	got := due(t, db2, time.Now())
	if len(got) != 1 || string(got[0].Raw) != "body" {
		t.Fatalf("after reopen: %+v", got)
	}
}

// The times Message-IDs begin with grow, in one transaction and from one
// to the next, whether the clock stands still, is set back or moves on;
// a clock that moves on is followed as it is.
func TestMessageIDTimeGrows(t *testing.T) {
	db := openTest(t)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var got []int64
	for _, now := range [][]time.Time{
		{t0, t0, t0},                               // standing still
		{t0, t0.Add(-time.Hour)},                   // next transaction, set back
		{t0.Add(time.Second), t0.Add(time.Second)}, // moved on
	} {
		if err := db.Update(func(tx *Tx) error {
			for _, n := range now {
				got = append(got, tx.MessageIDTime(n))
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	ns := t0.UnixNano()
	want := []int64{ns, ns + 1, ns + 2, ns + 3, ns + 4, ns + int64(time.Second), ns + int64(time.Second) + 1}
	if !slices.Equal(got, want) {
		t.Errorf("times %v, want %v", got, want)
	}
}
