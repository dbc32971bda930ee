package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The outbox's records: mail the daemon has decided to send. A mail
// enters it in the same transaction as the state change that caused it,
// and leaves it when the SMTP server has accepted it (MailSent) or refused
// it for good (MailFailed). The store keeps bytes and knows no SMTP and
// no MIME: package outbox, the queue's owner, writes mails here and reads
// them for the mailer's sender.
//
// Buckets:
//
//	outbox        id (u64) → OutboxMessage as JSON, without Raw
//	outbox-raw    id (u64) → the message bytes, sealed (seal.go): they hold
//	              the recipient's reply token and, in a power mail, password
//	outbox-due    NextAttempt (u64 unix ns) | id (u64) → nothing: the schedule
//	              of bulk mail (results, announcements, reminders), and of
//	              every mail a store older than the two classes queued
//	outbox-due-personal  the same, for personal mail (answers to a mail):
//	              the sender takes what is due here before any bulk mail
//	outbox-msgid  Message-ID → OutboxStatus as JSON: queued, sent or failed
//	outbox-failed id (u64) → OutboxMessage as JSON (kept for the GM)
//	outbox-parts  part key → the bytes of a part many mails carry alike (a
//	              picture sent to every player of a game, the public
//	              results in each of their reports), sealed: stored once,
//	              given with each mail that carries it when it is read
//	outbox-part-refs part key → how many mails of the outbox carry it (u64);
//	              the part goes with the last of them
//	outbox-part-jobs part key → what its maker needs to make a part not made
//	              yet (outboxheld.go): the mails that carry it wait
//	outbox-held   part key | 0 | id (u64) → the mail's outbox-due key, the
//	              number of parts it carries or waits for (u8) and its
//	              class (u8, 1 personal): a mail that waits for that part
//	              (OutboxPart, or After), and is not in outbox-due until
//	              it is made
var (
	bucketOutbox       = registerGrowingBucket([]byte("outbox"))
	bucketOutboxRaw    = registerGrowingBucket([]byte("outbox-raw"))
	bucketOutboxDue    = registerBucket([]byte("outbox-due"))
	bucketOutboxDueP   = registerBucket([]byte("outbox-due-personal"))
	bucketOutboxMsgID  = registerGrowingBucket([]byte("outbox-msgid"))
	bucketOutboxFailed = registerBucket([]byte("outbox-failed"))
	bucketOutboxParts  = registerBucket([]byte("outbox-parts"))
	bucketOutboxRefs   = registerBucket([]byte("outbox-part-refs"))
	bucketOutboxJobs   = registerBucket([]byte("outbox-part-jobs"))
	bucketOutboxHeld   = registerBucket([]byte("outbox-held"))
)

// OutboxPart is a piece of a mail that many mails carry alike (the
// encoded body of a picture, a text many mails begin with): the outbox
// keeps it once under its Key, and the mail's Raw is kept without it.
type OutboxPart struct {
	// Key names the part's bytes: two parts with one key must have the
	// same Data (a hash of them makes sure).
	Key string `json:"key"`
	// Off is where Data goes in Raw — the Raw given to EnqueueMail, which
	// lacks every part (offsets increasing).
	Off int `json:"off"`
	// Data is the part's bytes, as the store keeps them: given to
	// EnqueueMail, and filled in by OutboxMail, not kept in the mail's
	// record. A part made after the mail is queued (NewPart) is given
	// without Data: the mail waits until PutPart stores it.
	Data []byte `json:"-"`
	// File marks a part kept as a file's own bytes (a PNG), which the
	// reader of the mail encodes for it (package outbox, with mailer's
	// MIME rules); the store keeps it and says it, nothing more. Its name
	// in the record is the one stores written before it had this name
	// used.
	File bool `json:"base64,omitempty"`
}

