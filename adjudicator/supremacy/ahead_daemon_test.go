package supremacy_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"pbemd/daemon"
	"pbemd/daemon/daemontest"
	"pbemd/store"
)

// aheadGame starts a three-player game of the shipped scenario and plays
// its set-up: every force in one home area.
func aheadGame(t *testing.T, name, options string) (*daemontest.Table, map[string]daemontest.Player) {
	t.Helper()
	tb := daemontest.New(t)
	tb.Create(name, "supremacy-3", options)
	ps := tb.SignUp(name, []string{"usa", "russia", "china"})
	tb.As(ps["usa"], "PLACE 9 ARMIES IN tex")
	tb.As(ps["russia"], "PLACE 9 ARMIES IN sib")
	tb.As(ps["china"], "PLACE 9 ARMIES IN man")
	tb.Wait(time.Minute)
	tb.Outbox()
	if g := tb.Game(name); g.PhaseID != "T01-1" {
		t.Fatalf("after set-up: %s", g.PhaseID)
	}
	return tb, ps
}

// turnMail is each player's whole turn in one mail: the salaries, then a
// section for each later phase, in the three spellings of a section line.
var turnMail = map[string]string{
	"usa":    "OPEN ALL\nPHASE trade\nBUY 1 GRAIN\nIF OIL PRICE BELOW 100: BUY 3 OIL\nPHASE attack:\nPASS\nPHASE move\nIF I CONTROL usc: MOVE 3 tex - usc\nPHASE build\nRESEARCH OIL MAX 1",
	"russia": "OPEN ALL\nIn the trade phase:\nBUY 1 GRAIN\nIn the attack phase:\nPASS\nIn the move phase:\nMOVE 3 sib - vol\nIn the build phase:\nRESEARCH GRAIN MAX 1",
	"china":  "OPEN ALL\nTrade phase:\nBUY 1 GRAIN\nAttack phase:\nPASS\nMove phase:\nMOVE 3 man - bei\nBuild phase:\nRESEARCH MINERALS MAX 1",
}

// Issue 15 item 16: "A Supremacy turn is five phases that each wait for
// every player … Let a player send orders for several phases of a turn in
// one mail (later phases' orders held until their phase opens, with
// conditions where the seed allows), so a turn can be one or two mail
// rounds." Every player sends one mail a turn with every phase's orders,
// and the turn runs through in that one mail round: each later phase opens
// with the held orders as the players' orders, each player is told so,
// and the phase ends at once because every player has orders. A held
// order's condition is read when it is carried out.
func TestOneMailATurn(t *testing.T) {
	tb, ps := aheadGame(t, "ah1", "seed=6 turns=2")
	for turn := 1; turn <= 2; turn++ {
		n := string(rune('0' + turn))
		for _, p := range []string{"usa", "russia", "china"} {
			tb.As(ps[p], turnMail[p])
		}
		ms := tb.Outbox()
		ack := daemontest.One(t, ms, ps["usa"].Addr, "Re:").Text
		daemontest.Contains(t, ack, "Orders received for United States, Turn "+n+" Salaries", "Your orders now stand as:\n  OPEN ALL\n",
			"Held for Turn "+n+" Trade until it opens, then read against the position as if you mailed them then (a later mail with a section for trade replaces them):\n  BUY 1 GRAIN\n  IF OIL PRICE BELOW 100: BUY 3 OIL\n",
			"Held for Turn "+n+" Attack until it opens", "  PASS\n",
			"Held for Turn "+n+" Move until it opens", "  IF CONTROL usc: MOVE 3 tex - usc\n",
			"Held for Turn "+n+" Build until it opens", "  RESEARCH OIL MAX 1")
		daemontest.Contains(t, daemontest.One(t, ms, ps["russia"].Addr, "Re:").Text, "Held for Turn "+n+" Move until it opens", "  MOVE 3 sib - vol\n")
		daemontest.Contains(t, daemontest.One(t, ms, ps["china"].Addr, "Re:").Text, "Held for Turn "+n+" Build until it opens", "  RESEARCH MINERALS MAX 1")

		tb.Wait(time.Minute) // no other mail from any player
		ms = tb.Outbox()
		g := tb.Game("ah1")
		if turn == 1 && g.PhaseID != "T02-1" {
			t.Fatalf("turn 1 did not run through: %s", g.PhaseTitle)
		}
		for _, ph := range []string{"Trade", "Attack", "Move", "Build"} {
			title := "Turn " + n + " " + ph
			for _, p := range []string{"usa", "russia", "china"} {
				daemontest.Contains(t, daemontest.One(t, ms, ps[p].Addr, title+" — your orders sent ahead").Text,
					title+" has opened. The orders you sent ahead for it", "Accepted: your orders for "+title+" now stand as:\n")
				daemontest.One(t, ms, ps[p].Addr, title+" — results")
			}
		}
		trade := daemontest.One(t, ms, ps["usa"].Addr, "Turn "+n+" Trade — results").Text
		daemontest.Contains(t, trade, "United States buys 1 grain", "Not carried out (its condition does not hold): IF OIL PRICE BELOW 100: BUY 3 OIL")
		move := daemontest.One(t, ms, ps["usa"].Addr, "Turn "+n+" Move — results").Text
		daemontest.Contains(t, move, "United States moves 3 armies Texas → Central United States", "Russian Federation moves 3 armies Siberia → ", "China moves 3 armies Manchuria → ")
	}
	if g := tb.Game("ah1"); g.Status != store.Finished {
		t.Fatalf("game %s in %s", g.Status, g.PhaseTitle)
	}
}

