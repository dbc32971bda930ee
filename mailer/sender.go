package mailer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
)

// QueuedMail is one mail in the durable outbox, as the Sender sees it.
type QueuedMail struct {
	ID        uint64
	MessageID string
	From      string   // envelope sender, "" = null sender
	To        []string // envelope recipients
	Raw       []byte
	Queued    time.Time
	Attempts  int // attempts begun before this one
	LastError string
}

// Queue is the durable outbox the Sender drains: package outbox is it
// (outbox.NewQueue), over the store, which the mailer never sees. Every
// method is one committed transaction.
type Queue interface {
	// Due returns up to limit mails due at now: answers to a mail first
	// (acknowledgements, replies to commands), then bulk mail (results,
	// announcements, reminders), each earliest first.
	Due(now time.Time, limit int) ([]QueuedMail, error)
	// NextDue returns the earliest due time; ok is false when empty.
	NextDue() (t time.Time, ok bool, err error)
	// Begin records, before the attempt, one more attempt and moves the
	// due time to retryAt (where it stays if the daemon dies mid-send).
	Begin(id uint64, retryAt time.Time) error
	// Sent records the server's acceptance: the mail leaves the outbox.
	Sent(id uint64, at time.Time) error
	// SentBegin is Sent of id and Begin of next in one commit: the
	// sender records a mail's acceptance and the start of the next
	// mail's attempt together, one commit a mail.
	SentBegin(id uint64, at time.Time, next uint64, retryAt time.Time) error
	// Retry records a temporary failure and the next due time.
	Retry(id uint64, next time.Time, lastErr string) error
	// Failed records that the mail is given up: it leaves the outbox.
	Failed(id uint64, at time.Time, reason string) error
}

// GiveUp describes mail the Sender will never deliver.
type GiveUp struct {
	Mail QueuedMail
	// Recipients are the refused recipients: all of them when the whole
	// mail was dropped, some when the others did get it (Partial).
	Recipients []string
	Partial    bool
	Err        error
}

// SenderOptions tune a Sender; zero fields take the defaults shown.
type SenderOptions struct {
	Logger *slog.Logger
	// OnGiveUp is called (from the sender goroutine) after a mail or some
	// of its recipients were refused for good: a 5xx reply, or
	// MaxAttempts / MaxAge exhausted. The daemon tells the GM.
	OnGiveUp func(GiveUp)
	// MinBackoff is the delay after the first temporary failure (30s); it
	// doubles per attempt up to MaxBackoff (5m), ±20% jitter. The same
	// bounds apply to reconnecting after the server could not be reached,
	// where only the sender's own retries double the delay, never a Kick.
	MinBackoff time.Duration
	MaxBackoff time.Duration
	// MaxAge (72h, counted from Queued) and MaxAttempts (0: no limit)
	// bound temporary failures. Neither gives up a mail before it has
	// been retried for RunGrace (1h) in this process, counted from its
	// first attempt here: time the daemon (or the SMTP server) was down
	// never uses up a mail's tries.
	MaxAttempts int
	MaxAge      time.Duration
	RunGrace    time.Duration
	// Batch is how many due mails are read from the queue at a time, and
	// how many one SMTP session sends before it is closed and another
	// opened (50).
	Batch int
	// Now is the clock (time.Now).
	Now func() time.Time
}