// OutboxMessage is one mail in the outbox.
type OutboxMessage struct {
	ID        uint64   `json:"id"`
	MessageID string   `json:"message_id"` // without <>, unique
	From      string   `json:"from"`       // envelope sender, "" = null sender
	To        []string `json:"to"`         // envelope recipients
	Raw       []byte   `json:"-"`          // the message without its Parts
	// Personal marks an answer to a mail (an acknowledgement, the reply
	// to a command): due, it leaves before any bulk mail (results,
	// announcements, reminders), so a player's answer never waits behind
	// a burst. The record does not keep it: the schedule the mail is in
	// says (outbox-due-personal), and a mail queued before there were
	// two is bulk.
	Personal bool `json:"-"`
	// Parts are pieces of the message kept once for every mail that
	// carries them (EnqueueMail); Raw lacks them, and OutboxMail gives
	// each its Data.
	Parts []OutboxPart `json:"parts,omitempty"`
	// After names parts not made yet (NewPart) that the mail waits for
	// without carrying them: it is held until they are made, so it does
	// not overtake the mails that carry them (an end-of-game mail after
	// the results that show the last picture).
	After []string `json:"after,omitempty"`
	// Queued is when the mail entered the outbox.
	Queued time.Time `json:"queued"`
	// Attempts counts delivery attempts begun (BeginMailAttempt).
	Attempts int `json:"attempts"`
	// NextAttempt is when the mail is due; zero means at once.
	NextAttempt time.Time `json:"next_attempt"`
	LastError   string    `json:"last_error,omitempty"`
	// Failed and Reason are set on mail in the failed list.
	Failed time.Time `json:"failed,omitzero"`
	Reason string    `json:"reason,omitempty"`

	sealed []byte // Raw sealed ahead (SealRaw, outboxseal.go)
}

// Outbox states of a Message-ID.
const (
	OutboxQueued = "queued"
	OutboxSent   = "sent"
	OutboxFailed = "failed"
)

// OutboxStatus is what the outbox knows about a Message-ID.
type OutboxStatus struct {
	State  string    `json:"state"` // OutboxQueued, OutboxSent or OutboxFailed
	ID     uint64    `json:"id"`
	At     time.Time `json:"at,omitzero"` // when sent or failed
	Reason string    `json:"reason,omitempty"`
}

// MessageIDTime is the time, in Unix nanoseconds, that the Message-ID of
// a mail sent at now begins with: now's, or one nanosecond after the last
// this store gave when now is not later (a clock that stands still, as a
// test's virtual one does, or that was set back). So the Message-IDs of
// one process grow, and the outbox's index of them and the index of sent
// mail (both keyed by Message-ID) grow at their ends: a commit writes the
// last page or two of each, where keys that are random, or all begin with
// the same time, land each on a page of its own, all over the index.
func (tx *Tx) MessageIDTime(now time.Time) int64 {
	ns := now.UnixNano()
	if tx.lastIDTime == nil { // not a DB.Update transaction
		return ns
	}
	for {
		last := tx.lastIDTime.Load()
		t := max(ns, last+1)
		if tx.lastIDTime.CompareAndSwap(last, t) {
			return t
		}
	}
}

// ErrDuplicateMessageID is returned (wrapped) by EnqueueMail when the
// Message-ID is already queued, sent or failed.
var ErrDuplicateMessageID = errors.New("message-id already in the outbox")

func dueKey(t time.Time, id uint64) []byte {
	k := make([]byte, 16)
	var ns int64
	if !t.IsZero() {
		ns = t.UnixNano()
	}
	if ns < 0 {
		ns = 0
	}
	binary.BigEndian.PutUint64(k, uint64(ns))
	binary.BigEndian.PutUint64(k[8:], id)
	return k
}

