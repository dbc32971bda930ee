// Package server is pbemd's shell around the game master: the config
// file (Config, and its example config.example.toml), the wiring of the
// daemon to its store, the mail client (mailer) and the embedded mail
// server (mailserver), the mail queue loops, the clock and cron, the
// loopback HTTP endpoint (health, metrics, backup, game creation), the
// web pages' builder queue and server (web.go) and the offline admin
// commands. Besides the store, the mail packages and web (which writes its
// own folder) it is the only package that opens sockets and files.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"pbemd/daemon"
	"pbemd/internal/logredact"
	"pbemd/mailauth"
	"pbemd/mailer"
	"pbemd/mailserver"
	"pbemd/outbox"
	"pbemd/store"
	"pbemd/web"
)

// Server is a running game master: store, daemon, mail in and out, cron,
// and the loopback endpoint, wired from a Config.
type Server struct {
	maps    []string // variant files refused at start (maps.go), for /healthz
	Daemon  *daemon.Daemon
	DB      *store.DB
	Mail    *mailserver.Server // the embedded mail server, nil with real accounts
	IMAP    mailer.IMAPConfig
	SMTP    mailer.SMTPConfig
	HTTP    string // the endpoint's address, "" when off
	WebAddr string // the page server's address, "" when off (web.go)
	pages   *web.Queue
	builder *web.Builder
	webLn   net.Listener // the page server's, until Run serves on it
	fetcher *mailer.Fetcher
	sender  *mailer.Sender
	oauth   *mailauth.Source // the mailbox's OAuth sign-in, nil with passwords
	log     *slog.Logger
	cfg     Config
	tick    chan struct{}
	now     func() time.Time // the clock the daemon reads too
}

// Open wires a Server from cfg without starting its loops. now is the
// clock (nil: time.Now); log may be nil (nothing is logged).
func Open(cfg Config, log *slog.Logger, now func() time.Time) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// No credential reaches the log, at any level (internal/logredact).
	secrets := []string{cfg.GMPassword, cfg.Mailserver.PlayerPassword}
	for _, a := range cfg.Mailserver.Accounts {
		secrets = append(secrets, a.Password)
	}
	if cfg.IMAP != nil {
		secrets = append(secrets, cfg.IMAP.Password)
	}
	if cfg.SMTP != nil {
		secrets = append(secrets, cfg.SMTP.Password)
	}
	log = slog.New(logredact.NewHandler(log.Handler(), secrets...))
	for _, w := range cfg.Warnings() {
		log.Warn("config: " + w)
	}
	if err := prepareDataDir(cfg.DataDir, log); err != nil {
		return nil, err
	}
	db, err := store.Open(cfg.DBPath())
	if err != nil {
		return nil, err
	}
	s := &Server{DB: db, log: log, cfg: cfg, tick: make(chan struct{}, 1), now: now}
	fail := func(err error) (*Server, error) {
		s.Close()
		return nil, err
	}
	if cfg.UsesEmbedded() {
		mc := cfg.embeddedConfig()
		if err := checkMailFile(mc.StateFile); err != nil {
			return fail(err)
		}
		if s.Mail, err = mailserver.Start(mc, log); err != nil {
			return fail(err)
		}
		// the daemon logs in to its own mailbox with its generated password
		if s.IMAP, err = EmbeddedIMAP(s.Mail, cfg.Address); err != nil {
			return fail(err)
		}
		if s.SMTP, err = EmbeddedSMTP(s.Mail, cfg.Address); err != nil {
			return fail(err)
		}
		// the daemon's mailbox has a quota: handled mail leaves it
		s.IMAP.DeleteHandledAfter = cfg.Mailserver.DeleteHandledAfter
	} else {
		s.IMAP, s.SMTP = *cfg.IMAP, *cfg.SMTP
		if s.IMAP.Address == "" {
			s.IMAP.Address = cfg.Address
		}
		if cfg.OAuth != nil {
			if s.oauth, err = mailauth.NewSource(*cfg.OAuth, cfg.OAuthTokenFile(), nil); err != nil {
				return fail(err)
			}
			s.IMAP.OAuth, s.SMTP.OAuth = s.oauth, s.oauth
		}
	}
	s.IMAP.Poll = cfg.Poll.D    // the one poll interval (0 with an old cron poll: the fetcher's default)
	s.maps = LoadMaps(cfg, log) // variants from map files, before the daemon takes CREATEs
	if s.builder, err = s.NewWebBuilder(); err != nil {
		return fail(err)
	}
	s.pages = web.NewQueue(s.builder) // web.go: the pages follow the mails
	if err := s.listenWeb(); err != nil {
		return fail(err)
	}
	s.Daemon, err = daemon.New(db, daemon.Options{
		Address: cfg.Address, GM: cfg.GM, GMPassword: cfg.GMPassword, Schedule: cfg.Schedule,
		RateLimit: cfg.RateLimit, Zone: cfg.TimeZone, Now: now, Logger: log, PasswordCost: cfg.PasswordCost,
		Kick: s.kickSender, Web: cfg.daemonWeb(s.pages.Changed),
	})
	if err != nil {
		return fail(err)
	}
	s.sender, err = mailer.NewSender(s.SMTP, outbox.NewQueue(db), mailer.SenderOptions{Logger: log, Now: now, OnGiveUp: s.gaveUp})
	if err != nil {
		return fail(err)
	}
	s.fetcher, err = mailer.NewFetcher(s.IMAP, mailer.FetcherOptions{
		Logger: log, State: NewInboxState(db), Now: now,
		BatchHandler: s.handleBatch,
		Batch:        daemon.MaxBatch,
		OnPoison:     s.poisoned,
		Quota:        s.embeddedQuota(),
		OnQuota:      s.mailboxFilling,
	})
	if err != nil {
		return fail(err)
	}
	return s, nil
}