func (o SenderOptions) withDefaults() SenderOptions {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 30 * time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = o.MinBackoff
	}
	if o.MaxAge <= 0 {
		o.MaxAge = 72 * time.Hour
	}
	if o.RunGrace <= 0 {
		o.RunGrace = time.Hour
	}
	if o.Batch <= 0 {
		o.Batch = 50
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// DefaultMaxBackoff caps the sender's retry delays: after an outage the
// outbox moves again at most this long (plus jitter) after the server
// answers, or within MinBackoff of the next Kick.
const DefaultMaxBackoff = 5 * time.Minute

// Sender drains the outbox over SMTP: one goroutine (Run) selects on
// shutdown, a kick channel and a timer set to the next due mail.
//
// Order. The queue hands over answers to a mail before bulk mail (see
// Queue.Due), and a Kick (new mail committed) makes the sender read the
// queue again after the mail it is sending: an answer queued while
// thousands of results drain waits for one mail, not for them all. The
// SMTP session stays open across such reads.
//
// Outages. When no session can be opened (server down, refusing with
// 421, bad login), no mail is charged for it; the sender waits MinBackoff,
// doubling per failed retry up to MaxBackoff. A Kick (new mail queued)
// during that wait tries once more at once if MinBackoff has passed since
// the last try, and otherwise waits; a failed kicked try does not lengthen
// the wait. So a stream of incoming mail during an outage causes at most
// one connection per MinBackoff, and the outbox drains at most MaxBackoff
// after the server is back even if nothing kicks it.
//
// Delivery guarantee. A mail leaves the outbox only after the server
// accepted it (250 after DATA) and Sent committed, so it is never lost.
// Before each attempt Begin commits the attempt (in the commit of the
// previous mail's Sent, when the mail follows it on one session), so a
// crash is counted and the mail waits for its backoff. The mail can
// reach its recipient twice in exactly one case: the server accepted the
// final "." (or was about to answer 250 when the connection broke) and
// the daemon died or lost the reply before Sent committed. Sent is
// recorded straight after the 250, one mail at a time over one session,
// so the window is one SMTP reply plus one commit and holds the one mail
// in flight; nothing in SMTP can close it. The copy carries the same
// Message-ID, so mail clients that deduplicate by Message-ID show it
// once.
type Sender struct {
	cfg  SMTPConfig
	q    Queue
	opt  SenderOptions
	log  *slog.Logger
	kick chan struct{}

	mu      sync.Mutex
	backoff time.Duration // connection-level backoff after setup failures
	retryAt time.Time     // when the sender's own reconnect is due
	lastTry time.Time     // last attempt to open a session
	// run remembers, per outbox id, the first attempt made by this
	// process (for RunGrace); entries go when the mail leaves the outbox.
	run    map[uint64]time.Time
	health health
}

// NewSender checks cfg and returns a Sender; call Run to start it.
func NewSender(cfg SMTPConfig, q Queue, opt SenderOptions) (*Sender, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if q == nil {
		return nil, errors.New("mailer: NewSender needs a queue")
	}
	opt = opt.withDefaults()
	return &Sender{
		cfg:  cfg.withDefaults(),
		q:    q,
		opt:  opt,
		log:  opt.Logger.With("component", "smtp", "addr", cfg.Addr),
		kick: make(chan struct{}, 1),
		run:  map[uint64]time.Time{},
	}, nil
}

// Health says whether the last attempt to open an SMTP session (and to
// read the outbox) went well and, if not, why and since when. It is safe
// to call from any goroutine.
func (s *Sender) Health() Health { return s.health.get() }

// Kick wakes the sender: call it after committing new outbox mail. It
// never blocks.
func (s *Sender) Kick() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// idleWait is how long Run sleeps with an empty outbox and no kick.
const idleWait = time.Hour

// Run sends due mail until ctx is done. It returns ctx.Err().
func (s *Sender) Run(ctx context.Context) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		kicked := false
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.kick:
			if s.holdKick() {
				continue // the timer stays set for the sender's own retry
			}
			kicked = true
		case <-timer.C:
		}
		wait, err := s.flush(ctx, kicked)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			s.log.Warn("sending stopped", "err", err, "retry_in", wait)
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(wait)
	}
}

// holdKick reports whether a Kick must wait: the server could not be
// reached and the last try was less than MinBackoff ago.
func (s *Sender) holdKick() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.backoff > 0 && s.opt.Now().Sub(s.lastTry) < s.opt.MinBackoff
}

// Flush sends every mail due now, over a session opened once per Batch
// mails, and returns how long to wait before the next mail is due (or
// before reconnecting after a connection failure).
func (s *Sender) Flush(ctx context.Context) (time.Duration, error) {
	return s.flush(ctx, false)
}

// flush is Flush; kicked says a Kick asked for it, so a connection
// failure keeps the reconnect time already set instead of doubling it.
func (s *Sender) flush(ctx context.Context, kicked bool) (time.Duration, error) {
	var ss session
	defer ss.close()
	for {
		mails, err := s.q.Due(s.opt.Now(), s.opt.Batch)
		if err != nil {
			err = fmt.Errorf("read outbox: %w", err)
			s.health.set(s.opt.Now(), fmt.Sprintf("the outbox cannot be read or written: %v", err), err)
			return s.opt.MinBackoff, err
		}
		if len(mails) == 0 {
			break
		}
		if err := s.sendBatch(ctx, &ss, mails); err != nil {
			var ce *connError
			if errors.As(err, &ce) {
				s.health.set(s.opt.Now(), fmt.Sprintf("SMTP %s: cannot open a session: %v", s.cfg.Addr, ce.err), err)
				return s.connBackoff(kicked), err
			}
			if ctx.Err() == nil {
				s.health.set(s.opt.Now(), fmt.Sprintf("the outbox cannot be read or written: %v", err), err)
			}
			return s.opt.MinBackoff, err
		}
		s.health.set(s.opt.Now(), "", nil)
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
	}
	next, ok, err := s.q.NextDue()
	if err != nil {
		return s.opt.MinBackoff, fmt.Errorf("read outbox: %w", err)
	}
	if !ok {
		return idleWait, nil
	}
	return max(next.Sub(s.opt.Now()), 0), nil // the injected clock, not the wall clock: they differ in the demo
}