// A held order is read against the position when its phase opens: one
// that the earlier phases made impossible is reported to its player then
// (here the United States disband the armies in Texas at salaries, and
// its move from Texas, sent ahead, finds none there), and the rest stand.
func TestHeldOrderReportedWhenItsPhaseOpens(t *testing.T) {
	tb, ps := aheadGame(t, "ah2", "seed=6 turns=1")
	tb.As(ps["usa"], "OPEN ALL\nDISBAND 9 ARMIES IN tex\nPHASE move\nMOVE 3 tex - usc\nRAIL 2 usc - use")
	tb.As(ps["russia"], "OPEN ALL")
	tb.As(ps["china"], "OPEN ALL")
	tb.Outbox()
	tb.Wait(time.Minute) // salaries
	for _, ph := range []string{"T01-2", "T01-3"} {
		if g := tb.Game("ah2"); g.PhaseID != ph {
			t.Fatalf("in %s, not %s", g.PhaseID, ph)
		}
		for _, p := range []string{"usa", "russia", "china"} {
			tb.As(ps[p], map[string]string{"T01-2": "BUY 1 GRAIN", "T01-3": "PASS"}[ph])
		}
		tb.Wait(time.Minute)
	}
	ms := tb.Outbox()
	if g := tb.Game("ah2"); g.PhaseID != "T01-4" || strings.Join(g.Waiting, ",") != "usa,russia,china" {
		t.Fatalf("move phase %s waiting %v", g.PhaseID, g.Waiting)
	}
	got := daemontest.One(t, ms, ps["usa"].Addr, "Turn 1 Move — your orders sent ahead").Text
	daemontest.Contains(t, got, "Turn 1 Move has opened.", "Accepted: your orders for Turn 1 Move now stand as:\n  MOVE 3 tex - usc\n  RAIL 2 usc - use\n",
		"Please look again at these", "MOVE 3 tex - usc: as things stand: you have 0 armies in Texas",
		"Turn 1 Move ends as soon as Russian Federation and China have sent orders")
	for _, m := range mailsTo(ms, ps["russia"].Addr) {
		if strings.Contains(m.Subject, "sent ahead") {
			t.Errorf("Russia, who sent nothing ahead, got %q", m.Subject)
		}
	}
}

