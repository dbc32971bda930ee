package daemon

import (
	"context"
	"errors"
	"fmt"

	"pbemd/store"
)

// MaxBatch is the most mails HandleMails carries out in one transaction.
const MaxBatch = 256

// ErrNotTried is wrapped, with store.ErrWrite, in HandleMails' error for a
// mail after one that could not be written: it was not carried out, so
// that it does not overtake the mail before it.
var ErrNotTried = errors.New("not handled: an earlier mail of the batch could not be written")

// HandleMails carries out mails, in the order given, as HandleMail would
// one after the other, but in as few write transactions as it may: each
// commit waits for the disk, and one poll of the mailbox brings many
// mails. It returns one error per mail, nil for each mail whose effects
// and answer are committed.
//
// A player's later mail replaces the orders of an earlier one, so the
// mails are carried out in turn inside one transaction, each seeing what
// the ones before it wrote. A mail that may need bcrypt (one that says
// SIGNON or PASSWORD) is carried out in a transaction of its own, after
// the mails before it are committed: its password is compared (or
// hashed) outside any write transaction against what they left, exactly
// as HandleMail does, and a failed SIGNON is counted once.
//
// When a batch cannot be committed, for whatever reason (a mail whose
// work fails, a disk that takes a small commit but not a large one), its
// mails are carried out one by one as HandleMail does, so one bad mail
// holds no other hostage. A mail that cannot be written (store.ErrWrite)
// stops the run: it and the mails after it are not carried out (the
// errors of those wrap ErrNotTried and store.ErrWrite) and are to be
// handed over again later, in the same order.
func (d *Daemon) HandleMails(ctx context.Context, ins []*Incoming) []error {
	errs := make([]error, len(ins))
	for i := 0; i < len(ins); {
		j := i + 1
		if !mayNeedBcrypt(ins[i]) {
			for j < len(ins) && j-i < MaxBatch && !mayNeedBcrypt(ins[j]) {
				j++
			}
		}
		if d.handleGroup(ins[i:j], errs[i:j]) {
			for k := range ins[j:] {
				if errs[j+k] == nil {
					errs[j+k] = fmt.Errorf("handle mail %s: %w: %w", ins[j+k].MsgID, ErrNotTried, store.ErrWrite)
				}
			}
			break
		}
		i = j
	}
	return errs
}

// mayNeedBcrypt reports whether a mail may carry SIGNON or PASSWORD
// (checkSignon, checkPassword).
func mayNeedBcrypt(in *Incoming) bool {
	return !in.Auto && !in.TooBig && (containsFold(in.Text, "signon") || containsFold(in.Text, "password"))
}

// handleGroup carries out mails in one transaction, or one by one when
// that transaction fails, filling errs. It reports whether the run must
// stop: a mail could not be written (the mails of the group after it are
// marked not tried).
func (d *Daemon) handleGroup(ins []*Incoming, errs []error) (stop bool) {
	ps := make([]*prepared, len(ins))
	idx := make([]int, 0, len(ins)) // the mails that were prepared
	for k, in := range ins {
		p, err := d.prepare(in)
		if err != nil {
			errs[k] = err
			if errors.Is(err, store.ErrWrite) {
				return d.notTried(ins, errs, k)
			}
			continue
		}
		ps[k] = p
		idx = append(idx, k)
	}
	if len(idx) > 1 {
		counted := make([]string, len(ins))
		err := d.update(func(tx *txn) error {
			for _, k := range idx {
				c, err := d.handleIn(tx, ps[k])
				counted[k] = c
				if err != nil {
					return fmt.Errorf("mail %s: %w", ins[k].MsgID, err)
				}
			}
			return nil
		})
		if err == nil {
			return false
		}
		for _, k := range idx {
			if counted[k] != "" {
				d.rate.uncount(counted[k], ps[k].now)
			}
		}
		d.log.Warn("a batch of mails could not be committed together; handling them one by one", "mails", len(idx), "err", err)
	}
	for _, k := range idx {
		if errs[k] = d.handlePrepared(ps[k]); errors.Is(errs[k], store.ErrWrite) {
			return d.notTried(ins, errs, k)
		}
	}
	return false
}

// notTried marks the mails after ins[k] as not carried out.
func (d *Daemon) notTried(ins []*Incoming, errs []error, k int) bool {
	for j := k + 1; j < len(ins); j++ {
		errs[j] = fmt.Errorf("handle mail %s: %w: %w", ins[j].MsgID, ErrNotTried, store.ErrWrite)
	}
	return true
}
