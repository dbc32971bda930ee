package empire_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"pbemd/adjudicator/empire"
	"pbemd/daemon"
	"pbemd/mailer"
	"pbemd/store"
)

// table is a game master with a virtual clock and an outbox the test reads.
type table struct {
	t   *testing.T
	d   *daemon.Daemon
	db  *store.DB
	mu  sync.Mutex
	now time.Time
	seq int
}

type mail struct{ to, subject, text, token string }

func newTable(t *testing.T) *table {
	db, err := store.Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tb := &table{t: t, db: db, now: time.Date(2026, 3, 1, 21, 0, 0, 0, time.UTC)}
	tb.d, err = daemon.New(db, daemon.Options{Address: "gm@example.test", GM: []string{"gm-boss@example.test"},
		GMPassword: "pw", PasswordCost: 4, Now: tb.clock})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func (tb *table) clock() time.Time { tb.mu.Lock(); defer tb.mu.Unlock(); return tb.now }

func (tb *table) wait(d time.Duration) {
	tb.mu.Lock()
	tb.now = tb.now.Add(d)
	tb.mu.Unlock()
	if err := tb.d.Tick(context.Background()); err != nil {
		tb.t.Fatal(err)
	}
}

func (tb *table) send(from, token, text string) {
	tb.t.Helper()
	tb.seq++
	in := &daemon.Incoming{MsgID: fmt.Sprintf("m%d@test", tb.seq), From: from, Token: token, Subject: "orders", Text: text, Date: tb.clock()}
	if err := tb.d.HandleMail(context.Background(), in); err != nil {
		tb.t.Fatal(err)
	}
}

// outbox takes the queued mails.
func (tb *table) outbox() []mail {
	tb.t.Helper()
	var out []mail
	err := tb.db.Update(func(tx *store.Tx) error {
		ms, err := tx.DueMail(tb.clock().Add(1000*time.Hour), 1<<20)
		if err != nil {
			return err
		}
		for _, m := range ms {
			pm, err := mailer.ParseMail(m.Raw, "gm@example.test")
			if err != nil {
				return err
			}
			x := mail{to: strings.Join(m.To, ","), subject: pm.Subject, text: pm.Text}
			if len(pm.ReplyTo) > 0 {
				addr := pm.ReplyTo[0].Address
				if i, j := strings.Index(addr, "+"), strings.Index(addr, "@"); i >= 0 && j > i {
					x.token = addr[i+1 : j]
				}
			}
			out = append(out, x)
			if err := tx.MailSent(m.ID, tb.clock()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.t.Fatal(err)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].to < out[j].to })
	return out
}

// one returns the single mail to addr whose subject contains sub.
func (tb *table) one(ms []mail, addr, sub string) mail {
	tb.t.Helper()
	var got []mail
	for _, m := range ms {
		if m.to == addr && strings.Contains(m.subject, sub) {
			got = append(got, m)
		}
	}
	if len(got) != 1 {
		var all []string
		for _, m := range ms {
			all = append(all, m.to+": "+m.subject)
		}
		tb.t.Fatalf("want one mail to %s about %q, got %d:\n%s", addr, sub, len(got), strings.Join(all, "\n"))
	}
	return got[0]
}

func contains(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("mail lacks %q:\n%s", w, text)
		}
	}
}

func lacks(t *testing.T, text string, nots ...string) {
	t.Helper()
	for _, w := range nots {
		if strings.Contains(text, w) {
			t.Errorf("mail shows %q:\n%s", w, text)
		}
	}
}

// TestPlayByMail plays the first phases of a two-player game through the
// real daemon: sign-up, secret bids, production, a tactical turn, misorders,
// HELP and RULES.
func TestPlayByMail(t *testing.T) {
	tb := newTable(t)
	tb.send("gm-boss@example.test", "", "SIGNON GM - pw\nCREATE emp1 empire2")
	tb.one(tb.outbox(), "gm-boss@example.test", "")
	tb.send("alice@example.test", "", "JOIN emp1 prefer red")
	tb.send("bob@example.test", "", "JOIN emp1 prefer blue")
	ms := tb.outbox()
	red := tb.one(ms, "alice@example.test", "You are Red")
	blue := tb.one(ms, "bob@example.test", "You are Blue")
	start := tb.one(ms, "alice@example.test", "has started")
	contains(t, start.text, "Round 1 strategic phase: bids", "Red: FAC1 D3", "Blue: FAC1 M9", " A   B   C")

	// Secret bids.
	tb.send("alice@example.test", red.token, "Hi,\nBID 2\nthanks")
	ack := tb.one(tb.outbox(), "alice@example.test", "Re:")
	contains(t, ack.text, "BID 2", "Your bid: 2 strategic turns.")
	tb.send("bob@example.test", blue.token, "BID 4")
	tb.outbox()
	tb.wait(25 * time.Hour)
	ms = tb.outbox()
	r := tb.one(ms, "alice@example.test", "results")
	b := tb.one(ms, "bob@example.test", "results")
	gm := tb.one(ms, "gm-boss@example.test", "results")
	for _, m := range []mail{r, b, gm} {
		contains(t, m.text, "Strategic turns of production: 2. The ceasefire was broken by Red.")
	}
	contains(t, r.text, "Your bid was 2.", "to spend now: 4")
	lacks(t, r.text, "bid was 4")
	contains(t, b.text, "Your bid was 4.")
	lacks(t, b.text, "bid was 2")
	lacks(t, gm.text, "bid was")

	// Production: two infantry divisions at home; a misorder is reported.
	tb.send("alice@example.test", red.token, "BUY 2 RID D3\nBUY AGHQ D3\nBUY RAD D3")
	ack = tb.one(tb.outbox(), "alice@example.test", "Re:")
	contains(t, ack.text, "BUY 2 RID D3", "BUY AGHQ D3", "1 RAD cost 8 points; the territory of D3 has 4 left", "this order is not kept")
	tb.wait(25 * time.Hour)
	ms = tb.outbox()
	r = tb.one(ms, "alice@example.test", "results")
	contains(t, r.text, "Red built in D3: RID7, RID8, AGHQ9", "Round 1 tactical turn 1 — your position (Red)", "RID7 (Regular Infantry Division) in D3")
	lacks(t, tb.one(ms, "bob@example.test", "results").text, "your position (Red)")

	// A tactical turn.
	tb.send("alice@example.test", red.token, "RID7 D3-E3\nRID8 Z9\nRAD5 C3-B3")
	ack = tb.one(tb.outbox(), "alice@example.test", "Re:")
	contains(t, ack.text, "RID7 D3-E3", "RAD5 C3-B3", "Z9 is not on the board", "RID2 has no order: it keeps its position")
	tb.send("bob@example.test", blue.token, "CEASEFIRE")
	tb.outbox()
	tb.wait(49 * time.Hour)
	ms = tb.outbox()
	r = tb.one(ms, "alice@example.test", "results")
	contains(t, r.text, "Red moves: RAD5 C3 → C3-B3; RID7 D3 → D3-E3", "No ceasefire (Red fights on, Blue ceasefire)", "Round 1 tactical turn 2")

	// HELP and RULES come from the engine.
	tb.send("alice@example.test", red.token, "HELP")
	contains(t, tb.one(tb.outbox(), "alice@example.test", "Re:").text, "RAD2 C4-D4", "BID 3")
	tb.send("alice@example.test", red.token, "RULES")
	contains(t, tb.one(tb.outbox(), "alice@example.test", "Re:").text, "Empire Boardgame by mail", "House choice")
}

