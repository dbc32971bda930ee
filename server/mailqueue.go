package server

import (
	"time"

	"pbemd/mailer"
	"pbemd/store"
)

// The mailer never imports the store; these adapters give it the store's
// outbox (mailer.Queue) and inbound mail state (mailer.InboxState). Each
// method is one transaction.

// NewMailQueue returns the store's outbox as the queue a mailer.Sender
// drains.
func NewMailQueue(db *store.DB) mailer.Queue { return mailQueue{db} }

type mailQueue struct{ db *store.DB }

func queued(m store.OutboxMessage) mailer.QueuedMail {
	return mailer.QueuedMail{
		ID: m.ID, MessageID: m.MessageID, From: m.From, To: m.To, Raw: m.Raw,
		Queued: m.Queued, Attempts: m.Attempts, LastError: m.LastError,
	}
}

func (q mailQueue) Due(now time.Time, limit int) ([]mailer.QueuedMail, error) {
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

func (q mailQueue) NextDue() (t time.Time, ok bool, err error) {
	err = q.db.View(func(tx *store.Tx) error {
		t, ok, err = tx.NextMailDue()
		return err
	})
	return t, ok, err
}

func (q mailQueue) Begin(id uint64, retryAt time.Time) error {
	return q.db.Update(func(tx *store.Tx) error { return tx.BeginMailAttempt(id, retryAt) })
}

func (q mailQueue) Sent(id uint64, at time.Time) error {
	return q.db.Update(func(tx *store.Tx) error { return tx.MailSent(id, at) })
}

func (q mailQueue) SentBegin(id uint64, at time.Time, next uint64, retryAt time.Time) error {
	return q.db.Update(func(tx *store.Tx) error {
		if err := tx.MailSent(id, at); err != nil {
			return err
		}
		return tx.BeginMailAttempt(next, retryAt)
	})
}

func (q mailQueue) Retry(id uint64, next time.Time, lastErr string) error {
	return q.db.Update(func(tx *store.Tx) error { return tx.RetryMail(id, next, lastErr) })
}

func (q mailQueue) Failed(id uint64, at time.Time, reason string) error {
	return q.db.Update(func(tx *store.Tx) error { return tx.MailFailed(id, at, reason) })
}

// NewInboxState returns the store's inbound mail state as the memory a
// mailer.Fetcher needs (checkpoints and failure counts). Deduplication is
// not part of it: the mail handler calls tx.MarkMailProcessed in its own
// transaction.
func NewInboxState(db *store.DB) mailer.InboxState { return inboxState{db} }

type inboxState struct{ db *store.DB }

func (s inboxState) Checkpoint(key string) (mailer.Checkpoint, error) {
	var cp store.MailCheckpoint
	err := s.db.View(func(tx *store.Tx) (err error) {
		cp, err = tx.MailCheckpoint(key)
		return err
	})
	return mailer.Checkpoint{UIDValidity: cp.UIDValidity, LastUID: cp.LastUID}, err
}

func (s inboxState) SetCheckpoint(key string, cp mailer.Checkpoint) error {
	return s.db.Update(func(tx *store.Tx) error {
		return tx.SetMailCheckpoint(key, store.MailCheckpoint{UIDValidity: cp.UIDValidity, LastUID: cp.LastUID})
	})
}

func (s inboxState) Failures(id string) (int, error) {
	var f store.MailFailure
	err := s.db.View(func(tx *store.Tx) (err error) {
		f, err = tx.MailFailures(id)
		return err
	})
	return f.Count, err
}

func (s inboxState) AddFailure(id string, at time.Time, reason string) (n int, err error) {
	err = s.db.Update(func(tx *store.Tx) error {
		n, err = tx.AddMailFailure(id, at, reason)
		return err
	})
	return n, err
}

func (s inboxState) ClearFailures(id string) error {
	return s.db.Update(func(tx *store.Tx) error { return tx.ClearMailFailures(id) })
}
