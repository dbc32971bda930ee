package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// Inbound mail state: which mails were handled (by their id: Message-ID or
// a hash), where the IMAP fetcher stopped in each mailbox, how often a mail
// made handling fail, and when a rate-limited notice was last sent.
//
// Buckets:
//
//	mail-processed   mail id → MailProcessed as JSON
//	mail-checkpoint  mailbox key → MailCheckpoint as JSON
//	mail-failures    mail id → MailFailure as JSON
//	mail-ratelimit   key → last time allowed (u64 unix ns)
var (
	bucketMailProcessed  = registerBucket([]byte("mail-processed"))
	bucketMailCheckpoint = registerBucket([]byte("mail-checkpoint"))
	bucketMailFailures   = registerBucket([]byte("mail-failures"))
	bucketMailRateLimit  = registerBucket([]byte("mail-ratelimit"))
)

// maxMailKey bounds keys taken from mail headers; longer ones are hashed
// (bbolt refuses keys over 32 KiB, and nobody needs them that long).
const maxMailKey = 512

func mailKey(id string) []byte {
	if len(id) <= maxMailKey {
		return []byte(id)
	}
	sum := sha256.Sum256([]byte(id))
	return []byte("sha256:" + hex.EncodeToString(sum[:]))
}

// MailProcessed records that a mail was handled.
type MailProcessed struct {
	At time.Time `json:"at"`
}

// MarkMailProcessed records that the mail with this id has been handled
// and reports whether this is the first time. When it returns false it has
// changed nothing: the caller must then skip the mail's effects. Call it in
// the same transaction as those effects, so that either both land or
// neither does.
func (tx *Tx) MarkMailProcessed(id string, at time.Time) (first bool, err error) {
	if id == "" {
		return false, errors.New("mark mail processed: empty id")
	}
	b := tx.bucket(bucketMailProcessed)
	k := mailKey(id)
	if b.Get(k) != nil {
		return false, nil
	}
	v, err := processedJSON(at)
	if err != nil {
		return false, fmt.Errorf("encode %s: %w", k, err)
	}
	if err := b.Put(k, v); err != nil {
		return false, err
	}
	return true, nil
}

// processedJSON is json.Marshal(MailProcessed{At: at}) without the
// reflection: one record per mail handled.
func processedJSON(at time.Time) ([]byte, error) {
	t, err := at.MarshalJSON()
	if err != nil {
		return nil, err
	}
	v := make([]byte, 0, len(`{"at":}`)+len(t))
	v = append(v, `{"at":`...)
	v = append(v, t...)
	return append(v, '}'), nil
}

// MailWasProcessed reports whether MarkMailProcessed recorded id.
func (tx *Tx) MailWasProcessed(id string) bool {
	return tx.bucket(bucketMailProcessed).Get(mailKey(id)) != nil
}

// MailCheckpoint is where the fetcher stopped in one mailbox: every mail
// with a UID up to LastUID under this UIDValidity is done.
type MailCheckpoint struct {
	UIDValidity uint32 `json:"uid_validity"`
	LastUID     uint32 `json:"last_uid"`
}

// MailCheckpoint returns the checkpoint stored under key (the zero value
// when there is none).
func (tx *Tx) MailCheckpoint(key string) (MailCheckpoint, error) {
	var cp MailCheckpoint
	err := getJSON(tx.bucket(bucketMailCheckpoint), mailKey(key), &cp)
	if errors.Is(err, ErrNotFound) {
		return MailCheckpoint{}, nil
	}
	return cp, err
}

// SetMailCheckpoint stores the checkpoint under key.
func (tx *Tx) SetMailCheckpoint(key string, cp MailCheckpoint) error {
	return putJSON(tx.bucket(bucketMailCheckpoint), mailKey(key), cp)
}

// MailFailure counts how often handling one mail failed.
type MailFailure struct {
	Count     int       `json:"count"`
	Last      time.Time `json:"last"`
	LastError string    `json:"last_error,omitempty"`
}

// AddMailFailure records one more failure to handle mail id and returns
// the new count.
func (tx *Tx) AddMailFailure(id string, at time.Time, reason string) (int, error) {
	b := tx.bucket(bucketMailFailures)
	k := mailKey(id)
	var f MailFailure
	if err := getJSON(b, k, &f); err != nil && !errors.Is(err, ErrNotFound) {
		return 0, err
	}
	f.Count++
	f.Last = at
	f.LastError = reason
	return f.Count, putJSON(b, k, f)
}

// MailFailures returns the failure record of mail id (zero when none).
func (tx *Tx) MailFailures(id string) (MailFailure, error) {
	var f MailFailure
	err := getJSON(tx.bucket(bucketMailFailures), mailKey(id), &f)
	if errors.Is(err, ErrNotFound) {
		return MailFailure{}, nil
	}
	return f, err
}

// ClearMailFailures forgets the failures of mail id (it finally went
// through).
func (tx *Tx) ClearMailFailures(id string) error {
	return tx.bucket(bucketMailFailures).Delete(mailKey(id))
}

// AllowOncePer reports whether an action keyed by key may happen at now,
// given that it may happen at most once per period; when it may, the time
// is recorded. Use it for notices that must not flood a sender, e.g. the
// "your mail is too big" reply: key "toobig:" + sender address.
func (tx *Tx) AllowOncePer(key string, now time.Time, period time.Duration) (bool, error) {
	if period <= 0 {
		return false, fmt.Errorf("allow once per %v: period must be positive", period)
	}
	b := tx.bucket(bucketMailRateLimit)
	k := mailKey(key)
	if raw := b.Get(k); len(raw) == 8 {
		last := time.Unix(0, int64(binary.BigEndian.Uint64(raw)))
		if now.Before(last.Add(period)) {
			return false, nil
		}
	}
	return true, b.Put(k, u64(uint64(now.UnixNano())))
}

// AllowNPer reports whether an action keyed by key may happen at now,
// given that it may happen at most n times per period, the period counted
// from the first action of it; when it may, it is counted, and left says
// how many more the period allows. Use it for a budget of answers, e.g. to
// an address the daemon does not know: key "stranger-day:" + address.
func (tx *Tx) AllowNPer(key string, now time.Time, period time.Duration, n int) (ok bool, left int, err error) {
	if period <= 0 || n <= 0 {
		return false, 0, fmt.Errorf("allow %d per %v: both must be positive", n, period)
	}
	b := tx.bucket(bucketMailRateLimit)
	k := mailKey(key)
	start, count := now, 0
	if raw := b.Get(k); len(raw) == 16 { // window start, count
		s := time.Unix(0, int64(u64Of(raw[:8])))
		if !now.Before(s) && now.Before(s.Add(period)) {
			start, count = s, int(u64Of(raw[8:]))
		}
	}
	if count >= n {
		return false, 0, nil
	}
	count++
	return true, n - count, b.Put(k, append(u64(uint64(start.UnixNano())), u64(uint64(count))...))
}