// handleBatch is the fetcher's handler: the mails of a poll batch go to
// the daemon, which carries them out in order, storing their effects and
// queuing their answers in as few transactions as it may (one commit for
// many mails: daemon.HandleMails). A mail the store could not write is
// not the mail's fault: nothing of it landed, and the fetcher hands it
// (and those after it) over again later without counting this toward
// setting it aside.
func (s *Server) handleBatch(ctx context.Context, ms []*mailer.Mail) []error {
	ins := make([]*daemon.Incoming, len(ms))
	for i, m := range ms {
		ins[i] = IncomingFromMail(m)
	}
	errs := s.Daemon.HandleMails(ctx, ins)
	handled := false
	for i, err := range errs {
		if err == nil {
			handled = true
		} else if errors.Is(err, store.ErrWrite) {
			errs[i] = fmt.Errorf("%w: %w", mailer.ErrRetryLater, err)
		}
	}
	if handled {
		s.Kick() // the mails may have made a phase due (PROCESS, early end)
	}
	return errs
}

// kickSender tells the sender there is mail in the outbox (the daemon
// calls it after each commit; the sender is made after the daemon).
func (s *Server) kickSender() {
	if s.sender != nil {
		s.sender.Kick()
	}
}

// gaveUp is the sender's word that a mail could not be delivered: the GM
// is told (never about an alert: daemon/alert.go).
func (s *Server) gaveUp(g mailer.GiveUp) {
	if err := s.Daemon.Undeliverable(undelivered(g)); err != nil {
		s.log.Error("GM alert", "err", err)
	}
}

