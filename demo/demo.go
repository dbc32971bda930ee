// Package demo plays a whole game by mail against a real pbemd daemon:
// the embedded IMAP and SMTP server, the daemon's fetcher, sender and
// deadline ticks, and scripted players and a GM who write and read real
// mail. It is `pbemd demo`, and its tests check every game it plays
// against the engine run directly.
//
// The default game is Diplomacy (Ancient Mediterranean) with five
// players. Options.Game picks another: Supremacy 2020, Supply Chain or
// the Empire Boardgame, each in a short set-up (see Games), whose players
// order with the engine's own seeded bot.
//
// The clock is virtual: the game runs on the daemon's schedule (48-hour
// order phases, deadlines at 21:00 GMT), and the demo moves the clock to
// each deadline as soon as every player who meant to send orders has had
// them acknowledged; a sequential game's turn ends when its player's
// orders arrive, without waiting for the clock. Everything the players
// do derives from the seed and the position, so in Diplomacy the same
// seed plays the same game. The other games roll dice and shuffle cards
// with the game's seed, which the daemon draws at CREATE: their course
// differs from run to run.
//
// The players' brains read the position from the store, read-only; every
// other thing they learn (their power, reply address, password,
// acknowledgements, results) comes by mail. Package demo never writes to
// the store and never calls into the daemon except Tick.
package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"sync"
	"time"

	"pbemd/adjudicator/diplomacy"
	"pbemd/server"
	"pbemd/store"
)

// Options configure a demo game.
type Options struct {
	// Game is what is played: "diplomacy" (the default), "supremacy",
	// "supplychain" or "empire" (see Games).
	Game string
	// Seed drives the players: their preferences, orders and mistakes.
	Seed int64
	// Variant is the Diplomacy variant played (default "ancientmed",
	// Variant; "standard" for the standard map). Diplomacy only.
	Variant string
	// Years is how many game years of Diplomacy are played at most
	// (default 20); the game stops earlier on a solo victory.
	Years int
	// Length is the length of the other games in their own terms:
	// Supremacy's turns and the Empire Boardgame's rounds (default 2
	// each). Supply Chain plays until its deck runs out.
	Length int
	// Phases caps the phases played in the other games (default 150,
	// enough for a whole game of each); the game stops earlier at its
	// end.
	Phases int
	// Out gets one line per phase and a final line (nil: discarded).
	Out io.Writer
	// Logger gets the daemon's and the mail readers' logs (nil: discarded).
	Logger *slog.Logger
	// DataDir is where the daemon keeps its store (pbemd.db). Empty: a
	// temporary folder removed when Run returns.
	DataDir string
	// Timeout bounds every wait for one mail (default 30 s).
	Timeout time.Duration
	// Mails, when set, is a folder where every mail each scripted player
	// (and the GM) received is written as a .eml file, one folder per
	// mailbox (named by its address; NNNN.eml in the order read), so that
	// a mail client can open a whole demo game.
	Mails string
}

// Result is what a demo game did: enough for a test to check the store's
// history against the adjudicator and every mail against what was sent.
type Result struct {
	Game      string // the game's name in the store
	Family    string // what was played: "diplomacy", "supremacy", …
	Variant   string // its engine ("ancientmed", "supremacy-3", …)
	Create    string // the options given at CREATE ("" for none)
	DataDir   string // where the store was; it is gone unless Options.DataDir was set
	Seed      int64
	StartYear int // Diplomacy only
	Years     int // the Years option in effect (Diplomacy only)
	MaxPhases int // the Phases option in effect (the other games)
	Phases    []Phase
	Over      bool     // the game ended by the rules
	Capped    bool     // the other games: stopped at MaxPhases before the end
	Winner    string   // the winning power, "" when none or several
	Winners   []string // the other games: every winner (a draw or joint win lists several)
	Forgetful string   // the power whose player forgets orders (stays silent)
	Players   []Player
	GM        Player   // the site GM: what they sent and read
	Lines     []string // every line written to Out, the final one last
}

// Player is one scripted player (or the GM) and their mail.
type Player struct {
	Address  string
	Power    string   // power id ("" for the GM)
	Prefs    []string // the ranking sent with JOIN
	Password string   // from the mail that told them their power
	Token    string   // the reply address that carries their token
	Sent     []Sent
	Inbox    []Received // every mail read over IMAP, in arrival order
}

// Phase is one phase the demo played.
type Phase struct {
	Number  int // the store's phase number (history key)
	ID      string
	Title   string
	Waiting []string // powers that had something to order
	// Orders is, for each power whose player sent orders, what its mails
	// should leave standing, canonical: the phase record must hold exactly
	// this.
	Orders map[string][]string
	// Forgot lists the powers that owed orders and sent none.
	Forgot []string
	// Idle lists the powers that owed orders but whose player found
	// nothing to order (the other games' bots), so sent none.
	Idle []string
	// Deadline is the deadline the phase had when it opened.
	Deadline time.Time
	// EndedOnReceipt: the phase ended when the last orders arrived, not
	// at its deadline (a sequential game).
	EndedOnReceipt bool
	Line           string
}

// Names of the demo's game and people.
const (
	GameName = "demo"
	Variant  = "ancientmed" // the Diplomacy variant played unless Options.Variant says another
)

// playerNames seat the players, the first as many as the game has powers.
var playerNames = []string{"aulus", "berenice", "cyrus", "dido", "nikias", "flavia", "gaius", "helena"}

