// Package storetest opens stores for the tests of other packages and
// reads the mail a store's outbox holds as its recipients would read it.
// (The store's own tests have the same helper inside the package.)
//
// It is for tests only: nothing that ships imports it.
package storetest

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"pbemd/mailer"
	"pbemd/store"
)

// Open opens a new store under t.TempDir; when the test ends it is
// checked (bbolt's consistency check) and closed.
func Open(t testing.TB) *store.DB {
	t.Helper()
	return OpenFile(t, filepath.Join(t.TempDir(), "pbemd.db"))
}

// OpenFile opens the store at path (a new one if there is none), to be
// checked and closed when the test ends.
func OpenFile(t testing.TB, path string) *store.DB {
	t.Helper()
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Errorf("bbolt check of %s: %v", path, err)
		}
		db.Close()
	})
	return db
}

// Mail is one mail of the outbox, parsed as its recipient reads it.
type Mail struct {
	To      string // the recipients, joined by commas
	Subject string
	Text    string
	Token   string // the +token of its reply address, "" for none
	Parsed  *mailer.Mail
}

// Outbox takes every mail queued in db's outbox out of it (marking each
// sent, as the sender would) and returns them sorted by recipient, in the
// order they were queued for each. own is the daemon's address (for the
// parser: a mail to it is mail to the game master).
func Outbox(t testing.TB, db *store.DB, own string) []Mail {
	t.Helper()
	var out []Mail
	err := db.Update(func(tx *store.Tx) error {
		ms, err := tx.DueMail(everything, 1<<20)
		if err != nil {
			return err
		}
		for _, m := range ms {
			pm, err := mailer.ParseMail(m.Raw, own)
			if err != nil {
				return err
			}
			x := Mail{To: strings.Join(m.To, ","), Subject: pm.Subject, Text: pm.Text, Parsed: pm}
			if a := pm.ReplyAddress(); a != nil {
				x.Token = plusToken(a.Address)
			}
			out = append(out, x)
			if err := tx.MailSent(m.ID, time.Now()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].To < out[j].To })
	return out
}

// everything is later than any mail a test queues, whatever its clock.
var everything = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)

// plusToken is the +token of an address ("gm+abc@host" ⇒ "abc").
func plusToken(addr string) string {
	if i, j := strings.Index(addr, "+"), strings.Index(addr, "@"); i >= 0 && j > i {
		return addr[i+1 : j]
	}
	return ""
}
