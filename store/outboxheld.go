package store

import (
	"bytes"
	"errors"
	"fmt"
)

// Parts made after their mails are queued. A picture in a results mail
// costs more to draw than everything else in the mail, so the daemon does
// not draw it in the transaction that adjudicates: it queues the mails
// with a part that is not made yet (NewPart), commits, and stores the
// part later (PutPart). The mails that carry such a part are held: they
// are in the outbox (OutboxLen counts them, their Message-IDs are taken)
// but not due, so no sender sees one before every part of it is there. A
// job kept with the part says what its maker needs to make it, so a part
// whose maker died (the daemon killed between the two transactions) is
// made after a restart (PendingParts).

// ErrHeld is wrapped by OutboxMail for a mail that waits for a part.
var ErrHeld = errors.New("the mail waits for a part not made yet")

// PendingPart is a part to be made: its key and its maker's job.
type PendingPart struct {
	Key string
	Job []byte
}

// NewPart names a part that will be made after this transaction, and
// keeps job (what its maker needs; the store does not read it) with it.
// Mails given a part of that key (OutboxPart without Data) wait for it.
// Keys grow (a sequence): bbolt appends the parts, as it does the mails.
func (tx *Tx) NewPart(job []byte) (string, error) {
	jobs := tx.bucket(bucketOutboxJobs)
	seq, err := jobs.NextSequence()
	if err != nil {
		return "", err
	}
	key := fmt.Sprintf("%016x", seq)
	if len(job) == 0 {
		job = []byte{}
	}
	return key, jobs.Put([]byte(key), job)
}

// PendingParts lists up to limit parts to be made, in the order they were
// named (NewPart).
func (tx *Tx) PendingParts(limit int) []PendingPart {
	var out []PendingPart
	c := tx.bucket(bucketOutboxJobs).Cursor()
	for k, v := c.First(); k != nil && len(out) < limit; k, v = c.Next() {
		out = append(out, PendingPart{Key: string(k), Job: bytes.Clone(v)})
	}
	return out
}

// PartJob returns the job of a part still to be made; ok is false once
// it is made (or no mail carries it any more).
func (tx *Tx) PartJob(key string) (job []byte, ok bool) {
	v := tx.bucket(bucketOutboxJobs).Get([]byte(key))
	return bytes.Clone(v), v != nil
}

// PutPart stores the made part key, sealed, and lets each mail that waits
// for it go (due at its NextAttempt) unless it waits for another part
// too. A part no mail carries any more, or one made already, is not
// stored again.
func (tx *Tx) PutPart(key string, data []byte) error {
	if tx.bucket(bucketOutboxJobs).Get([]byte(key)) == nil {
		return nil // made already, or no mail carries it any more
	}
	if len(data) == 0 {
		return fmt.Errorf("part %q: empty", key)
	}
	sealed, err := tx.sealMail(data)
	if err != nil {
		return err
	}
	return tx.putSealedPart(key, sealed)
}

// SealedPart is a made part sealed ahead of its transaction (SealPart).
type SealedPart struct {
	sealed []byte
}

// SealPart seals a made part for PutSealedPart. It needs no transaction,
// so the parts that one transaction stores (a burst's pictures) are
// sealed on every core, outside the write lock.
func (db *DB) SealPart(data []byte) (SealedPart, error) {
	if len(data) == 0 {
		return SealedPart{}, errors.New("seal part: empty")
	}
	sealed, err := (&Tx{seal: db.seal}).sealMail(data)
	return SealedPart{sealed}, err
}

// PutSealedPart is PutPart with the part sealed ahead (SealPart).
func (tx *Tx) PutSealedPart(key string, p SealedPart) error {
	if tx.bucket(bucketOutboxJobs).Get([]byte(key)) == nil {
		return nil // made already, or no mail carries it any more
	}
	if len(p.sealed) == 0 {
		return fmt.Errorf("part %q: not sealed", key)
	}
	return tx.putSealedPart(key, p.sealed)
}

func (tx *Tx) putSealedPart(key string, sealed []byte) error {
	if err := tx.bucket(bucketOutboxJobs).Delete([]byte(key)); err != nil {
		return err
	}
	if err := tx.bucket(bucketOutboxParts).Put([]byte(key), sealed); err != nil {
		return err
	}
	return tx.releaseHeld(key)
}

// releaseHeld lets each mail that waits for part key go (due at its
// NextAttempt) unless it waits for another part too: key is made, or
// will never be.
func (tx *Tx) releaseHeld(key string) error {
	held := tx.bucket(bucketOutboxHeld)
	prefix := append([]byte(key), 0)
	type waiting struct {
		id  uint64
		val []byte
	}
	var ws []waiting
	c := held.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		ws = append(ws, waiting{u64Of(k[len(prefix):]), bytes.Clone(v)})
	}
	for _, w := range ws {
		if err := held.Delete(heldKey(key, w.id)); err != nil {
			return err
		}
		due := w.val[:min(16, len(w.val))]
		personal := len(w.val) == 18 && w.val[17] == 1
		if len(w.val) < 17 || len(w.val) > 18 || w.val[16] != 1 {
			// A mail that waits for several parts (or a damaged entry):
			// its record says whether it waits for another, and when it
			// is due.
			var m OutboxMessage
			if err := getJSON(tx.bucket(bucketOutbox), u64(w.id), &m); err != nil {
				return fmt.Errorf("outbox mail %d, held for part %q: %w", w.id, key, err)
			}
			if tx.waits(m) {
				continue
			}
			due = dueKey(m.NextAttempt, w.id)
		}
		if err := tx.dueBucket(personal).Put(due, nil); err != nil {
			return err
		}
	}
	return nil
}

// heldValue is what outbox-held keeps for m: its outbox-due key, how
// many parts it waits for or carries (when one, the part just made lets
// it go without its record being read) and its class (1 personal, 0
// bulk; a value of a store older than the classes lacks it: bulk).
func heldValue(m OutboxMessage) []byte {
	class := byte(0)
	if m.Personal {
		class = 1
	}
	return append(dueKey(m.NextAttempt, m.ID), byte(min(len(m.Parts)+len(m.After), 255)), class)
}

// waitKeys are the keys of the parts m carries or waits for.
func (m *OutboxMessage) waitKeys() []string {
	keys := make([]string, 0, len(m.Parts)+len(m.After))
	for _, p := range m.Parts {
		keys = append(keys, p.Key)
	}
	return append(keys, m.After...)
}

// waits reports whether m still waits for a part.
func (tx *Tx) waits(m OutboxMessage) bool {
	jobs := tx.bucket(bucketOutboxJobs)
	for _, key := range m.waitKeys() {
		if jobs.Get([]byte(key)) != nil {
			return true
		}
	}
	return false
}

func heldKey(part string, id uint64) []byte {
	k := make([]byte, 0, len(part)+9)
	k = append(append(k, part...), 0)
	return append(k, u64(id)...)
}