// connBackoff returns how long to wait before reconnecting after a
// failed session setup. Only the sender's own retries double the delay;
// a kicked try that failed keeps the time already set.
func (s *Sender) connBackoff(kicked bool) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opt.Now()
	if kicked && s.backoff > 0 {
		return max(s.retryAt.Sub(now), 0)
	}
	if s.backoff == 0 {
		s.backoff = s.opt.MinBackoff
	} else {
		s.backoff = min(2*s.backoff, s.opt.MaxBackoff)
	}
	d := s.jitter(s.backoff)
	s.retryAt = now.Add(d)
	return d
}

// connected records that a session could be opened: the outage is over.
func (s *Sender) connected() {
	s.mu.Lock()
	s.backoff, s.retryAt = 0, time.Time{}
	s.mu.Unlock()
}

// mayGiveUp reports whether mail m, past MaxAge or MaxAttempts, has been
// retried long enough in this process to be given up.
func (s *Sender) mayGiveUp(m QueuedMail, now time.Time) bool {
	expired := now.Sub(m.Queued) > s.opt.MaxAge && !m.Queued.IsZero() ||
		s.opt.MaxAttempts > 0 && m.Attempts >= s.opt.MaxAttempts
	if !expired {
		return false
	}
	s.mu.Lock()
	first, ok := s.run[m.ID]
	s.mu.Unlock()
	return ok && now.Sub(first) >= s.opt.RunGrace
}

// attempted notes an attempt on mail id by this process.
func (s *Sender) attempted(id uint64, now time.Time) {
	s.mu.Lock()
	if _, ok := s.run[id]; !ok {
		s.run[id] = now
	}
	s.mu.Unlock()
}

// left forgets a mail that left the outbox.
func (s *Sender) left(id uint64) {
	s.mu.Lock()
	delete(s.run, id)
	s.mu.Unlock()
}

// retryDelay is the backoff after the n-th attempt (n ≥ 1).
func (s *Sender) retryDelay(n int) time.Duration {
	d := s.opt.MinBackoff
	for i := 1; i < n && d < s.opt.MaxBackoff; i++ {
		d *= 2
	}
	return s.jitter(min(d, s.opt.MaxBackoff))
}

func (s *Sender) jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return d
	}
	f := 0.8 + 0.4*rand.Float64()
	return time.Duration(float64(d) * f)
}

// session is the SMTP session of one flush: opened when a mail needs it,
// kept while the queue is read again, closed after Batch mails.
type session struct {
	c    *smtp.Client
	sent int // attempts made over c
}

func (ss *session) close() {
	if ss.c != nil {
		ss.c.Quit()
		ss.c.Close()
	}
	ss.c, ss.sent = nil, 0
}

// drop closes a session that cannot go on, without QUIT.
func (ss *session) drop() {
	if ss.c != nil {
		ss.c.Close()
	}
	ss.c, ss.sent = nil, 0
}

// kicked takes a pending Kick, if there is one.
func (s *Sender) kicked() bool {
	select {
	case <-s.kick:
		return true
	default:
		return false
	}
}