// TestWholeGameByMail plays a two-player game through the daemon to its
// end: two scripted players order from the state the daemon keeps (with
// the engine's random player), now and then one stays silent, and the GM
// once sets a power's orders. Every private part goes to its own player
// only.
func TestWholeGameByMail(t *testing.T) {
	tb := newTable(t)
	tb.send("gm-boss@example.test", "", "SIGNON GM - pw\nCREATE war empire2")
	gmToken := tb.one(tb.outbox(), "gm-boss@example.test", "").token
	tb.send("alice@example.test", "", "JOIN war prefer red")
	tb.send("bob@example.test", "", "JOIN war prefer blue")
	ms := tb.outbox()
	players := map[string]mail{
		"red":  tb.one(ms, "alice@example.test", "You are Red"),
		"blue": tb.one(ms, "bob@example.test", "You are Blue"),
	}
	e, _ := empire.NewEngine("empire2")
	r := rand.New(rand.NewPCG(5, 6))
	phases, battles := 0, 0
	for ; phases < 400; phases++ {
		var g *store.Game
		var state []byte
		if err := tb.db.View(func(tx *store.Tx) (err error) {
			if g, err = tx.Game("war"); err != nil {
				return err
			}
			state, err = tx.State("war")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if g.Status == store.Finished {
			break
		}
		for _, p := range g.Waiting {
			if r.IntN(10) == 0 {
				continue // silent this phase
			}
			lines, err := e.RandomOrders(state, p, r)
			if err != nil {
				t.Fatal(err)
			}
			if len(lines) == 0 {
				continue
			}
			if phases == 3 && p == "blue" {
				tb.send("gm-boss@example.test", gmToken, "SET ORDERS blue\n"+strings.Join(lines, "\n")+"\nENDORDERS")
				contains(t, tb.one(tb.outbox(), "gm-boss@example.test", "Re:").text, "set by the GM")
				continue
			}
			tb.send(players[p].to, players[p].token, strings.Join(lines, "\n"))
			ack := tb.one(tb.outbox(), players[p].to, "Re:")
			if strings.Contains(ack.text, "not kept") {
				t.Fatalf("%s %s: the random player's orders were refused:\n%s", g.PhaseID, p, ack.text)
			}
		}
		tb.wait(49 * time.Hour)
		ms := tb.outbox()
		for _, m := range ms {
			if !strings.Contains(m.subject, "results") {
				continue
			}
			battles += strings.Count(m.text, "Battle ")
			for _, p := range []string{"Red", "Blue"} {
				own := strings.Contains(m.to, map[string]string{"Red": "alice", "Blue": "bob"}[p])
				if strings.Contains(m.text, "your position ("+p+")") && !own {
					t.Fatalf("%s got %s's private view:\n%s", m.to, p, m.text)
				}
			}
			if strings.Contains(m.text, "Your bid was") && strings.Contains(m.to, "gm-boss") {
				t.Fatalf("the GM copy shows a bid:\n%s", m.text)
			}
		}
	}
	var g *store.Game
	tb.db.View(func(tx *store.Tx) (err error) { g, err = tx.Game("war"); return err })
	// The game's seed is drawn by the daemon, so the course of the game
	// differs from run to run: only its end is certain (the round limit).
	if g.Status != store.Finished || len(g.Winners) == 0 && g.EndedAs != "draw" {
		t.Fatalf("after %d phases the game is %s (%s), winners %v", phases, g.Status, g.EndedAs, g.Winners)
	}
	t.Logf("%d phases, %d battle reports, %s: %v", phases, battles, g.EndedAs, g.Winners)
}
