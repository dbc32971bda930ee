// Package storetest opens stores for the tests of other packages and
// reads the mail a store's outbox holds as its recipients would read it.
// (The store's own tests have the same helper inside the package.)
//
// It is for tests only: nothing that ships imports it.
package storetest

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"pbemd/mailer"
	"pbemd/outbox"
	"pbemd/store"

	message "github.com/emersion/go-message"
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
	// Type is the mail's own media type ("text/plain", "multipart/mixed");
	// Parts are its leaf parts in order (the text, then attachments),
	// decoded.
	Type  string
	Parts []Part
}

// Part is one leaf part of a mail, its body decoded.
type Part struct {
	Type        string // media type, "image/png"
	Disposition string // "inline", "attachment" or ""
	Filename    string
	Data        []byte
}

// Pictures are the mail's image parts.
func (m Mail) Pictures() []Part {
	var out []Part
	for _, p := range m.Parts {
		if strings.HasPrefix(p.Type, "image/") {
			out = append(out, p)
		}
	}
	return out
}

// ReadParts reads the MIME structure of a raw mail: its media type and
// its leaf parts in order, decoded.
func ReadParts(raw []byte) (string, []Part, error) {
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		return "", nil, err
	}
	top, _, _ := e.Header.ContentType()
	var parts []Part
	err = e.Walk(func(_ []int, p *message.Entity, err error) error {
		if err != nil {
			return err
		}
		mt, params, _ := p.Header.ContentType()
		if strings.HasPrefix(mt, "multipart/") {
			return nil
		}
		data, err := io.ReadAll(p.Body)
		if err != nil {
			return err
		}
		part := Part{Type: mt, Filename: params["name"], Data: data}
		if d, dp, err := mime.ParseMediaType(p.Header.Get("Content-Disposition")); err == nil {
			part.Disposition = d
			if dp["filename"] != "" {
				part.Filename = dp["filename"]
			}
		}
		parts = append(parts, part)
		return nil
	})
	return top, parts, err
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
			m.Raw = outbox.Assemble(m)
			pm, err := mailer.ParseMail(m.Raw, own)
			if err != nil {
				return err
			}
			x := Mail{To: strings.Join(m.To, ","), Subject: pm.Subject, Text: pm.Text, Parsed: pm}
			if x.Type, x.Parts, err = ReadParts(m.Raw); err != nil {
				return fmt.Errorf("mail to %v: %w", m.To, err)
			}
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
