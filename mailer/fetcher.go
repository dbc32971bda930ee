package mailer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
)

// Checkpoint is where the fetcher stopped in a mailbox: every mail with a
// UID up to LastUID under UIDValidity is done (handled or set aside).
type Checkpoint struct {
	UIDValidity uint32
	LastUID     uint32
}

// InboxState is the fetcher's durable memory. The daemon implements it
// over the store (server/mailqueue.go); the mailer never sees the store.
type InboxState interface {
	Checkpoint(key string) (Checkpoint, error)
	SetCheckpoint(key string, cp Checkpoint) error
	// Failures returns how often handling mail id failed so far.
	Failures(id string) (int, error)
	// AddFailure records one more failure and returns the new count.
	AddFailure(id string, at time.Time, reason string) (int, error)
	// ClearFailures forgets the failures of a mail that went through.
	ClearFailures(id string) error
}

// Handler handles one inbound mail. It must return nil only after
// everything the mail causes is committed (typically: in one store
// transaction, test-and-record the Mail.ID as processed, save the
// effects, queue the replies). It may be called again for a mail it
// already handled (after a crash, a lost connection or a UIDVALIDITY
// change) and must then do nothing and return nil.
//
// An error that wraps ErrRetryLater says the mail is not at fault (the
// store cannot write, say); any other error counts against the mail.
type Handler func(ctx context.Context, m *Mail) error

// BatchHandler handles the mails of one batch of a poll (at most
// FetcherOptions.Batch, in UID order) and returns one error per mail,
// with the meaning Handler's error has: nil only once what the mail
// causes is committed. It lets the daemon commit many mails at once.
// It must do what Handler would do for the mails one after the other,
// in order; when it reports a mail's error wrapping ErrRetryLater, no
// mail after that one may have been handled (they wait for it, and the
// fetcher hands them all over again later).
type BatchHandler func(ctx context.Context, ms []*Mail) []error

// ErrRetryLater, wrapped in a Handler's error, says that the mail could
// not be handled for a reason that is not the mail's: the store cannot
// write (a full disk), a service it needs is down. The fetcher then keeps
// the mail without counting the failure toward setting it aside, stops
// the poll at that mail (so no later mail overtakes it: the order of a
// player's mails decides which orders stand) and hands it over again
// after a backoff (1s doubling up to MaxBackoff, or at the next Kick).
var ErrRetryLater = errors.New("temporary failure, not the mail's fault; retrying later")

// Poisoned reports a mail set aside because handling it kept failing (or
// because it could not be parsed at all).
type Poisoned struct {
	Mail     *Mail
	Failures int
	Err      error
}

// FetcherOptions wire a Fetcher.
type FetcherOptions struct {
	Logger  *slog.Logger
	State   InboxState // required
	Handler Handler    // required, unless BatchHandler is set
	// BatchHandler, when set, is used instead of Handler: the mails of
	// each FETCH batch are handed over together.
	BatchHandler BatchHandler
	// OnPoison is called after a mail was set aside; the daemon tells the
	// GM. It runs on the fetcher goroutine.
	OnPoison func(ctx context.Context, p Poisoned)
	// MinBackoff (1s) and MaxBackoff (5m) bound the reconnect delay,
	// which doubles per failed attempt, ±20% jitter.
	MinBackoff time.Duration
	MaxBackoff time.Duration
	// Batch is how many mails are fetched per FETCH command (100; a batch
	// is also cut at 8 MiB).
	Batch int
	// Now is the clock (time.Now).
	Now func() time.Time

	// CleanupEvery is how often the fetcher looks for handled mail older
	// than IMAPConfig.DeleteHandledAfter (1h); CleanupLimit bounds the
	// mails deleted per run (5000): a run that reaches it goes on at the
	// next poll instead of an hour later.
	CleanupEvery time.Duration
	CleanupLimit int
	// Quota, when set, says how full the account is; the embedded server
	// answers it in-process (it does not speak IMAP QUOTA). When nil the
	// fetcher asks the server with GETQUOTAROOT if it offers QUOTA
	// (RFC 9208) and skips the check silently if not.
	Quota func(ctx context.Context) (QuotaUsage, error)
	// QuotaWarn is the fraction of a quota (0.8) from which Health reports
	// the account as nearly full and OnQuota is called.
	QuotaWarn float64
	// OnQuota is called, on the fetcher goroutine, after every check that
	// found the account at QuotaWarn or above: after each poll that
	// handled mail, and every CleanupEvery. The daemon decides how often
	// to tell the GM.
	OnQuota func(ctx context.Context, q QuotaUsage)
}

