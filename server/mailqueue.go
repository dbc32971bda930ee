package server

import (
	"time"

	"pbemd/mailer"
	"pbemd/store"
)

// The mailer never imports the store; this adapter gives it the store's
// inbound mail state (mailer.InboxState), each method one transaction.
// The outgoing queue is package outbox's (outbox.NewQueue).

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
