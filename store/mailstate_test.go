package store

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestMarkMailProcessedOnce(t *testing.T) {
	db := openTest(t)
	long := strings.Repeat("x", 40000) + "@example.org" // over bbolt's key limit: hashed
	for _, id := range []string{"a@example.org", long} {
		t.Run(id[:5], func(t *testing.T) {
			for i, want := range []bool{true, false, false} {
				var first bool
				if err := db.Update(func(tx *Tx) (err error) { first, err = tx.MarkMailProcessed(id, time.Now()); return err }); err != nil {
					t.Fatal(err)
				}
				if first != want {
					t.Fatalf("call %d: first = %v, want %v", i, first, want)
				}
			}
			db.View(func(tx *Tx) error {
				if !tx.MailWasProcessed(id) {
					t.Error("MailWasProcessed = false")
				}
				return nil
			})
		})
	}
}

func TestMarkMailProcessedRollsBackWithItsTransaction(t *testing.T) {
	db := openTest(t)
	boom := db.Update(func(tx *Tx) error {
		if _, err := tx.MarkMailProcessed("r@x", time.Now()); err != nil {
			return err
		}
		return errFake
	})
	if boom != errFake {
		t.Fatalf("update = %v", boom)
	}
	db.View(func(tx *Tx) error {
		if tx.MailWasProcessed("r@x") {
			t.Error("a rolled back transaction left the mail marked")
		}
		return nil
	})
}

type fakeErr struct{}

func (fakeErr) Error() string { return "fake" }

var errFake error = fakeErr{}

func TestMailCheckpoint(t *testing.T) {
	db := openTest(t)
	db.Update(func(tx *Tx) error {
		cp, err := tx.MailCheckpoint("gm@x/INBOX")
		if err != nil || cp != (MailCheckpoint{}) {
			t.Fatalf("missing checkpoint = %+v, %v", cp, err)
		}
		if err := tx.SetMailCheckpoint("gm@x/INBOX", MailCheckpoint{UIDValidity: 7, LastUID: 42}); err != nil {
			t.Fatal(err)
		}
		cp, _ = tx.MailCheckpoint("gm@x/INBOX")
		if cp != (MailCheckpoint{7, 42}) {
			t.Fatalf("checkpoint = %+v", cp)
		}
		if cp, _ := tx.MailCheckpoint("other"); cp != (MailCheckpoint{}) {
			t.Fatalf("other key sees %+v", cp)
		}
		return nil
	})
}

func TestMailFailures(t *testing.T) {
	db := openTest(t)
	db.Update(func(tx *Tx) error {
		for want := 1; want <= 3; want++ {
			n, err := tx.AddMailFailure("p@x", time.Now(), "boom")
			if err != nil || n != want {
				t.Fatalf("failure %d: %d, %v", want, n, err)
			}
		}
		f, _ := tx.MailFailures("p@x")
		if f.Count != 3 || f.LastError != "boom" {
			t.Fatalf("record = %+v", f)
		}
		tx.ClearMailFailures("p@x")
		if f, _ := tx.MailFailures("p@x"); f.Count != 0 {
			t.Fatalf("after clear: %+v", f)
		}
		return nil
	})
}

func TestAllowOncePer(t *testing.T) {
	db := openTest(t)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		key  string
		at   time.Duration
		want bool
	}{
		{"toobig:a@x", 0, true},
		{"toobig:a@x", 59 * time.Minute, false},
		{"toobig:b@x", 59 * time.Minute, true},
		{"toobig:a@x", 60 * time.Minute, true},
		{"toobig:a@x", 61 * time.Minute, false},
	}
	for _, c := range cases {
		var got bool
		if err := db.Update(func(tx *Tx) (err error) { got, err = tx.AllowOncePer(c.key, t0.Add(c.at), time.Hour); return err }); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s at +%v = %v, want %v", c.key, c.at, got, c.want)
		}
	}
}

// TestProcessedRecordIsItsJSON: the record MarkMailProcessed writes is
// MailProcessed as encoding/json writes it.
func TestProcessedRecordIsItsJSON(t *testing.T) {
	for _, at := range []time.Time{
		time.Date(2026, 12, 2, 6, 30, 0, 0, time.UTC),
		time.Date(2026, 12, 2, 6, 30, 0, 123456789, time.UTC),
		time.Date(1999, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600+1800)),
		{},
	} {
		want, err := json.Marshal(MailProcessed{At: at})
		if err != nil {
			t.Fatal(err)
		}
		got, err := processedJSON(at)
		if err != nil || string(got) != string(want) {
			t.Errorf("%v: %s %v, want %s", at, got, err, want)
		}
	}
	if _, err := processedJSON(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)); err == nil {
		t.Error("a year past 9999 encoded")
	}
}

func TestAllowNPer(t *testing.T) {
	db := openTest(t)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		key  string
		at   time.Duration
		want bool
		left int
	}{
		{"a@x", 0, true, 2},
		{"a@x", time.Minute, true, 1},
		{"b@x", time.Minute, true, 2},
		{"a@x", 59 * time.Minute, true, 0},
		{"a@x", 59 * time.Minute, false, 0},
		{"a@x", 60 * time.Minute, true, 2}, // a new period, from the first action
		{"a@x", 119 * time.Minute, true, 1},
		{"a@x", 119 * time.Minute, true, 0},
		{"a@x", 119 * time.Minute, false, 0},
		{"a@x", 120 * time.Minute, true, 2},
	}
	for _, c := range cases {
		var got bool
		var left int
		if err := db.Update(func(tx *Tx) (err error) {
			got, left, err = tx.AllowNPer(c.key, t0.Add(c.at), time.Hour, 3)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if got != c.want || left != c.left {
			t.Errorf("%s at +%v = %v, %d left; want %v, %d", c.key, c.at, got, left, c.want, c.left)
		}
	}
}