// mailProblems is what the fetcher and the sender report as wrong now,
// for /healthz.
func (s *Server) mailProblems() []string {
	var out []string
	if s.oauth != nil {
		if err := s.oauth.Err(); err != nil {
			out = append(out, "mail sign-in: "+err.Error())
		}
	}
	if s.fetcher != nil {
		if h := s.fetcher.Health(); !h.OK() {
			out = append(out, fmt.Sprintf("incoming mail: %s (since %s)", h.Problem, h.Since.UTC().Format(time.RFC3339)))
		}
	}
	if s.sender != nil {
		if h := s.sender.Health(); !h.OK() {
			out = append(out, fmt.Sprintf("outgoing mail: %s (since %s)", h.Problem, h.Since.UTC().Format(time.RFC3339)))
		}
	}
	return out
}

// embeddedQuota tells the fetcher how full the daemon's mailbox on the
// embedded server is (the server offers no IMAP QUOTA): its account's
// quota or the whole server's, whichever is fuller, since a full server
// refuses the daemon's mail as well. Nil with real accounts: the fetcher
// asks the server itself.
func (s *Server) embeddedQuota() func(context.Context) (mailer.QuotaUsage, error) {
	if s.Mail == nil {
		return nil
	}
	return func(context.Context) (mailer.QuotaUsage, error) {
		acct, all, err := s.Mail.Usage(s.cfg.Address)
		if err != nil {
			return mailer.QuotaUsage{}, err
		}
		own := mailer.QuotaUsage{Root: s.IMAP.Username, Bytes: acct.Bytes, BytesLimit: acct.MaxBytes,
			Messages: int64(acct.Messages), MessagesLimit: int64(acct.MaxMessages)}
		server := mailer.QuotaUsage{Root: "all mailboxes of the embedded mail server", Bytes: all.Bytes, BytesLimit: all.MaxBytes,
			Messages: int64(all.Messages), MessagesLimit: int64(all.MaxMessages)}
		if server.Fraction() > own.Fraction() {
			return server, nil
		}
		return own, nil
	}
}

// mailboxFilling tells the site GM, once a day at most, that the daemon's
// own mailbox is nearly full and what to do: once it is full the mail
// server refuses new mail, players' orders included, and nothing else
// would say so.
func (s *Server) mailboxFilling(_ context.Context, q mailer.QuotaUsage) {
	usage := q.String()
	if q.Root != "" && q.Root != s.IMAP.Username {
		usage += "; the quota of " + q.Root
	}
	var todo string
	switch {
	case s.Mail != nil && s.IMAP.DeleteHandledAfter > 0:
		todo = fmt.Sprintf("pbemd deletes mail it has handled %s after it arrived (delete_handled_after = %q in [mailserver]). "+
			"To make room, lower delete_handled_after, or raise mailbox_quota and mailbox_max_messages "+
			"(total_quota and total_max_messages for the whole server) in [mailserver], then restart pbemd.",
			durationText(s.IMAP.DeleteHandledAfter), tomlDuration(s.IMAP.DeleteHandledAfter))
	case s.Mail != nil:
		todo = "pbemd keeps every mail it has handled (delete_handled_after = \"0s\" in [mailserver]). " +
			"Set delete_handled_after = \"720h\" there to have handled mail deleted after 30 days, or raise " +
			"mailbox_quota and mailbox_max_messages, then restart pbemd."
	default:
		todo = "Delete old mail from that mailbox, or set delete_handled_after in [imap] (e.g. \"720h\") to have pbemd " +
			"delete mail it has handled after 30 days, or ask your mail provider for more room."
	}
	text := fmt.Sprintf("The daemon's mailbox %s is %d%% full (%s).\n\n"+
		"When it is full, the mail server refuses new mail, players' orders included.\n\n"+
		"What to do: %s\n\nMail that was set aside (flagged) is never deleted by pbemd: look at it and delete it by hand.\n",
		s.IMAP.Username, int(q.Fraction()*100), usage, todo)
	if _, err := s.Daemon.AlertOnce("mailbox-full:"+s.IMAP.Username, 24*time.Hour, "The daemon's mailbox is nearly full", text); err != nil {
		s.log.Error("GM alert: mailbox nearly full", "err", err)
	}
}