// PollStats counts what one poll did.
type PollStats struct {
	Handled  int // handler returned nil
	Failed   int // handler failed, will be retried
	Poisoned int // set aside
	// Deferred is 1 when the poll stopped at a mail whose handling failed
	// with ErrRetryLater (that mail and the ones after it wait).
	Deferred int
	Rescan   bool
	// Deleted counts handled mail deleted because it was older than
	// IMAPConfig.DeleteHandledAfter.
	Deleted int
}

// Health is what a Fetcher or a Sender says about itself, for a health
// check: Problem is "" while all is well, else one sentence for the GM,
// and Since is when the problem began.
type Health struct {
	Problem string
	Since   time.Time
	Err     error
}

// OK reports whether there is no problem.
func (h Health) OK() bool { return h.Problem == "" }

// health keeps a Health behind a lock (read by the HTTP endpoint).
type health struct {
	mu sync.Mutex
	h  Health
}

func (h *health) get() Health {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.h
}

// set records a problem (keeping Since while the same kind of problem
// goes on) or, with problem "", that all is well.
func (h *health) set(now time.Time, problem string, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if problem == "" {
		h.h = Health{}
		return
	}
	since := h.h.Since
	if h.h.Problem == "" {
		since = now
	}
	h.h = Health{Problem: problem, Since: since, Err: err}
}

// Fetcher reads new mail from one IMAP mailbox and hands it to the
// Handler, in UID order, at least once each:
//
//   - mail is fetched with BODY.PEEK[] by UID above a persisted
//     checkpoint; mail over MaxSize is not downloaded: the handler gets
//     its header only, with TooBig set;
//   - only after the handler returned nil is the mail flagged \Seen (or
//     moved to the processed folder) and the checkpoint advanced past it;
//     the checkpoint is saved every checkpointBatches batches and when a
//     poll ends, so after a crash the mails handled since the last save
//     are handed over again (and recognised by Mail.ID);
//   - while one batch is with the handler, the next one is fetched and
//     parsed and the one before it set aside, on the fetcher goroutine;
//   - a UIDVALIDITY change (or UIDs going backwards) resets the
//     checkpoint and rescans the mailbox; the handler deduplicates by
//     Mail.ID;
//   - a mail whose handling failed MaxFailures times (counted durably by
//     Mail.ID), or that cannot be parsed at all, is set aside (poison
//     folder, else \Seen \Flagged), reported through OnPoison and never
//     handed over again; it never blocks the mail after it;
//   - the fetcher wakes on IDLE (when the server offers it), on Kick and
//     every Poll interval; IDLE is only a hint;
//   - a lost connection, a timeout or a server restart leads to a
//     reconnect with exponential backoff;
//   - a handler error wrapping ErrRetryLater is not counted against the
//     mail: the poll stops there and the mail is handed over again after
//     a backoff, so nothing accepted by the server is set aside because
//     the store could not write;
//   - with IMAPConfig.DeleteHandledAfter, handled mail older than that is
//     deleted, hourly and in bounded runs, and how full the account is
//     goes into Health and OnQuota (cleanup.go).
type Fetcher struct {
	cfg  IMAPConfig
	opt  FetcherOptions
	log  *slog.Logger
	key  string
	wake chan struct{}

	c           *imapclient.Client
	idleCapable bool
	folderReady bool
	done        map[uint32]bool // UIDs above the checkpoint already finished, this UIDVALIDITY
	doneValid   uint32
	selValidity uint32 // UIDVALIDITY of the mailbox at the last SELECT

	nextHousekeeping time.Time // when old handled mail is looked for next
	warnedNoUIDPlus  bool

	health      health
	quotaHealth health
}