// EnqueueMail puts m in the outbox and returns its id. MessageID, To and
// Raw are required. A Message-ID the outbox has seen before (queued, sent
// or failed) is not queued again: the error wraps ErrDuplicateMessageID
// and id is the earlier mail's, so a replayed effect never sends twice.
func (tx *Tx) EnqueueMail(m OutboxMessage) (uint64, error) {
	if m.MessageID == "" || len(m.To) == 0 || len(m.Raw) == 0 {
		return 0, errors.New("enqueue mail: message id, recipients and body are required")
	}
	ids := tx.bucket(bucketOutboxMsgID)
	if ids.Get([]byte(m.MessageID)) != nil { // seen before (a new one is not: no error made for it)
		var st OutboxStatus
		if err := getJSON(ids, []byte(m.MessageID), &st); err != nil {
			return 0, err
		}
		return st.ID, fmt.Errorf("enqueue mail <%s>: %s: %w", m.MessageID, st.State, ErrDuplicateMessageID)
	}
	ob := tx.bucket(bucketOutbox)
	id, err := ob.NextSequence()
	if err != nil {
		return 0, err
	}
	m.ID = id
	m.Attempts = 0
	m.LastError = ""
	m.Failed, m.Reason = time.Time{}, ""
	if err := putJSON(ob, u64(id), &m); err != nil {
		return 0, err
	}
	sealed := m.sealed
	if sealed == nil {
		if sealed, err = tx.sealMail(m.Raw); err != nil {
			return 0, fmt.Errorf("enqueue mail <%s>: %w", m.MessageID, err)
		}
	}
	if err := tx.bucket(bucketOutboxRaw).Put(u64(id), sealed); err != nil {
		return 0, err
	}
	held, err := tx.holdParts(m)
	if err != nil {
		return 0, fmt.Errorf("enqueue mail <%s>: %w", m.MessageID, err)
	}
	if !held { // a held mail becomes due when its last part is made (PutPart)
		if err := tx.dueBucket(m.Personal).Put(dueKey(m.NextAttempt, id), nil); err != nil {
			return 0, err
		}
	}
	return id, putJSON(ids, []byte(m.MessageID), OutboxStatus{State: OutboxQueued, ID: id})
}

// OutboxMail returns the queued mail with this id, with Raw and the Data
// of its parts (new slices, not bbolt's).
func (tx *Tx) OutboxMail(id uint64) (OutboxMessage, error) {
	var m OutboxMessage
	if err := getJSON(tx.bucket(bucketOutbox), u64(id), &m); err != nil {
		return m, fmt.Errorf("outbox mail %d: %w", id, err)
	}
	raw, err := tx.openMail(tx.bucket(bucketOutboxRaw).Get(u64(id)))
	if err != nil {
		return m, fmt.Errorf("outbox mail %d: %w", id, err)
	}
	m.Raw = raw
	for i := range m.Parts {
		p := &m.Parts[i]
		if p.Off < 0 || p.Off > len(raw) || i > 0 && p.Off < m.Parts[i-1].Off {
			return m, fmt.Errorf("outbox mail %d: part %q at %d is out of place", id, p.Key, p.Off)
		}
		v := tx.bucket(bucketOutboxParts).Get([]byte(p.Key))
		if v == nil {
			return m, fmt.Errorf("outbox mail %d: part %q: not made yet: %w", id, p.Key, ErrHeld)
		}
		if p.Data, err = tx.openMail(v); err != nil {
			return m, fmt.Errorf("outbox mail %d: part %q: %w", id, p.Key, err)
		}
	}
	return m, nil
}

// holdParts stores the parts of a mail being queued (those not stored
// yet) and counts one more mail that carries each. A part not made yet
// (NewPart), carried or waited for (After), holds the mail: held says so,
// and the mail waits in outbox-held under that part.
func (tx *Tx) holdParts(m OutboxMessage) (held bool, err error) {
	parts, refs, jobs := tx.bucket(bucketOutboxParts), tx.bucket(bucketOutboxRefs), tx.bucket(bucketOutboxJobs)
	at := 0
	for _, p := range m.Parts {
		if p.Key == "" || p.Off < at || p.Off > len(m.Raw) {
			return false, fmt.Errorf("part %q at %d: no key, or out of place", p.Key, p.Off)
		}
		at = p.Off
		n := uint64(0)
		if v := refs.Get([]byte(p.Key)); v != nil {
			n = u64Of(v)
		}
		switch {
		case jobs.Get([]byte(p.Key)) != nil: // to be made: the mail waits for it
			held = true
			if err := tx.bucket(bucketOutboxHeld).Put(heldKey(p.Key, m.ID), heldValue(m)); err != nil {
				return false, err
			}
		case n > 0: // stored for an earlier mail
		case len(p.Data) == 0:
			return false, fmt.Errorf("part %q: new and empty", p.Key)
		default:
			sealed, err := tx.sealMail(p.Data)
			if err != nil {
				return false, err
			}
			if err := parts.Put([]byte(p.Key), sealed); err != nil {
				return false, err
			}
		}
		if err := refs.Put([]byte(p.Key), u64(n+1)); err != nil {
			return false, err
		}
	}
	for _, key := range m.After {
		if jobs.Get([]byte(key)) == nil {
			continue // made already (or no mail carries it any more): nothing to wait for
		}
		held = true
		if err := tx.bucket(bucketOutboxHeld).Put(heldKey(key, m.ID), heldValue(m)); err != nil {
			return false, err
		}
	}
	return held, nil
}