// durationText says a duration in days when it is whole days ("30
// days"), else as Go writes it.
func durationText(d time.Duration) string {
	const day = 24 * time.Hour
	switch {
	case d == day:
		return "1 day"
	case d > day && d%day == 0:
		return fmt.Sprintf("%d days", d/day)
	}
	return d.String()
}

// tomlDuration writes a duration as the config file would: "720h".
func tomlDuration(d time.Duration) string {
	if d > 0 && d%time.Hour == 0 {
		return fmt.Sprintf("%dh", d/time.Hour)
	}
	return d.String()
}

// poisoned is the fetcher's word that it set a mail aside: the daemon
// tells the GM and, once a day at most, the sender.
func (s *Server) poisoned(_ context.Context, p mailer.Poisoned) {
	if err := s.Daemon.SetAside(setAsideMail(p.Mail), p.Failures, p.Err); err != nil {
		s.log.Error("GM alert: a mail was set aside", "err", err)
	}
}

// EmbeddedIMAP is the IMAP client config for an account of the embedded
// server (for the daemon's own address: its generated password).
func EmbeddedIMAP(ms *mailserver.Server, address string) (mailer.IMAPConfig, error) {
	user, pw, err := ms.Credentials(address)
	if err != nil {
		return mailer.IMAPConfig{}, err
	}
	return mailer.IMAPConfig{Addr: ms.IMAPAddr(), Username: user, Password: pw, Security: mailer.SecurityPlain, Address: user}, nil
}

// EmbeddedSMTP is the SMTP client config for an account of the embedded
// server.
func EmbeddedSMTP(ms *mailserver.Server, address string) (mailer.SMTPConfig, error) {
	user, pw, err := ms.Credentials(address)
	if err != nil {
		return mailer.SMTPConfig{}, err
	}
	return mailer.SMTPConfig{Addr: ms.SMTPAddr(), Username: user, Password: pw, Security: mailer.SecurityPlain, Hello: "localhost"}, nil
}

// Kick asks for a deadline check soon (after a mail that made one due).
func (s *Server) Kick() {
	select {
	case s.tick <- struct{}{}:
	default:
	}
}

// Run starts the loops and blocks until ctx ends, then shuts down in
// order: stop taking mail, finish the tick in progress, drain nothing more.
func (s *Server) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errc := make(chan error, 4)

	if s.cfg.HTTP != "" {
		token, err := WriteAdminToken(s.cfg.DataDir)
		if err != nil {
			return err
		}
		ln, err := net.Listen("tcp", s.cfg.HTTP)
		if err != nil {
			return fmt.Errorf("http endpoint: %w", err)
		}
		s.HTTP = ln.Addr().String()
		srv := &http.Server{Handler: s.Handler(token), ReadHeaderTimeout: 10 * time.Second}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				errc <- err
			}
		}()
		go func() {
			<-ctx.Done()
			sc, c := context.WithTimeout(context.Background(), 5*time.Second)
			defer c()
			srv.Shutdown(sc)
		}()
	}

	// The site GM's first mail: its reply address carries the site GM
	// token (for CREATE).
	if err := s.Daemon.Welcome(); err != nil {
		return err
	}

	// Mail first: what arrived while the daemon was down counts before
	// any overdue deadline is processed.
	if _, err := s.fetcher.Poll(ctx); err != nil {
		s.log.Warn("first poll failed; deadlines are checked anyway", "err", err)
	}

	// The fetcher polls every cfg.Poll itself; old cron spellings of poll
	// and tick still run on cron.
	c := cron.New(cron.WithParser(cronParser), cron.WithLocation(time.UTC))
	if s.cfg.Poll.Cron != "" {
		if _, err := c.AddFunc(s.cfg.Poll.Cron, s.fetcher.Kick); err != nil {
			return err
		}
	}
	if s.cfg.Tick.Cron != "" {
		if _, err := c.AddFunc(s.cfg.Tick.Cron, s.Kick); err != nil {
			return err
		}
	} else {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(s.cfg.Tick.D)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					s.Kick()
				}
			}
		}()
	}
	c.Start()
	defer c.Stop()
	stopWeb := s.runWeb(ctx, s.pages, errc) // web.go
	defer stopWeb()

	wg.Add(3)
	go func() {
		defer wg.Done()
		if err := s.sender.Run(ctx); err != nil && ctx.Err() == nil {
			errc <- fmt.Errorf("smtp: %w", err)
		}
	}()
	go func() {
		defer wg.Done()
		if err := s.fetcher.Run(ctx); err != nil && ctx.Err() == nil {
			errc <- fmt.Errorf("imap: %w", err)
		}
	}()
	go func() {
		defer wg.Done()
		s.Kick()
		for {
			select {
			case <-ctx.Done():
				return
			case <-s.tick:
				if err := s.Daemon.Tick(ctx); err != nil && ctx.Err() == nil {
					s.log.Error("tick", "err", err)
				}
			}
		}
	}()
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
		cancel()
	}
	wg.Wait()
	return err
}

