// Package daemon is the game master: it turns each incoming mail into its
// effects (orders stored, commands carried out, replies queued), runs every
// game's deadline, adjudicates through the game's engine and queues the
// reports, all in single store transactions so that a crash at any point
// loses nothing and repeats nothing.
//
// It is the game master only. It opens no socket and no file: its state
// is the store it is given, and package server moves its mail (IMAP in,
// SMTP out), serves its endpoint and runs its clock. It speaks to people
// only in mail, which it composes with package mailer (reply tokens,
// threading, Auto-Submitted, the pictures it attaches), but it speaks no
// mail protocol. It knows no game's rules: the engines in adjudicator/* do.
// It reads the clock only through Options.Now, so tests and the demo run
// it on a virtual clock.
// A test (imports_test.go) holds it to all of this.
package daemon

import (
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"pbemd/adjudicator"
	"pbemd/internal/logredact"
	"pbemd/outbox"
	"pbemd/store"
)

// Incoming is one received mail as the daemon sees it.
type Incoming struct {
	MsgID      string
	From       string   // bare address of From:
	ReplyTo    string   // bare address of Reply-To:, if any
	To         []string // every recipient address we were reached at
	Token      string   // the +token of our address, if any
	Subject    string
	Date       time.Time
	InReplyTo  string
	References []string
	Text       string // the best plain-text body
	// Auto is true for bounces and auto-replies: recorded, never answered.
	Auto bool
	// TooBig is true when the mail was over the size limit and not parsed.
	TooBig bool
	// UnknownCharset names the character set the mail declared and no
	// decoder knows: its text was guessed, and the answer says so.
	UnknownCharset string
}

// Sender is the address replies go to.
func (in *Incoming) Sender() string {
	if in.ReplyTo != "" {
		return strings.ToLower(in.ReplyTo)
	}
	return strings.ToLower(in.From)
}

// Options configure a Daemon.
type Options struct {
	Address    string   // the daemon's own address, e.g. "gm@pbemd.local"
	GM         []string // site GM addresses (alerts go there)
	GMPassword string   // site GM password (CREATE, GM commands from scratch)
	Schedule   Schedule
	RateLimit  int    // answered mails per sender per hour (0 = 30)
	Zone       string // default time zone for deadlines shown to players
	// PasswordCost is the bcrypt cost for player passwords (0 = default).
	PasswordCost int
	// Now is the daemon's clock, its only one (required; it must be safe
	// for concurrent use). Durations for the metrics are read from it too.
	Now    func() time.Time
	Logger *slog.Logger
	// Kick tells the sender there is mail to send (after commit).
	Kick func()
	// DeferPictures is for measurement only (the deadline burst's
	// benchmark of the adjudication alone): a Tick commits results with
	// their mails held for their pictures, as always, but draws none of
	// them. The mails stay held (none leaves without its picture) until a
	// daemon without DeferPictures Ticks and draws what is missing
	// (drawPending). A real daemon never sets it.
	DeferPictures bool
	// Web is the site's web pages (web.go).
	Web Web
}

// Daemon is the game master.
type Daemon struct {
	db      *store.DB
	opt     Options
	log     *slog.Logger
	now     func() time.Time
	rate    *rateLimiter
	signons *signonGuard // failed SIGNONs (signon.go)
	metrics *Metrics
	domain  string
	local   string

	tickMu sync.Mutex // one Tick at a time
	// tickStarted is when the Tick in progress started (Unix nanoseconds
	// by the daemon's clock), 0 between ticks (TickRunning).
	tickStarted atomic.Int64
	// codeSlots counts the write transactions that have given
	// verification codes (verificationCode's fourth character).
	codeSlots atomic.Uint32
	dates     outbox.Dates // each reader's Date headers (writeMails)
}

// New builds a daemon over an open store.
func New(db *store.DB, opt Options) (*Daemon, error) {
	if opt.Now == nil {
		return nil, fmt.Errorf("daemon: Options.Now is nil: the daemon reads the clock only through it")
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	} else {
		// Tokens, passwords and the GM password never reach the log.
		opt.Logger = slog.New(logredact.NewHandler(opt.Logger.Handler(), opt.GMPassword))
	}
	if opt.Kick == nil {
		opt.Kick = func() {}
	}
	if opt.RateLimit <= 0 {
		opt.RateLimit = 30
	}
	if opt.Zone == "" {
		opt.Zone = "UTC"
	}
	if _, err := time.LoadLocation(opt.Zone); err != nil {
		return nil, fmt.Errorf("daemon: time zone %q: %w", opt.Zone, err)
	}
	if opt.Schedule.Orders == 0 && opt.Schedule.DeadlineZone == "" {
		opt.Schedule = DefaultSchedule() // not configured at all
	}
	opt.Schedule = opt.Schedule.withDefaults()
	local, domain, ok := strings.Cut(strings.ToLower(opt.Address), "@")
	if !ok || local == "" || domain == "" {
		return nil, fmt.Errorf("daemon: own address %q is not local@domain", opt.Address)
	}
	for i, a := range opt.GM {
		opt.GM[i] = strings.ToLower(strings.TrimSpace(a))
	}
	if err := buildStoredMaps(db); err != nil {
		return nil, err
	}
	return &Daemon{
		db:      db,
		opt:     opt,
		log:     opt.Logger,
		now:     opt.Now,
		rate:    newRateLimiter(opt.RateLimit, time.Hour),
		signons: newSignonGuard(),
		metrics: &Metrics{},
		domain:  domain,
		local:   local,
	}, nil
}

// DB is the daemon's store.
func (d *Daemon) DB() *store.DB { return d.db }

// Metrics is the daemon's counters.
func (d *Daemon) Metrics() *Metrics { return d.metrics }

// replyAddress is our address with a token, so a reply comes back to us
// naming its sender and game.
func (d *Daemon) replyAddress(token string) string {
	if token == "" {
		return d.opt.Address
	}
	return d.local + "+" + token + "@" + d.domain
}

// newToken returns 128 random bits as 26 lower-case base32 characters.
func newToken() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
}

// buildStoredMaps builds the engines of the variant files the store's
// games were created on (store.MapFile), each once per process, so that
// engineFor finds them whatever the data folder's maps/ holds now. A store
// whose games use no such file costs one empty bucket's read.
func buildStoredMaps(db *store.DB) error {
	return db.View(func(tx *store.Tx) error {
		return tx.MapTexts(func(hash string, f store.MapFile) error {
			if _, ok := adjudicator.Built(hash); ok {
				return nil
			}
			if _, _, err := adjudicator.Build(f.File, []byte(f.Text)); err != nil {
				return fmt.Errorf("daemon: the map kept for games on %s: %w", f.File, err)
			}
			return nil
		})
	})
}