// NewFetcher checks cfg and returns a Fetcher; call Run to start it.
func NewFetcher(cfg IMAPConfig, opt FetcherOptions) (*Fetcher, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if opt.State == nil || (opt.Handler == nil && opt.BatchHandler == nil) {
		return nil, errors.New("mailer: NewFetcher needs State and Handler (or BatchHandler)")
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.MinBackoff <= 0 {
		opt.MinBackoff = time.Second
	}
	if opt.MaxBackoff < opt.MinBackoff {
		opt.MaxBackoff = max(5*time.Minute, opt.MinBackoff)
	}
	if opt.Batch <= 0 {
		opt.Batch = 100
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.CleanupEvery <= 0 {
		opt.CleanupEvery = DefaultCleanupEvery
	}
	if opt.CleanupLimit <= 0 {
		opt.CleanupLimit = DefaultCleanupLimit
	}
	if opt.QuotaWarn <= 0 || opt.QuotaWarn > 1 {
		opt.QuotaWarn = DefaultQuotaWarn
	}
	cfg = cfg.withDefaults()
	return &Fetcher{
		cfg:  cfg,
		opt:  opt,
		log:  opt.Logger.With("component", "imap", "addr", cfg.Addr, "mailbox", cfg.Mailbox),
		key:  "imap://" + cfg.Username + "@" + cfg.Addr + "/" + cfg.Mailbox,
		wake: make(chan struct{}, 1),
	}, nil
}

// Health says whether the last poll went well and, if not, why: the IMAP
// login fails, the server cannot be reached, mail waits because the
// handler said ErrRetryLater, or (when the last poll went well) the
// account is nearly full (see FetcherOptions.QuotaWarn). It is safe to
// call from any goroutine.
func (f *Fetcher) Health() Health {
	if h := f.health.get(); !h.OK() {
		return h
	}
	return f.quotaHealth.get()
}

// CheckpointKey is the InboxState key this fetcher keeps its checkpoint
// under.
func (f *Fetcher) CheckpointKey() string { return f.key }

// Kick makes the fetcher poll now (the daemon's cron calls it). It never
// blocks.
func (f *Fetcher) Kick() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// Run polls until ctx is done, reconnecting as needed. It returns
// ctx.Err().
func (f *Fetcher) Run(ctx context.Context) error {
	defer f.Close()
	backoff := time.Duration(0)
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		_, err := f.Poll(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if backoff == 0 {
				backoff = f.opt.MinBackoff
			} else {
				backoff = min(2*backoff, f.opt.MaxBackoff)
			}
			d := time.Duration(float64(backoff) * (0.8 + 0.4*rand.Float64()))
			if errors.Is(err, ErrRetryLater) {
				// the connection is fine; a Kick retries at once
				f.log.Warn("mail could not be handled now; trying again later", "err", err, "in", d.Round(time.Millisecond))
				if !sleepOrWake(ctx, d, f.wake) {
					return ctx.Err()
				}
				continue
			}
			f.Close()
			f.log.Warn("imap poll failed; reconnecting", "err", err, "in", d.Round(time.Millisecond))
			if !sleepOrWake(ctx, d, nil) {
				return ctx.Err()
			}
			continue
		}
		backoff = 0
		if err := f.wait(ctx); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			f.log.Warn("imap idle failed; reconnecting", "err", err)
			f.Close()
		}
	}
}

// sleepOrWake waits d, or until ctx is done (false), or until wake fires.
func sleepOrWake(ctx context.Context, d time.Duration, wake <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
	case <-wake:
	}
	return true
}

// wait blocks until the next poll is due: the Poll interval, a Kick, new
// mail announced during IDLE, or ctx done. A connection that drops while
// waiting ends the wait with an error (the caller reconnects).
func (f *Fetcher) wait(ctx context.Context) error {
	if f.c == nil {
		sleepOrWake(ctx, f.cfg.Poll, f.wake)
		return nil
	}
	closed := f.c.Closed()
	var idle *imapclient.IdleCommand
	if f.idleCapable {
		var err error
		if idle, err = f.c.Idle(); err != nil {
			return fmt.Errorf("idle: %w", err)
		}
	}
	t := time.NewTimer(f.cfg.Poll)
	defer t.Stop()
	select {
	case <-ctx.Done():
		f.Close() // shutting down: no need to end IDLE politely
		return ctx.Err()
	case <-closed:
		return errors.New("connection closed by the server")
	case <-t.C:
	case <-f.wake:
	}
	if idle == nil {
		return nil
	}
	if err := idle.Close(); err != nil {
		return fmt.Errorf("idle done: %w", err)
	}
	if err := idle.Wait(); err != nil {
		return fmt.Errorf("idle: %w", err)
	}
	return nil
}

// Close drops the connection (the next Poll reconnects).
func (f *Fetcher) Close() error {
	if f.c == nil {
		return nil
	}
	err := f.c.Close()
	f.c = nil
	return err
}

func (f *Fetcher) connect(ctx context.Context) error {
	opts := &imapclient.Options{
		TLSConfig: tlsConfig(f.cfg.Addr, f.cfg.InsecureSkipVerify),
		Dialer:    &net.Dialer{Timeout: f.cfg.Timeout},
		// runs on the client's reader goroutine: a non-blocking send only
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					f.Kick()
				}
			},
		},
		WordDecoder: wordDecoder,
	}
	if w := newTranscript(f.log, "imap", f.cfg.Username, f.cfg.Password); w != nil {
		opts.DebugWriter = w
	}
	var (
		c   *imapclient.Client
		err error
	)
	switch f.cfg.Security {
	case SecurityTLS:
		c, err = imapclient.DialTLS(f.cfg.Addr, opts)
	case SecurityStartTLS:
		c, err = imapclient.DialStartTLS(f.cfg.Addr, opts)
	default:
		c, err = imapclient.DialInsecure(f.cfg.Addr, opts)
	}
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	// a cancelled context closes the connection, which fails any pending
	// command at once
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if err := c.WaitGreeting(); err != nil {
		c.Close()
		return fmt.Errorf("greeting: %w", err)
	}
	switch {
	case f.cfg.OAuth != nil:
		var a sasl.Client
		if a, err = f.cfg.OAuth.SASL(f.cfg.Username); err == nil {
			err = c.Authenticate(a)
		}
	case c.Caps().Has(imap.CapLoginDisabled):
		err = c.Authenticate(sasl.NewPlainClient("", f.cfg.Username, f.cfg.Password))
	default:
		err = c.Login(f.cfg.Username, f.cfg.Password).Wait()
	}
	if err != nil {
		c.Close()
		return &loginError{user: f.cfg.Username, err: err}
	}
	caps := c.Caps()
	f.idleCapable = !f.cfg.NoIdle && (caps.Has(imap.CapIdle) || caps.Has(imap.CapIMAP4rev2))
	f.c = c
	f.folderReady = false
	f.log.Debug("imap connected", "idle", f.idleCapable)
	return nil
}