// Orders sent ahead are kept in the store: across a restart of the
// daemon between phases they are still there, and applied when their
// phase opens. A later mail replaces what is held for a phase; a section
// line with no orders under it withdraws it.
func TestHeldOrdersSurviveARestart(t *testing.T) {
	tb, ps := aheadGame(t, "ah3", "seed=6 turns=1")
	tb.As(ps["usa"], "OPEN ALL\nPHASE trade\nBUY 1 GRAIN\nPHASE move\nMOVE 3 tex - usc\nPHASE build\nRESEARCH OIL MAX 1")
	tb.Outbox()
	tb.As(ps["usa"], "PHASE move\nMOVE 2 tex - use\nPHASE build")
	ack := daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "Re:").Text
	daemontest.Contains(t, ack, "No orders for Turn 1 Salaries were stored from this mail; your standing orders for it are unchanged.",
		"Held for Turn 1 Move until it opens", "  MOVE 2 tex - use\n", "Nothing is held for Turn 1 Build any more: the section for it in your mail has no orders.")
	daemontest.Lacks(t, ack, "MOVE 3 tex - usc")
	tb.As(ps["russia"], "OPEN ALL")
	tb.Restart() // between the mails and the phase they are for
	tb.As(ps["usa"], "STATUS")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "Re:").Text,
		"Sent ahead, held until their phase opens:\n  Turn 1 Trade: BUY 1 GRAIN\n  Turn 1 Move: MOVE 2 tex - use\n")
	tb.As(ps["china"], "OPEN ALL")
	tb.Wait(time.Minute) // salaries: the trade phase opens
	ms := tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, ps["usa"].Addr, "Turn 1 Trade — your orders sent ahead").Text, "  BUY 1 GRAIN\n",
		"Turn 1 Trade ends as soon as Russian Federation and China have sent orders")
	for _, ph := range []string{"BUY 1 GRAIN", "PASS"} {
		tb.As(ps["russia"], ph)
		tb.As(ps["china"], ph)
		if ph == "PASS" {
			tb.As(ps["usa"], "PASS")
		}
		tb.Restart()
		tb.Wait(time.Minute)
	}
	ms = tb.Outbox()
	if g := tb.Game("ah3"); g.PhaseID != "T01-4" {
		t.Fatalf("in %s, not the move phase", g.PhaseTitle)
	}
	daemontest.Contains(t, daemontest.One(t, ms, ps["usa"].Addr, "Turn 1 Trade — results").Text, "United States buys 1 grain")
	move := daemontest.One(t, ms, ps["usa"].Addr, "Turn 1 Move — your orders sent ahead").Text
	daemontest.Contains(t, move, "Accepted: your orders for Turn 1 Move now stand as:\n  MOVE 2 tex - use\n")
	daemontest.Lacks(t, move, "MOVE 3 tex - usc")
	for _, p := range []string{"russia", "china"} {
		tb.As(ps[p], "PASS")
	}
	tb.Outbox()
	tb.As(ps["russia"], "MOVE 1 sib - vol")
	tb.As(ps["china"], "MOVE 1 man - bei")
	tb.Wait(time.Minute) // the build phase opens: nothing held for it any more
	ms = tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, ps["usa"].Addr, "Turn 1 Move — results").Text, "United States moves 2 armies Texas → ")
	for _, m := range mailsTo(ms, ps["usa"].Addr) {
		if strings.Contains(m.Subject, "Build — your orders sent ahead") {
			t.Errorf("withdrawn build orders were applied:\n%s", m.Text)
		}
	}
	if g := tb.Game("ah3"); g.PhaseID != "T01-5" {
		t.Fatalf("in %s, not the build phase", g.PhaseTitle)
	}
}

// What cannot be sent ahead is refused in the acknowledgement, line by
// line: an order of another phase than its section's, a section line
// naming no phase (and the orders under it), a phase of the turn that is
// over, a phase played step by step. Section lines inside press, in
// quoted text or below the signature are no section lines.
func TestWhatCannotBeSentAheadIsRefused(t *testing.T) {
	tb, ps := aheadGame(t, "ah4", "seed=6 turns=1")
	tb.As(ps["usa"], "OPEN ALL\nPHASE attack\nBUY 1 OIL\nATTACK mex FROM tex\nPHASE lunch\nMOVE 3 tex - usc\n"+
		"PRESS TO russia\nPHASE build\nBUILD 3 ARMIES IN tex\nENDPRESS\n\n> PHASE move\n> MOVE 1 tex - use\n\n-- \nAnn\nBuild phase:\nRESEARCH OIL")
	ms := tb.Outbox()
	ack := daemontest.One(t, ms, ps["usa"].Addr, "Re:").Text
	daemontest.Contains(t, ack, "Your orders now stand as:\n  OPEN ALL\n",
		"BUY is an order of the Trade phase, not of the Attack phase its section names",
		"Held for Turn 1 Attack until it opens", "  ATTACK mex FROM tex\n",
		"line 5: PHASE lunch", "PHASE names one phase of the turn: salaries, trade, attack, move or build",
		"line 6: MOVE 3 tex - usc", "not stored: the section line above it was refused")
	daemontest.Lacks(t, ack, "Held for Turn 1 Build", "Held for Turn 1 Move", "BUILD 3 ARMIES", "RESEARCH", "Nothing is held")
	daemontest.Contains(t, daemontest.One(t, ms, ps["russia"].Addr, "ress").Text, "PHASE build\nBUILD 3 ARMIES IN tex")

	for _, p := range []string{"usa", "russia", "china"} {
		tb.As(ps[p], "OPEN ALL")
	}
	tb.Wait(time.Minute)
	tb.Outbox()
	tb.As(ps["usa"], "BUY 1 OIL\nPHASE salaries\nCLOSE ALL")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "Re:").Text,
		"the Salaries phase of this turn is over (this is the Trade phase)", "line 3: CLOSE ALL")

	steps, sp := aheadGame(t, "ah5", "seed=6 turns=1 steps=attack")
	steps.As(sp["usa"], "OPEN ALL\nPHASE attack\nATTACK mex FROM tex\nPHASE move\nMOVE 3 tex - usc")
	ack = daemontest.One(t, steps.Outbox(), sp["usa"].Addr, "Re:").Text
	daemontest.Contains(t, ack, "the Attack phase is played step by step in this game: send its orders at your step",
		"Held for Turn 1 Move until it opens", "  MOVE 3 tex - usc\n")
	daemontest.Lacks(t, ack, "Held for Turn 1 Attack")
}