// releaseParts counts one mail fewer that carries each of parts, and
// deletes a part no mail carries any more.
func (tx *Tx) releaseParts(parts []OutboxPart) error {
	refs := tx.bucket(bucketOutboxRefs)
	for _, p := range parts {
		v := refs.Get([]byte(p.Key))
		if v == nil {
			continue
		}
		if n := u64Of(v); n > 1 {
			if err := refs.Put([]byte(p.Key), u64(n-1)); err != nil {
				return err
			}
			continue
		}
		if err := refs.Delete([]byte(p.Key)); err != nil {
			return err
		}
		if err := tx.bucket(bucketOutboxParts).Delete([]byte(p.Key)); err != nil {
			return err
		}
		if tx.bucket(bucketOutboxJobs).Get([]byte(p.Key)) != nil {
			// Never made, and no mail carries it any more: the mails
			// that waited for it without carrying it (After) go.
			if err := tx.bucket(bucketOutboxJobs).Delete([]byte(p.Key)); err != nil {
				return err
			}
			if err := tx.releaseHeld(p.Key); err != nil {
				return err
			}
		}
	}
	return nil
}

// dueBucket is the schedule of personal mail or of bulk mail.
func (tx *Tx) dueBucket(personal bool) *bolt.Bucket {
	if personal {
		return tx.bucket(bucketOutboxDueP)
	}
	return tx.bucket(bucketOutboxDue)
}

// DueMail returns up to limit queued mails whose NextAttempt is not after
// now, with Raw: the personal ones first, then the bulk ones, each class
// earliest first.
func (tx *Tx) DueMail(now time.Time, limit int) ([]OutboxMessage, error) {
	var out []OutboxMessage
	end := dueKey(now, ^uint64(0))
	for _, personal := range []bool{true, false} {
		c := tx.dueBucket(personal).Cursor()
		for k, _ := c.First(); k != nil && bytes.Compare(k, end) <= 0 && len(out) < limit; k, _ = c.Next() {
			m, err := tx.OutboxMail(binary.BigEndian.Uint64(k[8:]))
			if err != nil {
				return nil, err
			}
			m.Personal = personal
			out = append(out, m)
		}
	}
	return out, nil
}

// NextMailDue returns the earliest NextAttempt in the outbox, of either
// class; ok is false when the outbox is empty.
func (tx *Tx) NextMailDue() (t time.Time, ok bool, err error) {
	var first []byte
	for _, personal := range []bool{true, false} {
		if k, _ := tx.dueBucket(personal).Cursor().First(); k != nil && (first == nil || bytes.Compare(k, first) < 0) {
			first = k
		}
	}
	if first == nil {
		return time.Time{}, false, nil
	}
	ns := int64(binary.BigEndian.Uint64(first))
	if ns == 0 {
		return time.Time{}, true, nil
	}
	return time.Unix(0, ns), true, nil
}

// OutboxLen counts the mails waiting in the outbox.
func (tx *Tx) OutboxLen() int {
	return tx.bucket(bucketOutbox).Stats().KeyN
}

// reschedule moves a queued mail to next, in the schedule of its class,
// applying edit to its record.
func (tx *Tx) reschedule(id uint64, next time.Time, edit func(m *OutboxMessage)) error {
	ob := tx.bucket(bucketOutbox)
	var m OutboxMessage
	if err := getJSON(ob, u64(id), &m); err != nil {
		return fmt.Errorf("outbox mail %d: %w", id, err)
	}
	key := dueKey(m.NextAttempt, id)
	due := tx.dueBucket(false)
	if k, _ := tx.dueBucket(true).Cursor().Seek(key); bytes.Equal(k, key) { // Get cannot tell an empty value from none
		due = tx.dueBucket(true)
	}
	if err := due.Delete(key); err != nil {
		return err
	}
	m.NextAttempt = next
	edit(&m)
	if err := due.Put(dueKey(next, id), nil); err != nil {
		return err
	}
	return putJSON(ob, u64(id), &m)
}

