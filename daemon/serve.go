package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"pbemd/adjudicator"
	"pbemd/mailer"
	"pbemd/store"
)

// Server is a running game master: store, daemon, mail in and out, cron,
// and the loopback endpoint, wired from a Config.
type Server struct {
	Daemon  *Daemon
	DB      *store.DB
	Mail    *mailer.Server // the embedded mail server, nil with real accounts
	IMAP    mailer.IMAPConfig
	SMTP    mailer.SMTPConfig
	HTTP    string // the endpoint's address, "" when off
	fetcher *mailer.Fetcher
	sender  *mailer.Sender
	log     *slog.Logger
	cfg     Config
	tick    chan struct{}
}

// Open wires a Server from cfg without starting its loops. now is the
// clock (nil: time.Now).
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
	// No credential reaches the log, at any level (mailer/redact.go).
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
	log = slog.New(mailer.NewRedactingHandler(log.Handler(), secrets...))
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data folder: %w", err)
	}
	db, err := store.Open(cfg.DBPath())
	if err != nil {
		return nil, err
	}
	s := &Server{DB: db, log: log, cfg: cfg, tick: make(chan struct{}, 1)}
	fail := func(err error) (*Server, error) {
		s.Close()
		return nil, err
	}
	if cfg.UsesEmbedded() {
		mc := cfg.Mailserver
		if mc.StateFile != "" && !filepath.IsAbs(mc.StateFile) {
			mc.StateFile = filepath.Join(cfg.DataDir, mc.StateFile)
		}
		if s.Mail, err = mailer.StartServer(mc, log); err != nil {
			return fail(err)
		}
		if s.IMAP, err = s.Mail.IMAPConfig(cfg.Address); err != nil {
			return fail(err)
		}
		if s.SMTP, err = s.Mail.SMTPConfig(cfg.Address); err != nil {
			return fail(err)
		}
	} else {
		s.IMAP, s.SMTP = *cfg.IMAP, *cfg.SMTP
		if s.IMAP.Address == "" {
			s.IMAP.Address = cfg.Address
		}
	}
	metrics := &Metrics{}
	metrics.QueueDepth = func() int {
		n := 0
		db.View(func(tx *store.Tx) error { n = tx.OutboxLen(); return nil })
		return n
	}
	var sender *mailer.Sender
	d, err := New(db, Options{
		Address: cfg.Address, GM: cfg.GM, GMPassword: cfg.GMPassword, Schedule: cfg.Schedule,
		RateLimit: cfg.RateLimit, Zone: cfg.TimeZone, Now: now, Logger: log, Metrics: metrics, PasswordCost: cfg.PasswordCost,
		Kick: func() {
			if sender != nil {
				sender.Kick()
			}
		},
	})
	if err != nil {
		return fail(err)
	}
	s.Daemon = d
	sender, err = mailer.NewSender(s.SMTP, NewMailQueue(db), mailer.SenderOptions{
		Logger: log, Now: now,
		OnGiveUp: func(g mailer.GiveUp) {
			if err := d.giveUpAlert(g); err != nil { // alert.go: never about an alert
				log.Error("GM alert", "err", err)
			}
			s.sender.Kick()
		},
	})
	if err != nil {
		return fail(err)
	}
	s.sender = sender
	s.fetcher, err = mailer.NewFetcher(s.IMAP, mailer.FetcherOptions{
		Logger: log, State: NewInboxState(db), Now: now,
		Handler: func(ctx context.Context, m *mailer.Mail) error {
			if err := d.HandleMail(ctx, IncomingFromMail(m)); err != nil {
				return err
			}
			s.Kick() // the mail may have made a phase due (PROCESS, early end)
			return nil
		},
		OnPoison: func(ctx context.Context, p mailer.Poisoned) {
			from := "?"
			if p.Mail != nil && p.Mail.From != nil {
				from = p.Mail.From.Address
			}
			s.tellGM(alertSetAside, "A mail was set aside", fmt.Sprintf("A mail from %s could not be processed after %d attempts and was set aside (flagged in the mailbox).\nError: %v\nThe sender was not answered; please look at it by hand.", from, p.Failures, p.Err))
		},
	})
	if err != nil {
		return fail(err)
	}
	return s, nil
}

