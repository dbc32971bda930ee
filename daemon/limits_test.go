package daemon_test

import (
	"strings"
	"testing"

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
