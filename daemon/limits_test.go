package daemon_test

import (
	"strings"
	"testing"
	"time"

	_ "pbemd/adjudicator/diplomacy"
	"pbemd/daemon/daemontest"
	"pbemd/store"
)

var standardPowers = []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"}

func standardTable(t testing.TB, name string) (*daemontest.Table, string, map[string]daemontest.Player) {
	tb := daemontest.New(t)
	gm := tb.Create(name, "standard", "")
	pl := tb.SignUp(name, standardPowers)
	tb.Outbox()
	return tb, gm, pl
}

func orderSets(t testing.TB, tb *daemontest.Table, game string, phase int) []store.OrderSet {
	t.Helper()
	var sets []store.OrderSet
	if err := tb.DB.View(func(tx *store.Tx) (err error) { sets, err = tx.OrderSets(game, phase); return err }); err != nil {
		t.Fatal(err)
	}
	return sets
}

// repeat makes a body of n lines cycling through lines.
func repeat(n int, lines ...string) string {
	out := make([]string, 0, n)
	for len(out) < n {
		out = append(out, lines[len(out)%len(lines)])
	}
	return strings.Join(out, "\n")
}

// TestMailOverTheLineCapIsRefusedShortly: a 75,000-line order mail (under
// the size limit) used to be checked line against line inside the write
// lock for half a minute and answered with 5.5 MB. Now it is refused
// before it is read, with one short reply, and the standing orders stay.
func TestMailOverTheLineCapIsRefusedShortly(t *testing.T) {
	tb, _, pl := standardTable(t, "cap")
	eng := pl["england"]
	tb.As(eng, "F Lon - Nth")
	tb.Outbox()
	huge := repeat(75000, "F Lon - Eng", "A Lvp - Yor", "F Edi - Nwg")
	if len(huge) > 1<<20 {
		t.Fatalf("the mail is %d bytes: over the size limit, not a test of the line cap", len(huge))
	}
	tb.As(eng, huge)
	ms := tb.Outbox()
	m := daemontest.One(t, ms, eng.Addr, "Re:")
	daemontest.Contains(t, m.Text, "more than 500 lines", "nothing in it was carried out")
	if len(m.Text) > 2000 {
		t.Errorf("the refusal is %d bytes", len(m.Text))
	}
	if len(ms) != 1 {
		t.Errorf("%d mails for one refused mail", len(ms))
	}
	if sets := orderSets(t, tb, "cap", 0); len(sets) != 1 {
		t.Errorf("%d order versions stored; want the first one only", len(sets))
	}
	// Quoted text does not count: a reply quoting 2,000 lines is read.
	tb.As(eng, "A Lvp - Yor\n\nOn Sunday the GM wrote:\n"+repeat(2000, "> F Lon - Eng", "> quoted"))
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), eng.Addr, "Re:").Text, "Orders received for England", "F Lon - Nth", "A Lvp - Yor")
}

// TestReplyListsABoundedNumberOfProblems: 450 lines (under the cap) that
// are all wrong get a reply that lists 100 of them and counts the rest.
func TestReplyListsABoundedNumberOfProblems(t *testing.T) {
	tb, _, pl := standardTable(t, "probs")
	eng := pl["england"]
	tb.As(eng, "F Lon - Nth\n"+repeat(449, "A Mos - Stp", "F Kie - Hol", "A Xyz - Abc"))
	m := daemontest.One(t, tb.Outbox(), eng.Addr, "Re:")
	daemontest.Contains(t, m.Text, "F Lon - Nth", "… and 349 more lines with problems, not shown")
	if n := strings.Count(m.Text, "  line "); n != 100 {
		t.Errorf("%d problem lines listed, want 100", n)
	}
	if len(m.Text) > 30000 {
		t.Errorf("reply of %d bytes", len(m.Text))
	}
}

// TestRollbackForgetsTheFoldedOrdersOfThePhaseItDrops: the orders sent in
// a phase that ROLLBACK throws away do not come back when the phase is
// played again (the kept folds of its versions go with them).
func TestRollbackForgetsTheFoldedOrdersOfThePhaseItDrops(t *testing.T) {
	tb, gm, pl := standardTable(t, "rb")
	eng := pl["england"]
	tb.Send(daemontest.GM, gm, "PROCESS")
	tb.Tick()
	tb.Outbox()
	tb.As(eng, "F Edi - Nth\nF Lon - Eng")
	tb.Outbox()
	tb.Send(daemontest.GM, gm, "ROLLBACK")
	tb.Send(daemontest.GM, gm, "PROCESS")
	tb.Tick()
	tb.Outbox()
	if g := tb.Game("rb"); g.PhaseID != "F1901M" {
		t.Fatalf("phase %s after ROLLBACK and PROCESS", g.PhaseID)
	}
	tb.As(eng, "A Lvp - Yor")
	ack := daemontest.One(t, tb.Outbox(), eng.Addr, "Re:")
	daemontest.Contains(t, ack.Text, "Your orders now stand as:\n  A Lvp - Yor\n")
	daemontest.Lacks(t, ack.Text, "F Edi - Nth", "F Lon - Eng")
}