// Start is the virtual clock's first reading.
var Start = time.Date(2027, time.January, 4, 9, 0, 0, 0, time.UTC)

// Run plays one demo game and returns what happened. It stops the daemon
// and the mail server before it returns.
func Run(ctx context.Context, opt Options) (res *Result, err error) {
	if opt.Game == "" {
		opt.Game = Diplomacy
	}
	if opt.Years <= 0 {
		opt.Years = 20
	}
	if opt.Length <= 0 {
		opt.Length = 2
	}
	if opt.Phases <= 0 {
		opt.Phases = 150
	}
	if opt.Out == nil {
		opt.Out = io.Discard
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 30 * time.Second
	}
	var e *diplomacy.Engine
	var rl *rules
	if opt.Game == Diplomacy {
		if opt.Variant == "" {
			opt.Variant = Variant
		}
		var ok bool
		if e, ok = diplomacy.NewEngine(opt.Variant); !ok {
			return nil, fmt.Errorf("demo: %q is not a Diplomacy variant (try %s or standard)", opt.Variant, Variant)
		}
		if n := len(e.Info().Powers); n > len(playerNames) {
			return nil, fmt.Errorf("demo: %s has %d powers, the demo seats %d players", opt.Variant, n, len(playerNames))
		}
	} else if opt.Variant != "" {
		return nil, fmt.Errorf("demo: a variant is chosen for Diplomacy only; %s plays its own", opt.Game)
	} else if rl, err = rulesFor(opt.Game, opt.Length); err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	dir := opt.DataDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "pbemd-demo-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
	}

	clk := &clock{t: Start}
	cfg := server.DefaultConfig()
	cfg.DataDir = dir
	cfg.HTTP = ""
	cfg.Mailserver.IMAPAddr = "127.0.0.1:0"
	cfg.Mailserver.SMTPAddr = "127.0.0.1:0"
	cfg.Mailserver.StateFile = ""
	cfg.PasswordCost = 4 // scripted players: no need for slow hashing
	srv, err := server.Open(cfg, opt.Logger, clk.Now)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	opt.Logger.Info("demo mail server", "imap", srv.Mail.IMAPAddr(), "smtp", srv.Mail.SMTPAddr(), "store", cfg.DBPath())

	ctx, cancel := context.WithCancel(ctx)
	stopped := make(chan struct{})
	var runErr error
	go func() {
		runErr = srv.Run(ctx)
		close(stopped)
	}()
	po := newPostOffice(srv.Mail.SMTPAddr(), opt.Logger)
	po.stopped = stopped
	po.mails = opt.Mails
	defer func() {
		cancel()
		<-stopped
		po.wg.Wait()
		if po.saveErr != nil {
			err = errors.Join(err, fmt.Errorf("demo: %w", po.saveErr))
		}
		if runErr != nil && !errors.Is(runErr, context.Canceled) {
			err = errors.Join(err, fmt.Errorf("demo: daemon: %w", runErr))
		}
		if cerr := srv.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("demo: close: %w", cerr))
		}
	}()

	b := base{opt: opt, cfg: cfg, srv: srv, clk: clk, po: po,
		res: &Result{Game: GameName, Family: opt.Game, DataDir: dir, Seed: opt.Seed}}
	if opt.DataDir == "" {
		b.res.DataDir = ""
	}
	if rl == nil {
		b.res.Variant, b.res.StartYear, b.res.Years = opt.Variant, e.Map().StartYear, opt.Years
		d := &driver{base: b, e: e, m: e.Map()}
		err = d.play(ctx)
		d.collectMail()
		res = d.res
	} else {
		b.res.Variant, b.res.Create, b.res.MaxPhases = rl.variant, rl.create, opt.Phases
		t := &table{base: b, rl: rl, waits: map[int]int{}}
		err = t.play(ctx)
		t.collectMail()
		res = t.res
	}
	if err != nil {
		return res, fmt.Errorf("demo: %w", err)
	}
	return res, nil
}

// base is what every demo game has: the daemon, its mail server and
// clock, the people at the table and what they did.
type base struct {
	opt Options
	cfg server.Config
	srv *server.Server
	clk *clock
	po  *postOffice
	res *Result

	players []*seat
	gm      *seat
}

// snapshot reads the game, its engine state and its last phase record.
func (b *base) snapshot() (*store.Game, []byte, *store.PhaseRecord, error) {
	var g *store.Game
	var state []byte
	var last *store.PhaseRecord
	err := b.srv.DB.View(func(tx *store.Tx) error {
		var err error
		if g, err = tx.Game(GameName); err != nil {
			return err
		}
		if g.Phase > 0 {
			if last, err = tx.Phase(GameName, g.Phase-1); err != nil {
				return err
			}
		}
		state, err = tx.State(GameName)
		return err
	})
	return g, state, last, err
}

// awaitGameOver waits until every player and the GM has the game-over mail.
func (b *base) awaitGameOver(ctx context.Context) error {
	for _, p := range append(slices.Clone(b.players), b.gm) {
		if _, err := b.po.waitFor(ctx, b.opt.Timeout, p.Address, "the end of the game", func(r Received) bool {
			return r.Subject == "["+GameName+"] Game over"
		}); err != nil {
			return err
		}
	}
	return nil
}

// clock is the demo's virtual time: it moves only when the driver says.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set moves the clock forward to t (never back).
func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.t) {
		c.t = t
	}
}