// ensureFolders creates the processed and poison folders when missing.
func (f *Fetcher) ensureFolders() error {
	if f.folderReady {
		return nil
	}
	for _, name := range []string{f.cfg.ProcessedFolder, f.cfg.PoisonFolder} {
		if name == "" {
			continue
		}
		err := f.c.Create(name, nil).Wait()
		var ierr *imap.Error
		if err != nil && !(errors.As(err, &ierr) && (ierr.Code == imap.ResponseCodeAlreadyExists || strings.Contains(strings.ToLower(ierr.Text), "exist"))) {
			return fmt.Errorf("create folder %s: %w", name, err)
		}
	}
	f.folderReady = true
	return nil
}

// loginError is a refused IMAP login: the account or its password is
// wrong, which no retry mends until someone fixes the configuration.
type loginError struct {
	user string
	err  error
}

func (e *loginError) Error() string { return "login as " + e.user + ": " + e.err.Error() }
func (e *loginError) Unwrap() error { return e.err }

// Poll connects if needed and hands every new mail to the handler once.
// Do not call it while Run is running.
func (f *Fetcher) Poll(ctx context.Context) (PollStats, error) {
	st, err := f.poll(ctx)
	var le *loginError
	switch {
	case err == nil:
		f.health.set(f.opt.Now(), "", nil)
	case ctx.Err() != nil:
		// shutting down: not a problem of the mailbox
	case errors.As(err, &le):
		f.health.set(f.opt.Now(), fmt.Sprintf("IMAP login as %s to %s fails: %v", le.user, f.cfg.Addr, le.err), err)
	case errors.Is(err, ErrRetryLater):
		f.health.set(f.opt.Now(), fmt.Sprintf("incoming mail waits and will be retried: %v", err), err)
	default:
		f.health.set(f.opt.Now(), fmt.Sprintf("IMAP %s: %v", f.cfg.Addr, err), err)
	}
	return st, err
}

func (f *Fetcher) poll(ctx context.Context) (PollStats, error) {
	if f.c == nil {
		if err := f.connect(ctx); err != nil {
			return PollStats{}, err
		}
	}
	c := f.c // the AfterFunc runs on its own goroutine: no access to f
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	st, err := f.pollMailbox(ctx)
	if err == nil {
		f.housekeep(ctx, &st)
	}
	return st, err
}