// HELP says what may be sent ahead now, as the engine declares it, and
// RULES says how; during the set-up (a turn of its own) nothing is.
func TestHelpAndRulesTellOfOrdersAhead(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("ah6", "supremacy-3", "seed=6 turns=1")
	ps := tb.SignUp("ah6", []string{"usa", "russia", "china"})
	tb.Outbox()
	ask := func(text string) string {
		t.Helper()
		tb.As(ps["usa"], text)
		return daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "Re:").Text
	}
	daemontest.Lacks(t, ask("HELP"), "The same mail may carry")
	daemontest.Contains(t, ask("RULES"), "ORDERS AHEAD. One mail may also carry the orders of the later phases of the\nturn")
	daemontest.Contains(t, ask("PLACE 9 ARMIES IN tex\nPHASE trade\nBUY 1 OIL"),
		"no orders are sent ahead now: set-up is a turn of its own", "line 3: BUY 1 OIL", "not stored: the section line above it was refused")
	tb.As(ps["russia"], "PLACE 9 ARMIES IN sib")
	tb.As(ps["china"], "PLACE 9 ARMIES IN man")
	tb.Wait(time.Minute)
	tb.Outbox()
	daemontest.Contains(t, ask("HELP"), "The same mail may carry orders for Turn 1 Trade, Turn 1 Attack, Turn 1 Move and Turn 1 Build, each group under a line naming its phase (PHASE trade).\nThey are held until that phase opens, then read as if you mailed them then (RULES: ORDERS AHEAD).")
}

// Orders sent ahead are held exactly once: a mail whose transaction could
// not be written holds nothing (it is handled again when delivered
// again), a second delivery of the same mail changes nothing, and a phase
// whose processing could not be written applies nothing: the next tick
// applies the held orders once.
func TestOrdersAheadHeldAndAppliedOnce(t *testing.T) {
	tb, ps := aheadGame(t, "ah7", "seed=6 turns=1")
	full := errors.New("disk full")
	held := func() []store.AheadOrders {
		t.Helper()
		var hs []store.AheadOrders
		if err := tb.DB.View(func(tx *store.Tx) (err error) { hs, err = tx.Ahead("ah7"); return err }); err != nil {
			t.Fatal(err)
		}
		return hs
	}
	in := func() *daemon.Incoming {
		return &daemon.Incoming{MsgID: "ahead-1@test", From: ps["usa"].Addr, Token: ps["usa"].Token, Subject: "orders",
			Text: "OPEN ALL\nPHASE trade\nBUY 1 GRAIN", Date: tb.Now()}
	}
	tb.DB.SetWriteFault(func(store.Commit) error { return full })
	if err := tb.D.HandleMail(context.Background(), in()); !errors.Is(err, store.ErrWrite) {
		t.Fatalf("mail on a full disk: %v", err)
	}
	tb.DB.SetWriteFault(nil)
	if hs := held(); len(hs) != 0 {
		t.Fatalf("held from a mail not written: %+v", hs)
	}
	for k := 0; k < 2; k++ {
		if err := tb.D.HandleMail(context.Background(), in()); err != nil {
			t.Fatal(err)
		}
	}
	if ms := mailsTo(tb.Outbox(), ps["usa"].Addr); len(ms) != 1 || !strings.Contains(ms[0].Text, "Held for Turn 1 Trade") {
		t.Fatalf("answers to the mail delivered twice: %d", len(ms))
	}
	if hs := held(); len(hs) != 1 || strings.Join(hs[0].Lines, ";") != "BUY 1 GRAIN" {
		t.Fatalf("held %+v", hs)
	}
	tb.As(ps["russia"], "OPEN ALL")
	tb.As(ps["china"], "OPEN ALL")
	tb.Outbox()
	tb.DB.SetWriteFault(func(store.Commit) error { return full })
	if err := tb.D.Tick(context.Background()); !errors.Is(err, store.ErrWrite) {
		t.Fatalf("tick on a full disk: %v", err)
	}
	tb.DB.SetWriteFault(nil)
	if g := tb.Game("ah7"); g.PhaseID != "T01-1" {
		t.Fatalf("processed on a full disk: %s", g.PhaseID)
	}
	tb.Tick()
	ms := tb.Outbox()
	daemontest.One(t, ms, ps["usa"].Addr, "Turn 1 Trade — your orders sent ahead")
	g := tb.Game("ah7")
	var sets []store.OrderSet
	if err := tb.DB.View(func(tx *store.Tx) (err error) { sets, err = tx.OrderSets("ah7", g.Phase); return err }); err != nil {
		t.Fatal(err)
	}
	if g.PhaseID != "T01-2" || len(sets) != 1 || sets[0].Power != "usa" || strings.Join(sets[0].Lines, ";") != "BUY 1 GRAIN" {
		t.Fatalf("%s: order sets %+v", g.PhaseID, sets)
	}
}