// Close releases everything Open took.
func (s *Server) Close() error {
	var errs []error
	if s.webLn != nil {
		s.webLn.Close()
	}
	if s.fetcher != nil {
		errs = append(errs, s.fetcher.Close())
	}
	if s.Mail != nil {
		errs = append(errs, s.Mail.Close())
	}
	if s.DB != nil {
		errs = append(errs, s.DB.Close())
	}
	return errors.Join(errs...)
}

// Describe writes where to point a mail client (for `pbemd serve`).
func (s *Server) Describe(w io.Writer) {
	if s.Mail != nil {
		fmt.Fprintf(w, "embedded mail server: IMAP %s, SMTP %s (no encryption), domain %s\n", s.Mail.IMAPAddr(), s.Mail.SMTPAddr(), s.Mail.Domain())
		// A password is shown at the start that made it only: the banner
		// of every later start lands in the journal under systemd, and
		// gm@'s password opens the mailbox that holds every reply token.
		file := filepath.Join(s.cfg.DataDir, MailPasswordFile)
		var kept []string
		for _, a := range s.Mail.SystemAccounts() {
			if s.Mail.PasswordMadeNow(a.Address) {
				fmt.Fprintf(w, "  %s  password %s\n", a.Address, a.Password)
			} else {
				kept = append(kept, a.Address)
			}
		}
		if len(kept) < len(s.Mail.SystemAccounts()) {
			fmt.Fprintf(w, "  (generated now and kept in %s; shown at this start only; nothing else opens these)\n", file)
		}
		if len(kept) > 0 {
			fmt.Fprintf(w, "  %s: %s in %s (generated at an earlier start; nothing else opens these)\n", strings.Join(kept, ", "), map[bool]string{true: "password", false: "passwords"}[len(kept) == 1], file)
		}
		if s.cfg.Mailserver.PlayerPassword != "" {
			fmt.Fprintf(w, "  every other address @%s is a mailbox, created on first use; its password is the configured player_password\n", s.Mail.Domain())
		} else {
			fmt.Fprintf(w, "  every other address @%s is a mailbox, created on first use; its password is its local part (alice@%s: \"alice\")\n", s.Mail.Domain(), s.Mail.Domain())
		}
	} else {
		fmt.Fprintf(w, "mail: IMAP %s as %s, SMTP %s\n", s.IMAP.Addr, s.IMAP.Username, s.SMTP.Addr)
	}
	fmt.Fprintf(w, "the game master's address: %s; site GM: %s\n", s.cfg.Address, strings.Join(s.cfg.GM, ", "))
	fmt.Fprintf(w, "state: %s\n", s.cfg.DBPath())
	if s.cfg.HTTP != "" {
		fmt.Fprintf(w, "health and metrics: http://%s/healthz, /metrics\n", s.cfg.HTTP)
	}
}