// pollMailbox selects the mailbox and hands every new mail to the
// handler once.
func (f *Fetcher) pollMailbox(ctx context.Context) (PollStats, error) {
	var st PollStats
	if err := f.ensureFolders(); err != nil {
		return st, err
	}
	sel, err := f.c.Select(f.cfg.Mailbox, nil).Wait()
	if err != nil {
		return st, fmt.Errorf("select %s: %w", f.cfg.Mailbox, err)
	}
	f.selValidity = sel.UIDValidity
	cp, err := f.opt.State.Checkpoint(f.key)
	if err != nil {
		return st, fmt.Errorf("read checkpoint: %w", err)
	}
	switch {
	case cp.UIDValidity != sel.UIDValidity:
		if cp.UIDValidity != 0 {
			f.log.Warn("UIDVALIDITY changed: rescanning the mailbox (mail already handled is recognised by Message-ID)",
				"old", cp.UIDValidity, "new", sel.UIDValidity)
			st.Rescan = true
		}
		cp = Checkpoint{UIDValidity: sel.UIDValidity}
		if err := f.opt.State.SetCheckpoint(f.key, cp); err != nil {
			return st, fmt.Errorf("write checkpoint: %w", err)
		}
	case sel.UIDNext != 0 && uint32(sel.UIDNext) <= cp.LastUID:
		// a broken server (or a restarted one without persistent state)
		// reused UIDs without changing UIDVALIDITY
		f.log.Warn("UIDs went backwards without a UIDVALIDITY change: rescanning", "uidnext", sel.UIDNext, "checkpoint", cp.LastUID)
		st.Rescan = true
		cp.LastUID = 0
		if err := f.opt.State.SetCheckpoint(f.key, cp); err != nil {
			return st, fmt.Errorf("write checkpoint: %w", err)
		}
	}
	if f.doneValid != cp.UIDValidity || st.Rescan {
		f.done, f.doneValid = map[uint32]bool{}, cp.UIDValidity
	}
	if sel.NumMessages == 0 {
		return st, nil
	}

	search, err := f.c.UIDSearch(&imap.SearchCriteria{
		UID: []imap.UIDSet{{imap.UIDRange{Start: imap.UID(cp.LastUID + 1), Stop: 0}}},
	}, nil).Wait()
	if err != nil {
		return st, fmt.Errorf("search: %w", err)
	}
	var uids []uint32
	for _, u := range search.AllUIDs() {
		// "n:*" matches the highest UID even when it is below n
		if uint32(u) > cp.LastUID {
			uids = append(uids, uint32(u))
		}
	}
	slices.Sort(uids)
	uids = slices.Compact(uids)
	for uid := range f.done {
		if uid <= cp.LastUID {
			delete(f.done, uid)
		}
	}

	// outcome of each UID of this poll; the checkpoint advances over the
	// leading run of finished ones
	finished := map[uint32]bool{}
	for uid := range f.done {
		finished[uid] = true
	}
	var todo []uint32
	for _, u := range uids {
		if !f.done[u] {
			todo = append(todo, u)
		}
	}
	// While a batch is with the handler, the fetcher reads the start of
	// the next one and sets the one before it aside (processBatch).
	var pre *ahead          // the start of the next batch
	var finish func() error // the last batch's setting aside, still to do
	for k := 1; len(todo) > 0; k++ {
		n := min(len(todo), f.opt.Batch)
		batch := todo[:n]
		todo = todo[n:]
		next := todo[:min(len(todo), f.opt.Batch)]
		var err error
		if pre, finish, err = f.processBatch(ctx, cp.UIDValidity, batch, finished, &st, pre, next, finish); err != nil {
			f.advance(cp, uids, finished)
			return st, err
		}
		if k%checkpointBatches == 0 {
			if cp, err = f.advance(cp, uids, finished); err != nil {
				return st, err
			}
		}
	}
	if finish != nil {
		if err := finish(); err != nil {
			f.advance(cp, uids, finished)
			return st, err
		}
	}
	_, err = f.advance(cp, uids, finished)
	return st, err
}

// checkpointBatches is how many batches a poll hands over between two
// saves of the checkpoint (and a poll saves it when it ends): each save
// is a commit of its own, which waits for the disk. After a crash the
// mails handled since the last save are read again and recognised by
// their Message-ID (Handler).
const checkpointBatches = 8

// advance moves the checkpoint over the leading finished UIDs and saves
// it when it moved.
func (f *Fetcher) advance(cp Checkpoint, uids []uint32, finished map[uint32]bool) (Checkpoint, error) {
	next := cp
	for _, u := range uids {
		if u <= next.LastUID {
			continue
		}
		if !finished[u] {
			break
		}
		next.LastUID = u
	}
	if next == cp {
		return cp, nil
	}
	if err := f.opt.State.SetCheckpoint(f.key, next); err != nil {
		return cp, fmt.Errorf("write checkpoint: %w", err)
	}
	return next, nil
}

// maxBatchBytes cuts a FETCH of bodies into pieces of about this size.
const maxBatchBytes = 8 << 20

// ahead is the start of a batch read before its turn, while the batch
// before it was with the handler: the sizes of its UIDs and its first
// FETCH of bodies, parsed. Reading ahead flags nothing and decides
// nothing (BODY.PEEK[]; screening, handing over and setting aside come
// in turn), so a poll that stops before the batch just drops it.
type ahead struct {
	size  map[uint32]int64
	first *fetchedChunk
	err   error // reading failed: the batch fails with it in its turn
}

// fetchedChunk is one FETCH of bodies of a batch (or of the header of
// one big mail), parsed.
type fetchedChunk struct {
	end     int    // the index in the batch after the chunk's UIDs
	bigUID  uint32 // the big mail fetched by its header only, or 0
	section *imap.FetchItemBodySection
	mails   []fetchedMail // in UID order
}

// fetchedMail is one mail of a chunk: parsed, or perr why not.
type fetchedMail struct {
	m    *Mail
	perr error
}

