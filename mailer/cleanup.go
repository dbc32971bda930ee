package mailer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Housekeeping after a poll: mail the daemon has handled is deleted once
// it is older than IMAPConfig.DeleteHandledAfter, and the fetcher watches
// how full the account is, so that a mailbox with a quota never fills up
// with old mail and stops taking orders without anyone being told.

// Defaults of the housekeeping (FetcherOptions).
const (
	DefaultCleanupEvery = time.Hour
	DefaultCleanupLimit = 5000
	DefaultQuotaWarn    = 0.8
)

// cleanupBatch is how many mails one FETCH, STORE and UID EXPUNGE of the
// cleanup name at most.
const cleanupBatch = 500

// QuotaUsage is how full an account is: from the server's QUOTA
// extension (RFC 9208), or from the program that embeds the server.
// A zero limit means no such quota.
type QuotaUsage struct {
	// Root names what the quota covers, for messages ("" if the server
	// gives no name).
	Root                    string
	Bytes, BytesLimit       int64
	Messages, MessagesLimit int64
}

// Fraction is the fuller of the two quotas, as a fraction of its limit (0
// when there is none).
func (q QuotaUsage) Fraction() float64 {
	f := 0.0
	if q.BytesLimit > 0 {
		f = max(f, float64(q.Bytes)/float64(q.BytesLimit))
	}
	if q.MessagesLimit > 0 {
		f = max(f, float64(q.Messages)/float64(q.MessagesLimit))
	}
	return f
}

// String says what is used of each quota: "9 of 10 messages, 1.2 MiB of
// 512 MiB".
func (q QuotaUsage) String() string {
	var parts []string
	if q.MessagesLimit > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d messages", q.Messages, q.MessagesLimit))
	}
	if q.BytesLimit > 0 {
		parts = append(parts, sizeText(q.Bytes)+" of "+sizeText(q.BytesLimit))
	}
	return strings.Join(parts, ", ")
}

// sizeText is a byte count for people: "512 MiB", "1.2 GiB", "300 bytes".
func sizeText(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size {
			s := fmt.Sprintf("%.1f", float64(n)/float64(u.size))
			return strings.TrimSuffix(s, ".0") + " " + u.name
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// housekeep runs after a poll that went well, with the mailbox selected.
// Every CleanupEvery (sooner while a run reached CleanupLimit) it deletes
// old handled mail; then, and after every poll that handled or set aside
// mail, it checks the quota. Its failures do not fail the poll (the mail
// was handled): they are logged, and the connection is dropped so that
// the next poll starts on a clean one.
func (f *Fetcher) housekeep(ctx context.Context, st *PollStats) {
	now := f.opt.Now()
	due := !now.Before(f.nextHousekeeping)
	more := false
	if due && f.cfg.DeleteHandledAfter > 0 {
		n, m, err := f.deleteHandled(now.Add(-f.cfg.DeleteHandledAfter))
		st.Deleted += n
		more = m
		if n > 0 {
			f.log.Info("deleted handled mail", "count", n, "older_than", f.cfg.DeleteHandledAfter.String(), "more", more)
		}
		if err != nil {
			if ctx.Err() == nil {
				f.log.Warn("deleting handled mail failed; trying again later", "err", err)
			}
			f.nextHousekeeping = now.Add(f.opt.CleanupEvery)
			f.Close()
			return
		}
	}
	if due || st.Handled+st.Poisoned > 0 {
		f.checkQuota(ctx)
	}
	if due {
		f.nextHousekeeping = now.Add(f.opt.CleanupEvery)
		if more {
			f.nextHousekeeping = now // go on at the next poll
		}
	}
}

// deleteHandled deletes, up to CleanupLimit, the mails that arrived
// before cutoff and were handled: in the mailbox those up to the
// checkpoint that are \Seen and not \Flagged (mail set aside in place is
// \Flagged; mail above the checkpoint may not be handled yet, even if a
// person read it), in the processed folder those not \Flagged (the
// fetcher moves only handled mail there). more says the limit was
// reached before everything was looked at.
func (f *Fetcher) deleteHandled(cutoff time.Time) (n int, more bool, err error) {
	caps := f.c.Caps()
	if !caps.Has(imap.CapUIDPlus) && !caps.Has(imap.CapIMAP4rev2) {
		// a plain EXPUNGE would also remove what others marked \Deleted,
		// handled or not
		if !f.warnedNoUIDPlus {
			f.warnedNoUIDPlus = true
			f.log.Warn("the IMAP server offers no UID EXPUNGE (UIDPLUS): handled mail is not deleted; delete it by hand")
		}
		return 0, false, nil
	}
	limit := f.opt.CleanupLimit
	cp, err := f.opt.State.Checkpoint(f.key)
	if err != nil {
		return 0, false, fmt.Errorf("read checkpoint: %w", err)
	}
	if cp.UIDValidity == f.selValidity && cp.LastUID > 0 {
		crit := &imap.SearchCriteria{
			UID:     []imap.UIDSet{{imap.UIDRange{Start: 1, Stop: imap.UID(cp.LastUID)}}},
			Flag:    []imap.Flag{imap.FlagSeen},
			NotFlag: []imap.Flag{imap.FlagFlagged},
		}
		handled := func(m uint32, flags []imap.Flag) bool {
			return m <= cp.LastUID && slices.Contains(flags, imap.FlagSeen) && !slices.Contains(flags, imap.FlagFlagged)
		}
		k, m, err := f.expungeOld(f.cfg.Mailbox, crit, cutoff, limit, handled)
		n, more, limit = n+k, m, limit-k
		if err != nil {
			return n, more, err
		}
	}
	if f.cfg.ProcessedFolder == "" {
		return n, more, nil
	}
	if limit <= 0 {
		return n, true, nil
	}
	if _, err := f.c.Select(f.cfg.ProcessedFolder, nil).Wait(); err != nil {
		return n, more, fmt.Errorf("select %s: %w", f.cfg.ProcessedFolder, err)
	}
	crit := &imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagFlagged}}
	notFlagged := func(_ uint32, flags []imap.Flag) bool { return !slices.Contains(flags, imap.FlagFlagged) }
	k, m, err := f.expungeOld(f.cfg.ProcessedFolder, crit, cutoff, limit, notFlagged)
	n, more = n+k, more || m
	// IDLE watches the selected mailbox: back to the one new mail comes to
	if _, serr := f.c.Select(f.cfg.Mailbox, nil).Wait(); serr != nil {
		err = errors.Join(err, fmt.Errorf("select %s: %w", f.cfg.Mailbox, serr))
	}
	return n, more, err
}