// Orders sent ahead wait for the players to see the phase open: with the
// GM's preview on they are applied at PUBLISH, not when the phase is
// processed. A ROLLBACK of the phase before theirs opens their phase
// again, and they are applied again.
func TestOrdersAheadAtPublishAndRollback(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("ah8", "supremacy-3", "seed=6 turns=1")
	ps := tb.SignUp("ah8", []string{"usa", "russia", "china"})
	var ms []daemontest.Mail
	asGM := func(text string) string { // ms: every mail it caused
		t.Helper()
		tb.Send(daemontest.GM, gm, text)
		ms = tb.Outbox()
		return daemontest.One(t, ms, daemontest.GM, "Re:").Text
	}
	tb.As(ps["usa"], "PLACE 9 ARMIES IN tex\nPHASE attack\nPASS") // refused: set-up is a turn of its own
	tb.As(ps["russia"], "PLACE 9 ARMIES IN sib")
	tb.As(ps["china"], "PLACE 9 ARMIES IN man")
	tb.Wait(time.Minute)
	tb.Outbox()
	daemontest.Contains(t, asGM("PREVIEW ON"), "Preview is on")
	tb.As(ps["usa"], "OPEN ALL\nPHASE trade\nBUY 1 GRAIN\nPHASE attack\nPASS")
	tb.As(ps["russia"], "OPEN ALL")
	tb.As(ps["china"], "OPEN ALL")
	tb.Outbox()
	tb.Wait(time.Minute) // salaries processed, the results with the GM
	for _, m := range mailsTo(tb.Outbox(), ps["usa"].Addr) {
		t.Errorf("before PUBLISH the United States got %q", m.Subject)
	}
	daemontest.Contains(t, asGM("PUBLISH\nPREVIEW OFF"), "Results of Turn 1 Salaries published.")
	daemontest.One(t, ms, ps["usa"].Addr, "Turn 1 Salaries — results")
	daemontest.Contains(t, daemontest.One(t, ms, ps["usa"].Addr, "Turn 1 Trade — your orders sent ahead").Text, "  BUY 1 GRAIN\n")

	tb.As(ps["russia"], "BUY 1 OIL")
	tb.As(ps["china"], "BUY 1 OIL")
	tb.Wait(time.Minute) // trade processed: the attack phase opens with the United States' PASS
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "Turn 1 Attack — your orders sent ahead").Text, "now stand as:\n  PASS\n")
	daemontest.Contains(t, asGM("ROLLBACK"), "Turn 1 Trade is reopened")
	daemontest.Contains(t, asGM("PROCESS"), "will be processed now")
	tb.Wait(time.Minute)
	ms = tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, ps["usa"].Addr, "Turn 1 Attack — your orders sent ahead").Text, "now stand as:\n  PASS\n")
	tb.As(ps["usa"], "STATUS")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "Re:").Text, "United States orders received", "Your orders now stand as:\n  PASS\n")
}
