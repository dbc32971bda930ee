// Package daemontest drives a real daemon for tests (the engines' games
// through the game master, the daemon's limits and benchmarks, some of
// package server's): a real store in a temporary folder, a virtual clock,
// mail in through Daemon.HandleMail and mail out read from the durable
// outbox. No mail server runs; package server's end-to-end tests cover
// the transport.
//
// It is for tests only: no package imports it but in its _test.go files
// (cmd/pbemd's TestReadmeLayoutImportsRunOneWay lets no package import
// it).
package daemontest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"pbemd/daemon"
	"pbemd/store"
	"pbemd/store/storetest"
)

// Addresses the table uses.
const (
	Address    = "gm@example.test"      // the daemon
	GM         = "gm-boss@example.test" // the site GM
	GMPassword = "pw"
)

// Table is a game master on a virtual clock.
type Table struct {
	T  testing.TB
	D  *daemon.Daemon
	DB *store.DB

	mu  sync.Mutex
	now time.Time
	seq int
	opt daemon.Options // the daemon's, for Restart
}

// Start is the virtual clock's first reading: a Sunday at 21:00 UTC, as
// the seed's games start.
var Start = time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)

// New opens a store under t.TempDir and a daemon over it; the store is
// checked and closed when the test ends.
func New(t testing.TB) *Table {
	t.Helper()
	return NewWith(t, nil)
}

// NewWith is New with the daemon's options edited by edit (nil: none)
// before the daemon is built: a benchmark lifts the rate limit, a test
// passes a logger.
func NewWith(t testing.TB, edit func(*daemon.Options)) *Table {
	t.Helper()
	db := openStore(t) // restart.go
	tb := &Table{T: t, DB: db, now: Start}
	opt := daemon.Options{Address: Address, GM: []string{GM}, GMPassword: GMPassword, PasswordCost: 4, Now: tb.Now}
	if edit != nil {
		edit(&opt)
	}
	tb.opt = opt
	t.Cleanup(tb.closeStore)
	var err error
	if tb.D, err = daemon.New(db, opt); err != nil {
		t.Fatal(err)
	}
	return tb
}

// Now is the virtual clock.
func (tb *Table) Now() time.Time {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return tb.now
}

// Wait moves the clock on by d and lets the daemon run its deadlines.
func (tb *Table) Wait(d time.Duration) {
	tb.T.Helper()
	tb.mu.Lock()
	tb.now = tb.now.Add(d)
	tb.mu.Unlock()
	tb.Tick()
}

// Advance moves the clock on by d without a deadline check.
func (tb *Table) Advance(d time.Duration) {
	tb.mu.Lock()
	tb.now = tb.now.Add(d)
	tb.mu.Unlock()
}

// Tick runs the daemon's deadline check now.
func (tb *Table) Tick() {
	tb.T.Helper()
	if err := tb.D.Tick(context.Background()); err != nil {
		tb.T.Fatal(err)
	}
}

// TickWithin runs the daemon's deadline check now and fails the test when
// it has not ended within limit: the check is stopped through its context
// (it looks between batches), so a tick that would spin fails the test
// instead of hanging it.
func (tb *Table) TickWithin(limit time.Duration) {
	tb.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	if err := tb.D.Tick(ctx); err != nil {
		tb.T.Fatalf("the tick at %s did not end within %s: %v", tb.Now().Format(time.StampMilli), limit, err)
	}
}

// Send delivers a mail from an address, to the daemon's address with
// token ("" for the plain address); it returns the mail's Message-ID.
func (tb *Table) Send(from, token, text string) string {
	tb.T.Helper()
	tb.mu.Lock()
	tb.seq++
	id := fmt.Sprintf("m%d@test", tb.seq)
	tb.mu.Unlock()
	in := &daemon.Incoming{MsgID: id, From: from, Token: token, Subject: "orders", Text: text, Date: tb.Now()}
	if err := tb.D.HandleMail(context.Background(), in); err != nil {
		tb.T.Fatal(err)
	}
	return id
}