// fetchSizes asks the sizes of the UIDs of a batch: never download what
// is over the limit.
func (f *Fetcher) fetchSizes(batch []uint32) (map[uint32]int64, error) {
	var set imap.UIDSet
	for _, u := range batch {
		set.AddNum(imap.UID(u))
	}
	msgs, err := f.c.Fetch(set, &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
	if err != nil {
		return nil, fmt.Errorf("fetch sizes: %w", err)
	}
	size := map[uint32]int64{}
	for _, m := range msgs {
		size[uint32(m.UID)] = m.RFC822Size
	}
	return size, nil
}

// fetchChunk fetches the chunk of batch that begins at index i: one FETCH
// of bodies per ≤ maxBatchBytes of small mail, or one FETCH of the header
// of one big mail; and parses its mails.
func (f *Fetcher) fetchChunk(validity uint32, batch []uint32, i int, size map[uint32]int64) (*fetchedChunk, error) {
	var small imap.UIDSet
	var bytesSum int64
	j := i
	bigUID := uint32(0)
	for ; j < len(batch); j++ {
		u := batch[j]
		sz, ok := size[u]
		if !ok {
			continue // expunged meanwhile
		}
		if sz > f.cfg.MaxSize {
			if j == i {
				bigUID = u
				j++
			}
			break
		}
		if bytesSum > 0 && bytesSum+sz > maxBatchBytes {
			break
		}
		bytesSum += sz
		small.AddNum(imap.UID(u))
	}
	ch := &fetchedChunk{end: j, bigUID: bigUID, section: &imap.FetchItemBodySection{Peek: true}}
	var items []*imapclient.FetchMessageBuffer
	var err error
	if bigUID != 0 {
		ch.section = &imap.FetchItemBodySection{Specifier: imap.PartSpecifierHeader, Peek: true}
		items, err = f.c.Fetch(imap.UIDSetNum(imap.UID(bigUID)), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{ch.section}}).Collect()
	} else if len(small) > 0 {
		items, err = f.c.Fetch(small, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{ch.section}}).Collect()
	}
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	slices.SortFunc(items, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
	for _, it := range items {
		uid := uint32(it.UID)
		raw := it.FindBodySection(ch.section)
		if raw == nil {
			continue // gone meanwhile; not finished
		}
		var m *Mail
		var perr error
		if bigUID != 0 {
			m, perr = parseTooBig(raw, size[uid], f.cfg.Address)
		} else {
			m, perr = ParseMail(raw, f.cfg.Address)
		}
		if m == nil {
			m = &Mail{ID: hashID(raw), Raw: raw, Size: int64(len(raw))}
		}
		m.Mailbox, m.UIDValidity, m.UID = f.cfg.Mailbox, validity, uid
		ch.mails = append(ch.mails, fetchedMail{m: m, perr: perr})
	}
	return ch, nil
}

// readAhead reads the start of the batch next (see ahead).
func (f *Fetcher) readAhead(validity uint32, next []uint32) *ahead {
	a := &ahead{}
	if a.size, a.err = f.fetchSizes(next); a.err == nil {
		a.first, a.err = f.fetchChunk(validity, next, 0, a.size)
	}
	return a
}