// BeginMailAttempt records, before a delivery attempt starts, that one
// more attempt is under way and moves the mail's due time to retryAt: if
// the daemon dies during the attempt, the mail is tried again at retryAt
// rather than at once, and the attempt still counts.
func (tx *Tx) BeginMailAttempt(id uint64, retryAt time.Time) error {
	return tx.reschedule(id, retryAt, func(m *OutboxMessage) { m.Attempts++ })
}

// RetryMail records a temporary failure and when to try again.
func (tx *Tx) RetryMail(id uint64, next time.Time, lastErr string) error {
	return tx.reschedule(id, next, func(m *OutboxMessage) { m.LastError = lastErr })
}

// remove takes a mail out of the outbox and returns its record.
func (tx *Tx) removeMail(id uint64) (OutboxMessage, error) {
	ob := tx.bucket(bucketOutbox)
	var m OutboxMessage
	if err := getJSON(ob, u64(id), &m); err != nil {
		return m, fmt.Errorf("outbox mail %d: %w", id, err)
	}
	for _, del := range []struct {
		b []byte
		k []byte
	}{
		{bucketOutbox, u64(id)},
		{bucketOutboxRaw, u64(id)},
		{bucketOutboxDue, dueKey(m.NextAttempt, id)},
		{bucketOutboxDueP, dueKey(m.NextAttempt, id)},
	} {
		if err := tx.bucket(del.b).Delete(del.k); err != nil {
			return m, err
		}
	}
	for _, key := range m.waitKeys() {
		if err := tx.bucket(bucketOutboxHeld).Delete(heldKey(key, id)); err != nil {
			return m, err
		}
	}
	return m, tx.releaseParts(m.Parts)
}

// MailSent records that the server accepted the mail: it leaves the
// outbox and its Message-ID is remembered as sent.
func (tx *Tx) MailSent(id uint64, at time.Time) error {
	m, err := tx.removeMail(id)
	if err != nil {
		return err
	}
	return putJSON(tx.bucket(bucketOutboxMsgID), []byte(m.MessageID), OutboxStatus{State: OutboxSent, ID: id, At: at})
}

// MailFailed records that the mail will never be delivered (a permanent
// refusal, or too many temporary ones): it leaves the outbox for the
// failed list, without its body.
func (tx *Tx) MailFailed(id uint64, at time.Time, reason string) error {
	m, err := tx.removeMail(id)
	if err != nil {
		return err
	}
	m.Failed, m.Reason = at, reason
	if err := putJSON(tx.bucket(bucketOutboxFailed), u64(id), &m); err != nil {
		return err
	}
	return putJSON(tx.bucket(bucketOutboxMsgID), []byte(m.MessageID), OutboxStatus{State: OutboxFailed, ID: id, At: at, Reason: reason})
}

// MailStatus tells what became of a Message-ID; the error wraps
// ErrNotFound when the outbox never saw it.
func (tx *Tx) MailStatus(messageID string) (OutboxStatus, error) {
	var st OutboxStatus
	if err := getJSON(tx.bucket(bucketOutboxMsgID), []byte(messageID), &st); err != nil {
		return st, fmt.Errorf("outbox message <%s>: %w", messageID, err)
	}
	return st, nil
}

// FailedMail lists the mails that were given up, oldest first.
func (tx *Tx) FailedMail() ([]OutboxMessage, error) {
	var out []OutboxMessage
	err := tx.bucket(bucketOutboxFailed).ForEach(func(k, v []byte) error {
		var m OutboxMessage
		if err := getJSON(tx.bucket(bucketOutboxFailed), k, &m); err != nil {
			return err
		}
		out = append(out, m)
		return nil
	})
	return out, err
}
