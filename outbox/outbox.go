// Package outbox is pbemd's outgoing queue, and its one owner. It takes
// the mails the daemon composed (package mailer makes their bytes) and
// stores them through the store, in the transaction that caused them; it
// keeps once the parts many mails carry alike (a picture drawn after the
// commit, the public results every report of a phase begins with); it
// puts the mails in order (answers to a mail before bulk mail; the mails
// of one transaction to one reader in the order they were written, none
// overtaking one held for its picture; each reader's Date headers
// strictly increasing); and it is the queue mailer's Sender drains
// (NewQueue).
//
// It knows no games, and no MIME rules: the store keeps bytes and says
// which part is a file's own bytes, and mailer writes MIME (a file part
// goes into its mail in mailer.Base64Lines). It never sends mail itself,
// opens no socket and no file, and reads no clock: its callers give it
// the time.
package outbox

import (
	"time"

	"pbemd/mailer"
	"pbemd/store"
)

// Assemble returns the whole message of a mail read from the store: its
// Raw with each part in place, a file part encoded as the body of a MIME
// part (mailer.Base64Lines).
func Assemble(m store.OutboxMessage) []byte {
	if len(m.Parts) == 0 {
		return m.Raw
	}
	holes := make([]mailer.Hole, len(m.Parts))
	for i, p := range m.Parts {
		data := p.Data
		if p.File {
			data = mailer.Base64Lines(data)
		}
		holes[i] = mailer.Hole{Off: p.Off, Data: data}
	}
	return mailer.Fill(m.Raw, holes)
}

// NewQueue returns the outbox of db as the queue a mailer.Sender drains.
// Each method is one transaction.
func NewQueue(db *store.DB) mailer.Queue { return queue{db} }

type queue struct{ db *store.DB }

func queued(m store.OutboxMessage) mailer.QueuedMail {
	return mailer.QueuedMail{
		ID: m.ID, MessageID: m.MessageID, From: m.From, To: m.To, Raw: Assemble(m),
		Queued: m.Queued, Attempts: m.Attempts, LastError: m.LastError,
	}
}

func (q queue) Due(now time.Time, limit int) ([]mailer.QueuedMail, error) {
	var out []mailer.QueuedMail
	err := q.db.View(func(tx *store.Tx) error {
		ms, err := tx.DueMail(now, limit)
		for _, m := range ms {
			out = append(out, queued(m))
		}
		return err
	})
	return out, err
}

func (q queue) NextDue() (t time.Time, ok bool, err error) {
	err = q.db.View(func(tx *store.Tx) error {
		t, ok, err = tx.NextMailDue()
		return err
	})
	return t, ok, err
}

func (q queue) Begin(id uint64, retryAt time.Time) error {
	return q.db.Update(func(tx *store.Tx) error { return tx.BeginMailAttempt(id, retryAt) })
}

func (q queue) Sent(id uint64, at time.Time) error {
	return q.db.Update(func(tx *store.Tx) error { return tx.MailSent(id, at) })
}

func (q queue) SentBegin(id uint64, at time.Time, next uint64, retryAt time.Time) error {
	return q.db.Update(func(tx *store.Tx) error {
		if err := tx.MailSent(id, at); err != nil {
			return err
		}
		return tx.BeginMailAttempt(next, retryAt)
	})
}

func (q queue) Retry(id uint64, next time.Time, lastErr string) error {
	return q.db.Update(func(tx *store.Tx) error { return tx.RetryMail(id, next, lastErr) })
}

func (q queue) Failed(id uint64, at time.Time, reason string) error {
	return q.db.Update(func(tx *store.Tx) error { return tx.MailFailed(id, at, reason) })
}