func giveUpText(g mailer.GiveUp) string {
	return fmt.Sprintf("I gave up delivering a mail (Message-ID <%s>) to %s: %v\nThe players concerned did not get it; check the addresses (REPLACE a player whose address is dead).",
		g.Mail.MessageID, strings.Join(g.Recipients, ", "), g.Err)
}

// tellGM mails the site GM a note from outside any mail or tick, at most
// one of a kind per quarter of an hour (alert.go).
func (s *Server) tellGM(kind, subject, text string) {
	err := s.DB.Update(func(tx *store.Tx) error { return s.Daemon.alertLimited(tx, nil, kind, subject, text) })
	if err != nil {
		s.log.Error("GM alert", "err", err, "subject", subject)
	}
	s.sender.Kick()
}

// Kick asks for a deadline check soon (after a mail that made one due).
func (s *Server) Kick() {
	select {
	case s.tick <- struct{}{}:
	default:
	}
}

// Welcome greets the site GM the first time the daemon runs on a store: a
// mail whose reply address carries the site GM token (for CREATE).
func (s *Server) Welcome() error { return s.Daemon.Welcome() }

// Welcome mails the site GM(s) their site GM address, once per store.
func (d *Daemon) Welcome() error {
	err := d.db.Update(func(tx *store.Tx) error {
		if tx.Meta("gm_token") != "" {
			return nil
		}
		tok := newToken()
		if err := tx.PutMeta("gm_token", tok); err != nil {
			return err
		}
		if err := tx.PutToken(store.TokenRef{Token: tok, GM: true}); err != nil {
			return err
		}
		return d.alertGM(tx, nil, "Welcome to pbemd", fmt.Sprintf(
			"pbemd is running at %s.\n\nReply to this mail to create a game, for example:\n  CREATE rome1 ancientmed\n  CREATE europe standard pace=fast press=white\n\nThe reply address of this mail is your site GM address: keep it to yourself.\nVariants here: %s.\n",
			d.opt.Address, strings.Join(adjudicator.Names(), ", ")))
	})
	d.opt.Kick()
	return err
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
		srv := &http.Server{Handler: s.Daemon.Handler(token), ReadHeaderTimeout: 10 * time.Second}
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

	if err := s.Welcome(); err != nil {
		return err
	}

	// Mail first: what arrived while the daemon was down counts before
	// any overdue deadline is processed.
	if _, err := s.fetcher.Poll(ctx); err != nil {
		s.log.Warn("first poll failed; deadlines are checked anyway", "err", err)
	}

	parser := cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)
	c := cron.New(cron.WithParser(parser), cron.WithLocation(time.UTC))
	if _, err := c.AddFunc(s.cfg.Poll, s.fetcher.Kick); err != nil {
		return err
	}
	if _, err := c.AddFunc(s.cfg.Tick, s.Kick); err != nil {
		return err
	}
	c.Start()
	defer c.Stop()

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
		fmt.Fprintf(w, "  every address @%s is a mailbox, created on first use; its password is its local part (alice@%s: \"alice\")", s.Mail.Domain(), s.Mail.Domain())
		if s.cfg.Mailserver.PlayerPassword != "" {
			fmt.Fprintf(w, ", or the configured player_password")
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintf(w, "mail: IMAP %s as %s, SMTP %s\n", s.IMAP.Addr, s.IMAP.Username, s.SMTP.Addr)
	}
	fmt.Fprintf(w, "the game master's address: %s; site GM: %s\n", s.cfg.Address, strings.Join(s.cfg.GM, ", "))
	fmt.Fprintf(w, "state: %s\n", s.cfg.DBPath())
	if s.cfg.HTTP != "" {
		fmt.Fprintf(w, "health and metrics: http://%s/healthz, /metrics\n", s.cfg.HTTP)
	}
}
