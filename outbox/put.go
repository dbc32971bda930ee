package outbox

import (
	"fmt"
	"strings"
	"time"

	"pbemd/mailer"
	"pbemd/store"
)

// Options say how a composed mail is queued.
type Options struct {
	// Personal marks an answer to a mail (an acknowledgement, the reply
	// to a command): due, it leaves before any bulk mail (results,
	// announcements, reminders), so its sender never waits behind a burst.
	Personal bool
	// Queued is when the mail enters the outbox.
	Queued time.Time
	// Shared, when set, is a text the mail says word for word with other
	// mails: it is kept once for them all (Shared).
	Shared *Shared
}

// An Entry is a composed mail made ready for the outbox (Prepare): its
// record, sealed, and the places of the parts to be named when it is
// written (Writer.Put).
type Entry struct {
	rec   store.OutboxMessage
	files []int // indexes in rec.Parts of the file parts, keys not named yet
}

// Prepare makes a composed mail ready for the outbox: each hole of c (an
// attachment given Encoded: a picture drawn after the commit) becomes a
// file part to be named (Writer.Put), the text it shares with other mails
// (o.Shared) a part of its own, and its bytes are sealed. It reads nothing
// of tx but its key, so the mails of one transaction are prepared on
// every core while Put writes them in order on one.
func Prepare(tx *store.Tx, c *mailer.Composed, o Options) (Entry, error) {
	var e Entry
	parts := make([]store.OutboxPart, 0, len(c.Holes)+1)
	for _, h := range c.Holes {
		parts = append(parts, store.OutboxPart{Off: h.Off, File: true})
	}
	raw := c.Raw
	if o.Shared != nil {
		raw, parts = o.Shared.cut(raw, parts)
	}
	for i, p := range parts {
		if p.File {
			e.files = append(e.files, i)
		}
	}
	e.rec = store.OutboxMessage{MessageID: c.MessageID, From: c.EnvelopeFrom, To: c.Recipients, Raw: raw, Parts: parts,
		Queued: o.Queued.UTC(), Personal: o.Personal}
	if err := tx.SealRaw(&e.rec); err != nil {
		return Entry{}, fmt.Errorf("outbox: mail to %v: %w", c.Recipients, err)
	}
	return e, nil
}

// A Writer writes the mails of one transaction to the outbox, in order.
//
// Order. The sender takes due mail earliest first (answers to a mail
// before bulk mail), so mails written in order leave in order, but for a
// mail held for a part not made yet (a picture drawn after the commit): a
// mail written after it would overtake it. So a mail to a reader whose
// earlier mail of the transaction waits for a part waits for that part
// too (store.OutboxMessage.After). Parts are made in the order they are
// named (NewPart), so a mail waits only for the latest such part of each
// of its readers.
type Writer struct {
	tx *store.Tx
	// latest is, by reader (lower case), the latest part not made yet
	// that a mail of this transaction to them carries or waits for.
	latest map[string]string
}

// NewWriter returns the writer of tx's mails.
func NewWriter(tx *store.Tx) *Writer { return &Writer{tx: tx} }

// NewPart names a part that will be made after this transaction (a
// picture), and keeps job (what its maker needs, unread here) with it
// until it is made (PutParts). Mails given it in Put wait for it.
func (w *Writer) NewPart(job []byte) (string, error) { return w.tx.NewPart(job) }

// Put writes e, its file parts named by files (in order, keys from
// NewPart), and returns its id; the error wraps
// store.ErrDuplicateMessageID for a Message-ID the outbox has seen.
func (w *Writer) Put(e Entry, files []string) (uint64, error) {
	m := e.rec
	if len(files) != len(e.files) {
		return 0, fmt.Errorf("outbox: mail to %v: %d parts named for %d places", m.To, len(files), len(e.files))
	}
	own := ""
	for i, at := range e.files {
		m.Parts[at].Key = files[i]
		own = max(own, files[i])
	}
	after := ""
	for _, to := range m.To {
		if l := w.latest[strings.ToLower(to)]; l > own {
			after = max(after, l)
		}
	}
	if after != "" {
		m.After = []string{after}
	}
	id, err := w.tx.EnqueueMail(m)
	if err != nil {
		return id, fmt.Errorf("outbox: mail to %v: %w", m.To, err)
	}
	if last := max(own, after); last != "" {
		if w.latest == nil {
			w.latest = map[string]string{}
		}
		for _, to := range m.To {
			w.latest[strings.ToLower(to)] = last
		}
	}
	return id, nil
}

// Pending is a part to be made: its key and its maker's job.
type Pending = store.PendingPart

// PendingParts lists up to limit parts to be made (those whose maker was
// cut short: the daemon killed after the commit), in the order named.
func PendingParts(db *store.DB, limit int) (out []Pending, err error) {
	err = db.View(func(tx *store.Tx) error { out = tx.PendingParts(limit); return nil })
	return out, err
}

// Made is a made part, sealed for the store (Seal).
type Made = store.SealedPart

// Seal seals a made part for PutParts, outside any transaction, so the
// parts one transaction stores are sealed on every core.
func Seal(db *store.DB, data []byte) (Made, error) { return db.SealPart(data) }

// PutParts stores made parts under their keys in one transaction, which
// lets the mails that wait for them go. A part made already, or no mail
// carries or waits for any more, is not stored again.
func PutParts(db *store.DB, keys []string, made []Made) error {
	return db.Update(func(tx *store.Tx) error {
		for i, key := range keys {
			if err := tx.PutSealedPart(key, made[i]); err != nil {
				return fmt.Errorf("outbox: part %s: %w", key, err)
			}
		}
		return nil
	})
}