// processBatch hands the mails of batch over. pre is its start, read
// ahead (nil: not read yet); prev sets the batch before it aside (nil:
// nothing to do). While mails of batch are with the handler, this
// goroutine (the IMAP connection has no other user) reads the start of
// the batch next and sets the one before aside, so that neither waits
// for the other; it returns that start and what sets this batch aside
// (\Seen, or moved), which the caller runs in turn: after a batch's
// handler has returned, before anything later is set aside. prev has
// run by the time processBatch returns, whatever happened.
func (f *Fetcher) processBatch(ctx context.Context, validity uint32, batch []uint32, finished map[uint32]bool, st *PollStats, pre *ahead, next []uint32, prev func() error) (*ahead, func() error, error) {
	var prevErr error
	runPrev := func() {
		if prev != nil {
			prevErr, prev = prev(), nil
		}
	}
	fail := func(err error) (*ahead, func() error, error) {
		if runPrev(); prevErr != nil {
			return nil, nil, prevErr
		}
		return nil, nil, err
	}
	var size map[uint32]int64
	if pre != nil {
		if pre.err != nil {
			return fail(pre.err)
		}
		size = pre.size
	} else {
		var err error
		if size, err = f.fetchSizes(batch); err != nil {
			return fail(err)
		}
	}
	var nextAhead *ahead

	var done, poisoned []uint32
	flush := func() error {
		if err := f.setAside(done, poisoned); err != nil {
			return err
		}
		for _, u := range done {
			finished[u], f.done[u] = true, true
		}
		for _, u := range poisoned {
			finished[u], f.done[u] = true, true
		}
		done, poisoned = done[:0], poisoned[:0]
		return nil
	}

	for i := 0; i < len(batch); {
		var ch *fetchedChunk
		if i == 0 && pre != nil && pre.first != nil {
			ch = pre.first
		} else {
			var err error
			if ch, err = f.fetchChunk(validity, batch, i, size); err != nil {
				return fail(err)
			}
		}
		i = ch.end
		// the mails of this FETCH that go to the handler, in UID order
		var pend []pending
		handOver := func(last bool) error {
			if len(pend) == 0 {
				return nil
			}
			ms := make([]*Mail, len(pend))
			for k, p := range pend {
				ms[k] = p.m
			}
			var herrs []error
			readNext := last && len(next) > 0 && ctx.Err() == nil
			if readNext || prev != nil {
				handled := make(chan struct{})
				go func() {
					defer close(handled)
					herrs = f.handOver(ctx, ms)
				}()
				if readNext {
					nextAhead = f.readAhead(validity, next)
				}
				runPrev()
				<-handled
				if prevErr != nil {
					// the batch before could not be set aside: stop (the
					// mails of this one are handed over again later)
					pend = pend[:0]
					return prevErr
				}
			} else {
				herrs = f.handOver(ctx, ms)
			}
			for k, p := range pend {
				if herrs[k] == errNotHandedOver && ctx.Err() != nil {
					break // shutting down: the rest was not handed over
				}
				if herrs[k] != nil && ctx.Err() != nil {
					st.Failed++ // shutting down: not the mail's fault
					pend = pend[:0]
					return ctx.Err()
				}
				switch out, retryErr := f.outcome(ctx, p, herrs[k], st); out {
				case outcomeDone:
					done = append(done, p.m.UID)
				case outcomePoisoned:
					poisoned = append(poisoned, p.m.UID)
				case outcomeRetry:
					// stop here: the mails after this one wait for it
					pend = pend[:0]
					return retryErr
				}
			}
			pend = pend[:0]
			return ctx.Err()
		}
		stop := func(err error) (*ahead, func() error, error) {
			if runPrev(); prevErr != nil {
				return nil, nil, prevErr
			}
			if ferr := flush(); ferr != nil {
				return nil, nil, ferr
			}
			return nil, nil, err
		}
		for _, fm := range ch.mails {
			p, out, retryErr := f.screen(ctx, fm.m, fm.perr, st)
			switch out {
			case outcomePoisoned:
				poisoned = append(poisoned, fm.m.UID)
			case outcomeRetry:
				// the mails before this one first, then stop here
				if err := handOver(false); err != nil {
					return stop(err)
				}
				return stop(retryErr)
			default:
				pend = append(pend, p)
			}
			if ctx.Err() != nil {
				break
			}
		}
		if err := handOver(i >= len(batch)); err != nil {
			return stop(err)
		}
		if ctx.Err() != nil {
			return stop(ctx.Err())
		}
	}
	if runPrev(); prevErr != nil {
		return nil, nil, prevErr
	}
	return nextAhead, flush, nil
}

type outcome int

const (
	outcomeDone     outcome = iota
	outcomeFailed           // the mail's fault, counted; later mail goes on
	outcomePoisoned         // set aside
	outcomeRetry            // not the mail's fault, not counted; the poll stops
)

// pending is a mail on its way to the handler.
type pending struct {
	m     *Mail
	fails int // failures counted before
	log   *slog.Logger
}

// retryOutcome is outcomeRetry for a mail, with its error wrapping
// ErrRetryLater.
func retryOutcome(m *Mail, st *PollStats, what string, err error) (outcome, error) {
	st.Deferred++
	if !errors.Is(err, ErrRetryLater) {
		err = fmt.Errorf("%w: %s: %w", ErrRetryLater, what, err)
	}
	return outcomeRetry, fmt.Errorf("mail uid %d <%s>: %w", m.UID, m.ID, err)
}

// screen decides, before the handler, whether a mail goes to it: not when
// it cannot be parsed (set aside) or was set aside before. The outcome is
// outcomePoisoned, outcomeRetry (with its error) or outcomeDone (hand it
// over).
func (f *Fetcher) screen(ctx context.Context, m *Mail, parseErr error, st *PollStats) (pending, outcome, error) {
	p := pending{m: m, log: f.log.With("uid", m.UID, "msgid", m.ID)}
	if parseErr != nil {
		p.log.Error("mail cannot be parsed; set aside", "err", parseErr)
		st.Poisoned++
		f.poison(ctx, Poisoned{Mail: m, Err: parseErr})
		return p, outcomePoisoned, nil
	}
	fails, err := f.opt.State.Failures(m.ID)
	if err != nil {
		p.log.Error("read failure count", "err", err)
		out, rerr := retryOutcome(m, st, "read failure count", err)
		return p, out, rerr
	}
	if fails >= f.cfg.MaxFailures {
		// poisoned before (e.g. found again by a rescan): set aside quietly
		p.log.Info("mail was poisoned before; set aside again", "failures", fails)
		st.Poisoned++
		return p, outcomePoisoned, nil
	}
	p.fails = fails
	return p, outcomeDone, nil
}