// Mail is one mail the daemon sent.
type Mail = storetest.Mail

// Outbox takes every queued mail out of the outbox (marking it sent),
// sorted by recipient.
func (tb *Table) Outbox() []Mail {
	tb.T.Helper()
	return storetest.Outbox(tb.T, tb.DB, Address)
}

// One returns the single mail to addr whose subject contains subj.
func One(t testing.TB, ms []Mail, addr, subj string) Mail {
	t.Helper()
	var got []Mail
	for _, m := range ms {
		if m.To == addr && strings.Contains(m.Subject, subj) {
			got = append(got, m)
		}
	}
	if len(got) != 1 {
		var all []string
		for _, m := range ms {
			all = append(all, m.To+": "+m.Subject)
		}
		t.Fatalf("want one mail to %s about %q, got %d of:\n%s", addr, subj, len(got), strings.Join(all, "\n"))
	}
	return got[0]
}

// Contains fails the test for each want the text lacks.
func Contains(t testing.TB, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("mail lacks %q:\n%s", w, text)
		}
	}
}

// Lacks fails the test for each not the text shows.
func Lacks(t testing.TB, text string, nots ...string) {
	t.Helper()
	for _, w := range nots {
		if strings.Contains(text, w) {
			t.Errorf("mail shows %q:\n%s", w, text)
		}
	}
}

// Player is a signed-up player: an address and its reply token.
type Player struct{ Addr, Token string }

// Create makes a game as the site GM (by GM password) and returns the
// game's GM token. options are CREATE's key=value words ("" for none).
func (tb *Table) Create(name, variant, options string) string {
	tb.T.Helper()
	tb.Send(GM, "", "SIGNON GM - "+GMPassword+"\nCREATE "+name+" "+variant+" "+options)
	m := One(tb.T, tb.Outbox(), GM, "Re:")
	if !strings.Contains(m.Text, "created") || m.Token == "" {
		tb.T.Fatalf("CREATE %s %s %s:\n%s", name, variant, options, m.Text)
	}
	return m.Token
}

// SignUp lets one player per power JOIN (each asking for that power
// first) and returns them by power once the game has started. Players
// are <power>@example.test.
func (tb *Table) SignUp(game string, powers []string) map[string]Player {
	tb.T.Helper()
	for _, p := range powers {
		tb.Send(p+"@example.test", "", "JOIN "+game+" prefer "+p)
	}
	players := map[string]Player{}
	for _, m := range tb.Outbox() {
		if p, ok := PowerOf(m.Subject); ok {
			players[p] = Player{m.To, m.Token}
		}
	}
	if len(players) != len(powers) {
		tb.T.Fatalf("%d of %d players got their power: %v", len(players), len(powers), players)
	}
	return players
}

// As sends a mail from a player by its reply token.
func (tb *Table) As(p Player, text string) string {
	tb.T.Helper()
	return tb.Send(p.Addr, p.Token, text)
}

// Game reads a game's record.
func (tb *Table) Game(name string) *store.Game {
	tb.T.Helper()
	var g *store.Game
	if err := tb.DB.View(func(tx *store.Tx) (err error) { g, err = tx.Game(name); return err }); err != nil {
		tb.T.Fatal(err)
	}
	return g
}

// PowerOf reads the power id from the subject of a power mail: "[g] You
// are England" gives "england", "[g] You are United States (usa)" "usa".
func PowerOf(subject string) (string, bool) {
	i := strings.Index(subject, "You are ")
	if i < 0 {
		return "", false
	}
	name := subject[i+len("You are "):]
	if j := strings.LastIndex(name, " ("); j >= 0 && strings.HasSuffix(name, ")") {
		return name[j+2 : len(name)-1], true
	}
	return strings.ToLower(name), true
}