// expungeOld deletes, from the selected mailbox, up to limit mails that
// match crit and arrived before cutoff, checking each one's INTERNALDATE
// and flags again (SEARCH BEFORE knows days only). Work is bounded: one
// SEARCH, then per batch of cleanupBatch mails one FETCH of dates and
// flags, one STORE and one UID EXPUNGE of exactly those mails.
func (f *Fetcher) expungeOld(name string, crit *imap.SearchCriteria, cutoff time.Time, limit int, keep func(uid uint32, flags []imap.Flag) bool) (n int, more bool, err error) {
	// BEFORE compares dates in the server's time zone: ask for two days
	// more than needed, then compare exact times
	crit.Before = cutoff.UTC().AddDate(0, 0, 2)
	res, err := f.c.UIDSearch(crit, nil).Wait()
	if err != nil {
		return 0, false, fmt.Errorf("search old mail in %s: %w", name, err)
	}
	uids := res.AllUIDs()
	slices.Sort(uids)
	for len(uids) > 0 && !more {
		batch := uids[:min(len(uids), cleanupBatch)]
		uids = uids[len(batch):]
		msgs, err := f.c.Fetch(imap.UIDSetNum(batch...), &imap.FetchOptions{UID: true, Flags: true, InternalDate: true}).Collect()
		if err != nil {
			return n, false, fmt.Errorf("fetch dates in %s: %w", name, err)
		}
		slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
		var old imap.UIDSet
		k := 0
		for _, m := range msgs {
			if m.InternalDate.IsZero() || !m.InternalDate.Before(cutoff) || !keep(uint32(m.UID), m.Flags) {
				continue
			}
			if n+k == limit {
				more = true
				break
			}
			old.AddNum(m.UID)
			k++
		}
		if k == 0 {
			continue
		}
		if err := f.c.Store(old, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
			return n, false, fmt.Errorf("flag old mail \\Deleted in %s: %w", name, err)
		}
		if err := f.c.UIDExpunge(old).Close(); err != nil {
			return n, false, fmt.Errorf("expunge old mail in %s: %w", name, err)
		}
		n += k
	}
	return n, more, nil
}

// checkQuota asks how full the account is and records it in Health;
// over QuotaWarn it calls OnQuota. A server without QUOTA, or one that
// refuses GETQUOTAROOT, is skipped silently.
func (f *Fetcher) checkQuota(ctx context.Context) {
	q, ok, err := f.quota(ctx)
	if err != nil {
		f.log.Debug("quota unknown", "err", err)
		return
	}
	now := f.opt.Now()
	if !ok || q.Fraction() < f.opt.QuotaWarn {
		f.quotaHealth.set(now, "", nil)
		return
	}
	pct := int(q.Fraction() * 100)
	usage := q.String()
	if q.Root != "" && !strings.EqualFold(q.Root, f.cfg.Username) {
		usage += "; quota: " + q.Root
	}
	f.quotaHealth.set(now, fmt.Sprintf("the mailbox of %s is %d%% full (%s); once it is full, new mail is refused", f.cfg.Username, pct, usage), nil)
	f.log.Warn("mailbox nearly full", "percent", pct, "usage", q.String())
	if f.opt.OnQuota != nil {
		f.opt.OnQuota(ctx, q)
	}
}

// quota is the account's usage: from FetcherOptions.Quota, else from
// GETQUOTAROOT of the mailbox (the fullest root); ok is false when
// neither is available.
func (f *Fetcher) quota(ctx context.Context) (q QuotaUsage, ok bool, err error) {
	if f.opt.Quota != nil {
		q, err := f.opt.Quota(ctx)
		return q, err == nil, err
	}
	if f.c == nil || !f.c.Caps().Has(imap.CapQuota) {
		return QuotaUsage{}, false, nil
	}
	roots, err := f.c.GetQuotaRoot(f.cfg.Mailbox).Wait()
	if err != nil {
		return QuotaUsage{}, false, fmt.Errorf("getquotaroot: %w", err)
	}
	for _, r := range roots {
		u := QuotaUsage{Root: r.Root}
		if s, has := r.Resources[imap.QuotaResourceStorage]; has {
			u.Bytes, u.BytesLimit = s.Usage*1024, s.Limit*1024 // RFC 9208: units of 1024 octets
		}
		if m, has := r.Resources[imap.QuotaResourceMessage]; has {
			u.Messages, u.MessagesLimit = m.Usage, m.Limit
		}
		if !ok || u.Fraction() > q.Fraction() {
			q, ok = u, true
		}
	}
	return q, ok, nil
}