// handOver gives mails to the handler: all at once to a BatchHandler,
// else one by one to Handler, stopping after one that must be retried
// later or when ctx is done (the errors of the mails after it are then
// errNotHandedOver).
func (f *Fetcher) handOver(ctx context.Context, ms []*Mail) []error {
	if f.opt.BatchHandler != nil {
		errs := f.opt.BatchHandler(ctx, ms)
		if len(errs) != len(ms) {
			// a broken handler: nothing can be said of any mail
			errs = make([]error, len(ms))
			for k := range errs {
				errs[k] = fmt.Errorf("%w: the batch handler answered for %d of %d mails", ErrRetryLater, len(errs), len(ms))
			}
		}
		return errs
	}
	errs := make([]error, len(ms))
	for k, m := range ms {
		errs[k] = f.opt.Handler(ctx, m)
		if ctx.Err() != nil || errors.Is(errs[k], ErrRetryLater) {
			for j := k + 1; j < len(ms); j++ {
				errs[j] = errNotHandedOver
			}
			break
		}
	}
	return errs
}

// errNotHandedOver is the error of a mail the fetcher did not give to
// Handler because one before it must be retried.
var errNotHandedOver error = notHandedOver{}

// notHandedOver is what fmt.Errorf("%w: a mail before this one waits",
// ErrRetryLater) makes, without the call: package init, which every start
// of pbemd runs, need not set up fmt's formatting for it.
type notHandedOver struct{}

func (notHandedOver) Error() string { return ErrRetryLater.Error() + ": a mail before this one waits" }
func (notHandedOver) Unwrap() error { return ErrRetryLater }

// outcome decides what became of a mail the handler returned herr for.
// The error is set for outcomeRetry only and wraps ErrRetryLater.
func (f *Fetcher) outcome(ctx context.Context, p pending, herr error, st *PollStats) (outcome, error) {
	m, log := p.m, p.log
	if herr == nil {
		if p.fails > 0 {
			if err := f.opt.State.ClearFailures(m.ID); err != nil {
				log.Warn("clear failure count", "err", err)
			}
		}
		st.Handled++
		return outcomeDone, nil
	}
	if ctx.Err() != nil {
		st.Failed++
		return outcomeFailed, nil // shutting down: not the mail's fault
	}
	if errors.Is(herr, ErrRetryLater) {
		log.Warn("mail not handled for a reason that is not its own; not counted, will retry", "err", herr)
		return retryOutcome(m, st, "handle", herr)
	}
	n, err := f.opt.State.AddFailure(m.ID, f.opt.Now(), herr.Error())
	if err != nil {
		// the failure could not be counted: the store is in trouble, so
		// the mail cannot be blamed either
		log.Error("record failure", "err", err, "handler_err", herr)
		return retryOutcome(m, st, "record failure", errors.Join(err, herr))
	}
	if n >= f.cfg.MaxFailures {
		log.Error("mail failed too often; set aside", "failures", n, "err", herr)
		st.Poisoned++
		f.poison(ctx, Poisoned{Mail: m, Failures: n, Err: herr})
		return outcomePoisoned, nil
	}
	log.Warn("handling mail failed; will retry", "failures", n, "err", herr)
	st.Failed++
	return outcomeFailed, nil
}

func (f *Fetcher) poison(ctx context.Context, p Poisoned) {
	if f.opt.OnPoison != nil {
		f.opt.OnPoison(ctx, p)
	}
}

// setAside marks handled mail \Seen (or moves it to the processed folder)
// and poisoned mail \Seen \Flagged (or moves it to the poison folder).
func (f *Fetcher) setAside(done, poisoned []uint32) error {
	apply := func(uids []uint32, folder string, flags ...imap.Flag) error {
		if len(uids) == 0 {
			return nil
		}
		set := imap.UIDSetNum()
		for _, u := range uids {
			set.AddNum(imap.UID(u))
		}
		if folder != "" {
			if _, err := f.c.Move(set, folder).Wait(); err != nil {
				return fmt.Errorf("move to %s: %w", folder, err)
			}
			return nil
		}
		if err := f.c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: flags}, nil).Close(); err != nil {
			return fmt.Errorf("store flags: %w", err)
		}
		return nil
	}
	if err := apply(done, f.cfg.ProcessedFolder, imap.FlagSeen); err != nil {
		return err
	}
	return apply(poisoned, f.cfg.PoisonFolder, imap.FlagSeen, imap.FlagFlagged)
}