// TestGMCommandFloodIsBounded: 300 PAUSE/RESUME mails through a game's
// GM token are all carried out, but what they fan out is bounded: the
// players get the first announcements (within one sender's budget of
// mails an hour), the GM is told once that the rest are held, and an hour
// later each player gets one mail with the latest state, resumed. In this
// 7-player game they queue 135 mails: the GM's 30 replies (its rate
// limit), 13 announcements of 8 mails (the players and the GM's copy)
// within the budget, and the one notice; an hour later 8 more. Before
// the budget they queued 2,430: every player got 300.
func TestGMCommandFloodIsBounded(t *testing.T) {
	tb, gm, pl := standardTable(t, "flood")
	for i := range 300 {
		cmd := "PAUSE a break"
		if i%2 == 1 {
			cmd = "RESUME"
		}
		tb.Send(daemontest.GM, gm, cmd)
	}
	if g := tb.Game("flood"); g.Paused {
		t.Fatal("the last RESUME was not carried out")
	}
	ms := tb.Outbox()
	t.Logf("300 PAUSE/RESUME mails queued %d mails", len(ms))
	if len(ms) > 150 {
		t.Errorf("300 GM commands queued %d mails", len(ms))
	}
	for _, p := range pl {
		if n := len(to(ms, p.Addr)); n > 15 {
			t.Errorf("%s got %d mails", p.Addr, n)
		}
	}
	var notices []daemontest.Mail
	for _, m := range to(ms, daemontest.GM) {
		if strings.Contains(m.Subject, "Announcements held back") {
			notices = append(notices, m)
		}
	}
	if len(notices) != 1 {
		t.Fatalf("%d notices to the GM that announcements are held, want 1", len(notices))
	}
	daemontest.Contains(t, notices[0].Text, "I carried them out", "the players", "SILENT")

	tb.Wait(time.Hour)
	later := tb.Outbox()
	for power, p := range pl {
		m := daemontest.One(t, later, p.Addr, "Game resumed")
		daemontest.Contains(t, m.Text, "The GM has resumed the game.", "deadline")
		daemontest.Lacks(t, m.Text, "paused the game")
		if n := len(to(later, p.Addr)); n != 1 {
			t.Errorf("%s got %d mails an hour later, want the one", power, n)
		}
	}
	// The budget is a fresh one now: the next command is announced at once.
	tb.Send(daemontest.GM, gm, "PAUSE again")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["england"].Addr, "Game paused").Text, "again")
}

// TestHeldAnnouncementsComeInOneMail: past the budget, announcements of
// different kinds are held in the order they were last made, the latest
// of a kind replacing the earlier, and an hour later each player gets
// them in one mail; a later announcement waits behind them.
func TestHeldAnnouncementsComeInOneMail(t *testing.T) {
	tb, gm, pl := standardTable(t, "held")
	for range 13 { // 13 announcements of 8 mails: the budget is spent
		tb.Send(daemontest.GM, gm, "PAUSE first reason")
	}
	tb.Send(daemontest.GM, gm, "PAUSE second reason")
	tb.Send(daemontest.GM, gm, "RESUME")
	tb.Send(daemontest.GM, gm, "EXTEND 24h")
	ms := tb.Outbox()
	if n := len(to(ms, pl["italy"].Addr)); n != 13 {
		t.Errorf("italy got %d announcements at once, want 13", n)
	}
	// A player's announcement, within its own budget, waits behind what
	// is held and does not put it off.
	tb.Wait(30 * time.Minute)
	tb.As(pl["england"], "SET ABSENCE from 2026-12-20 to 2026-12-21")
	if ms := tb.Outbox(); len(to(ms, pl["italy"].Addr)) != 0 {
		t.Errorf("an announcement overtook the held ones: %s", to(ms, pl["italy"].Addr)[0].Subject)
	}
	tb.Wait(30 * time.Minute)
	later := tb.Outbox()
	for power, p := range pl {
		m := daemontest.One(t, later, p.Addr, "News held back: 3 announcements")
		daemontest.Contains(t, m.Text, "== Game resumed", "== New deadline", "== Schedule: an absence", "only the latest is told")
		daemontest.Lacks(t, m.Text, "second reason", "first reason")
		if strings.Index(m.Text, "Game resumed") > strings.Index(m.Text, "New deadline") {
			t.Errorf("%s: the held announcements are out of order:\n%s", power, m.Text)
		}
	}
	daemontest.Contains(t, daemontest.One(t, later, daemontest.GM, "News held back").Text, "(GM copy")
}