// sendBatch sends mails, read from the queue in its order, over the
// session ss (opened if need be). It returns early, without error, when
// a Kick says new mail was queued: the caller reads the queue again, so
// an answer queued meanwhile goes next. It returns a *connError when the
// session could not be set up (nothing was failed for it) and stops at
// the first queue error.
func (s *Sender) sendBatch(ctx context.Context, ss *session, mails []QueuedMail) error {
	// begun says that the attempt on mails[i] was recorded with the
	// previous mail's Sent (SentBegin): it goes next, on the same session.
	begun := false
	for i, m := range mails {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if i > 0 && !begun && s.kicked() {
			return nil
		}
		now := s.opt.Now()
		log := s.log.With("msgid", m.MessageID, "outbox_id", m.ID, "attempt", m.Attempts+1)
		if !begun && s.mayGiveUp(m, now) {
			reason := fmt.Sprintf("gave up after %d attempts over %v; last error: %s", m.Attempts, now.Sub(m.Queued).Round(time.Second), m.LastError)
			if err := s.q.Failed(m.ID, now, reason); err != nil {
				return err
			}
			s.left(m.ID)
			log.Error("mail given up", "reason", reason)
			s.giveUp(GiveUp{Mail: m, Recipients: m.To, Err: errors.New(reason)})
			continue
		}
		if ss.c != nil && ss.sent >= s.opt.Batch && !begun {
			ss.close()
		}
		if ss.c == nil {
			s.mu.Lock()
			s.lastTry = now
			s.mu.Unlock()
			c, err := dialSMTP(ctx, s.cfg, s.log)
			if err != nil {
				s.log.Warn("cannot open smtp session", "err", err, "due", len(mails)-i)
				return err
			}
			ss.c = c
			s.connected()
		}
		if !begun {
			if err := s.q.Begin(m.ID, now.Add(s.retryDelay(m.Attempts+1))); err != nil {
				return err
			}
		}
		begun = false
		s.attempted(m.ID, now)
		ss.sent++
		refused, err := s.deliver(ss.c, m)
		now = s.opt.Now()
		switch {
		case err == nil:
			// Recorded straight after the 250; the next mail's attempt
			// in the same commit when it follows on this session (no
			// Kick waits, the session has room, it is not given up).
			var qerr error
			if i+1 < len(mails) && ss.sent < s.opt.Batch && len(s.kick) == 0 && !s.mayGiveUp(mails[i+1], now) {
				nx := mails[i+1]
				qerr = s.q.SentBegin(m.ID, now, nx.ID, now.Add(s.retryDelay(nx.Attempts+1)))
				begun = qerr == nil
			} else {
				qerr = s.q.Sent(m.ID, now)
			}
			if qerr != nil {
				log.Error("mail accepted by the server but not recorded as sent; it may be sent twice", "err", qerr)
				return qerr
			}
			s.left(m.ID)
			log.Info("mail sent", "to", strings.Join(m.To, ","))
			if len(refused) > 0 {
				s.giveUp(GiveUp{Mail: m, Recipients: refusedAddrs(refused), Partial: true, Err: errors.Join(refusedErrs(refused)...)})
			}
		case smtpTemporary(err):
			next := now.Add(s.retryDelay(m.Attempts + 1))
			if qerr := s.q.Retry(m.ID, next, err.Error()); qerr != nil {
				return qerr
			}
			log.Warn("mail deferred", "err", err, "next", next)
			if !sessionUsable(err) {
				ss.drop()
			} else if rerr := ss.c.Reset(); rerr != nil {
				ss.drop()
			}
		default:
			if qerr := s.q.Failed(m.ID, now, err.Error()); qerr != nil {
				return qerr
			}
			s.left(m.ID)
			log.Error("mail refused for good", "err", err)
			s.giveUp(GiveUp{Mail: m, Recipients: m.To, Err: err})
			if rerr := ss.c.Reset(); rerr != nil {
				ss.drop()
			}
		}
	}
	return nil
}

func (s *Sender) giveUp(g GiveUp) {
	if s.opt.OnGiveUp != nil {
		s.opt.OnGiveUp(g)
	}
}

type refusal struct {
	addr string
	err  error
}

func refusedAddrs(r []refusal) []string {
	out := make([]string, len(r))
	for i, x := range r {
		out[i] = x.addr
	}
	return out
}

func refusedErrs(r []refusal) []error {
	out := make([]error, len(r))
	for i, x := range r {
		out[i] = fmt.Errorf("<%s>: %w", x.addr, x.err)
	}
	return out
}

// sessionUsable reports whether the session can go on after err: an SMTP
// reply other than 421 leaves it usable; 421 and network errors do not.
func sessionUsable(err error) bool {
	var se *smtp.SMTPError
	return errors.As(err, &se) && se.Code != 421
}

// deliver runs one SMTP transaction. Recipients refused with 5xx are
// returned in refused while the others still get the mail; a 4xx for any
// recipient aborts the whole transaction (a later retry sends to all, and
// nobody got it yet). err is nil only after the server accepted the data.
func (s *Sender) deliver(c *smtp.Client, m QueuedMail) (refused []refusal, err error) {
	if err := startMail(c, m); err != nil { // SMTPUTF8 when m needs it (smtpclient.go)
		return nil, fmt.Errorf("MAIL FROM: %w", err)
	}
	accepted := 0
	for _, rcpt := range m.To {
		if err := c.Rcpt(rcpt, nil); err != nil {
			if smtpTemporary(err) {
				return nil, fmt.Errorf("RCPT TO:<%s>: %w", rcpt, err)
			}
			refused = append(refused, refusal{rcpt, err})
			continue
		}
		accepted++
	}
	if accepted == 0 {
		return nil, fmt.Errorf("every recipient refused: %w", errors.Join(refusedErrs(refused)...))
	}
	w, err := c.Data()
	if err != nil {
		return nil, fmt.Errorf("DATA: %w", err)
	}
	if _, err := w.Write(ensureCRLF(m.Raw)); err != nil {
		w.Close()
		return nil, fmt.Errorf("DATA: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("end of DATA: %w", err)
	}
	return refused, nil
}

// ensureCRLF makes sure the mail ends with a line break, so the final
// "." is on its own line.
func ensureCRLF(b []byte) []byte {
	if bytes.HasSuffix(b, []byte("\n")) {
		return b
	}
	return append(b[:len(b):len(b)], '\r', '\n')
}
