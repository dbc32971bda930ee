// Package supremacytest plays the shipped Supremacy presets through the
// real daemon, where orders sent ahead (adjudicator.Aheader) and offers
// between players (adjudicator.Offerer) meet the GM's overrides, STATUS
// and the deadline reminders: what players expect from a judge. Each test
// reads the mail every person concerned gets.
//
// It is a package of its own, with only test files, so that the daemon's
// own test binary registers only the variants its golden mails list
// (importing the engine registers its presets).
package supremacytest_test

import (
	"strings"
	"testing"
	"time"

	_ "pbemd/adjudicator/supremacy" // the shipped presets: an Aheader and an Offerer
	"pbemd/daemon/daemontest"
	"pbemd/store"
)

// supremacyTable starts a one-turn game of the shipped three-player
// preset, plays its set-up and returns the table, the GM's token and the
// players; the Salaries phase of turn 1 is open.
func supremacyTable(t *testing.T, name string) (*daemontest.Table, string, map[string]daemontest.Player) {
	t.Helper()
	tb := daemontest.New(t)
	gm := tb.Create(name, "supremacy-3", "seed=6 turns=1")
	ps := tb.SignUp(name, []string{"usa", "russia", "china"})
	tb.As(ps["usa"], "PLACE 9 ARMIES IN tex")
	tb.As(ps["russia"], "PLACE 9 ARMIES IN sib")
	tb.As(ps["china"], "PLACE 9 ARMIES IN man")
	tb.Wait(time.Minute)
	tb.Outbox()
	if g := tb.Game(name); g.PhaseID != "T01-1" {
		t.Fatalf("after set-up: %s", g.PhaseID)
	}
	return tb, gm, ps
}

func heldOrders(t *testing.T, tb *daemontest.Table, game string) map[string]string {
	t.Helper()
	var hs []store.AheadOrders
	if err := tb.DB.View(func(tx *store.Tx) (err error) { hs, err = tx.Ahead(game); return err }); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, h := range hs {
		out[h.Power+" "+h.PhaseID] = strings.Join(h.Lines, "; ")
	}
	return out
}

func orderSets(t *testing.T, tb *daemontest.Table, game string, phase int) []store.OrderSet {
	t.Helper()
	var sets []store.OrderSet
	if err := tb.DB.View(func(tx *store.Tx) (err error) { sets, err = tx.OrderSets(game, phase); return err }); err != nil {
		t.Fatal(err)
	}
	return sets
}

func mailsTo(ms []daemontest.Mail, addr string) []daemontest.Mail {
	var out []daemontest.Mail
	for _, m := range ms {
		if m.To == addr {
			out = append(out, m)
		}
	}
	return out
}

// The GM's SET ORDERS may carry PHASE sections, as a player's mail
// may, and they are held ahead for the power as its diplomats' would be
// (the GM orders for a power whose player is away, a whole turn at once).
// The GM is told what is held for which phase, the power's diplomats are
// told too, a section with no orders withdraws what was held, and when
// the phase opens the held orders become the power's orders, marked as
// the GM's, and the GM hears what became of them. A body with only
// sections leaves the open phase's orders as they were and says so.
func TestGMSetOrdersHoldsPhaseSections(t *testing.T) {
	tb, gm, ps := supremacyTable(t, "gmahead")
	asGM := func(text string) (string, []daemontest.Mail) {
		t.Helper()
		tb.Send(daemontest.GM, gm, text)
		ms := tb.Outbox()
		return daemontest.One(t, ms, daemontest.GM, "Re:").Text, ms
	}

	help, _ := asGM("HELP")
	daemontest.Contains(t, help, "SET ORDERS may carry orders for later phases of the turn too, each group\nunder a PHASE line: they are held for the power as its diplomats' would be.\n")
	reply, ms := asGM("SET ORDERS china\nOPEN ALL\nPHASE trade\nBUY 1 GRAIN\nPHASE move\nMOVE 3 man - bei\nENDORDERS")
	daemontest.Contains(t, reply, "Orders of China for Turn 1 Salaries set by the GM:\n  OPEN ALL\n",
		"Held for China for Turn 1 Trade until it opens, then read against the position as if its diplomats mailed them then (a later mail of theirs with a section for trade replaces them):\n  BUY 1 GRAIN\n",
		"Held for China for Turn 1 Move until it opens", "  MOVE 3 man - bei\n")
	told := daemontest.One(t, ms, ps["china"].Addr, "The GM has set your orders").Text
	daemontest.Contains(t, told, "The GM has set orders for China for Turn 1 Salaries:\n  OPEN ALL\n",
		"The GM has also set orders for China for later phases of the turn, held until each opens and then read against the position as if you mailed them then:\n  Turn 1 Trade:\n    BUY 1 GRAIN\n  Turn 1 Move:\n    MOVE 3 man - bei\n")
	daemontest.Contains(t, daemontest.One(t, ms, ps["usa"].Addr, "GM orders").Text, "The GM has set the orders of China for Turn 1 Salaries, Turn 1 Trade and Turn 1 Move.")
	daemontest.Lacks(t, daemontest.One(t, ms, ps["usa"].Addr, "GM orders").Text, "BUY", "MOVE")
	if got := heldOrders(t, tb, "gmahead"); got["china T01-2"] != "BUY 1 GRAIN" || got["china T01-4"] != "MOVE 3 man - bei" {
		t.Fatalf("held %v", got)
	}

	// Only sections: the open phase's orders are left alone; an empty
	// section withdraws what was held for that phase.
	reply, ms = asGM("SET ORDERS china\nPHASE move\nENDORDERS")
	daemontest.Contains(t, reply, "The orders of China for Turn 1 Salaries are unchanged.",
		"Nothing is held for China for Turn 1 Move any more: the section for it has no orders.")
	daemontest.Contains(t, daemontest.One(t, ms, ps["china"].Addr, "The GM has changed").Text,
		"The GM has withdrawn the orders held for China for Turn 1 Move: nothing is held for it any more.")
	reply, ms = asGM("SET ORDERS russia\nPHASE trade\nBUY 1 OIL\nENDORDERS")
	daemontest.Contains(t, reply, "The orders of Russian Federation for Turn 1 Salaries are unchanged.", "Held for Russian Federation for Turn 1 Trade until it opens", "  BUY 1 OIL\n")
	daemontest.Lacks(t, reply, "refused", "no orders found")
	daemontest.Contains(t, daemontest.One(t, ms, ps["russia"].Addr, "The GM has set your orders").Text,
		"held until each opens", "  Turn 1 Trade:\n    BUY 1 OIL\n")
	if got := heldOrders(t, tb, "gmahead"); got["china T01-4"] != "" || got["russia T01-2"] != "BUY 1 OIL" {
		t.Fatalf("held %v", got)
	}

	// A bad line anywhere refuses the whole body: nothing is held either.
	reply, _ = asGM("SET ORDERS usa\nOPEN ALL\nPHASE trade\nBUY 1 UNOBTAINIUM\nENDORDERS")
	daemontest.Contains(t, reply, "SET ORDERS United States refused, nothing was stored", "BUY 1 UNOBTAINIUM")
	if got := heldOrders(t, tb, "gmahead"); got["usa T01-2"] != "" {
		t.Fatalf("held from a refused body: %v", got)
	}

	tb.As(ps["usa"], "OPEN ALL")
	tb.As(ps["russia"], "OPEN ALL")
	tb.Outbox()
	tb.Wait(time.Minute) // salaries: the trade phase opens with the held orders
	ms = tb.Outbox()
	if g := tb.Game("gmahead"); g.PhaseID != "T01-2" {
		t.Fatalf("after salaries: %s", g.PhaseID)
	}
	daemontest.Contains(t, daemontest.One(t, ms, ps["china"].Addr, "Turn 1 Trade — your orders sent ahead").Text,
		"Turn 1 Trade has opened. The orders the GM set ahead for China (SET ORDERS, Sun 6 Dec 21:01 UTC) have been read against the position now",
		"Accepted: your orders for Turn 1 Trade now stand as:\n  BUY 1 GRAIN\n")
	daemontest.Contains(t, daemontest.One(t, ms, daemontest.GM, "Turn 1 Trade — orders the GM set ahead for China").Text,
		"Accepted: the orders of China for Turn 1 Trade now stand as:\n  BUY 1 GRAIN\n")
	daemontest.One(t, ms, daemontest.GM, "Turn 1 Trade — orders the GM set ahead for Russian Federation")
	g := tb.Game("gmahead")
	for _, s := range orderSets(t, tb, "gmahead", g.Phase) {
		if !s.GM || s.Address != "" {
			t.Errorf("orders the GM set ahead stored as %+v", s)
		}
	}
	tb.As(ps["china"], "STATUS")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), ps["china"].Addr, "Re:").Text,
		"The orders of China now stand as (who sent each):\n  BUY 1 GRAIN  the GM (SET ORDERS)")
}

// STATUS, the command that shows a player what the daemon has for
// them, lists the orders held for later phases of the turn, each under
// its phase, beside the open phase's orders; a mail with no section
// leaves them held, and its acknowledgement says what is still held.
func TestStatusListsHeldOrders(t *testing.T) {
	tb, _, ps := supremacyTable(t, "stahead")
	tb.As(ps["usa"], "OPEN ALL\nPHASE trade\nBUY 1 GRAIN\nIF OIL PRICE BELOW 100: BUY 3 OIL\nPHASE move\nMOVE 3 tex - usc")
	tb.Outbox()
	tb.As(ps["usa"], "STATUS")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "Re:").Text,
		"Your orders now stand as:\n  OPEN ALL\n",
		"Sent ahead, held until their phase opens:\n  Turn 1 Trade: BUY 1 GRAIN; IF OIL PRICE BELOW 100: BUY 3 OIL\n  Turn 1 Move: MOVE 3 tex - usc\n")
	tb.As(ps["russia"], "STATUS")
	daemontest.Lacks(t, daemontest.One(t, tb.Outbox(), ps["russia"].Addr, "Re:").Text, "Sent ahead", "BUY 1 GRAIN")

	tb.As(ps["usa"], "CLOSE ALL")
	ack := daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "Re:").Text
	daemontest.Contains(t, ack, "Your orders now stand as:\n  CLOSE ALL\n",
		"Still held for later phases (this mail has no section for them):\n  Turn 1 Trade: BUY 1 GRAIN; IF OIL PRICE BELOW 100: BUY 3 OIL\n  Turn 1 Move: MOVE 3 tex - usc\n")
}

// An offer in orders sent ahead reaches its receiver when its
// phase opens and the held orders are read, exactly as if the offerer had
// mailed it then: the receiver is mailed the terms and the orders that
// answer it, the offerer's notice says whom it told, the phase waits for
// the answer, and the answer is told to the offerer.
func TestOfferSentAheadToldWhenItsPhaseOpens(t *testing.T) {
	tb, _, ps := supremacyTable(t, "offahead")
	tb.As(ps["usa"], "OPEN ALL\nPHASE trade\nBUY 1 GRAIN\nOFFER TO russia: $100 FOR 1 OIL")
	tb.As(ps["russia"], "OPEN ALL")
	tb.As(ps["china"], "OPEN ALL")
	ms := tb.Outbox()
	if n := len(mailsTo(ms, ps["russia"].Addr)); n != 1 { // its acknowledgement only
		t.Fatalf("Russia got %d mails before the trade phase opened", n)
	}
	tb.Wait(time.Minute) // salaries: the trade phase opens
	ms = tb.Outbox()
	if g := tb.Game("offahead"); g.PhaseID != "T01-2" {
		t.Fatalf("after salaries: %s", g.PhaseID)
	}
	offer := daemontest.One(t, ms, ps["russia"].Addr, "Offer from United States").Text
	daemontest.Contains(t, offer, "United States makes you an offer (offer 1) in Turn 1 Trade:\n  $100 for 1 oil\n",
		"To accept it, send this order before the deadline", "  ACCEPT usa 1: $100 FOR 1 OIL\n", "To refuse it:\n  REFUSE usa 1\n",
		"Your orders for this phase now stand as:\n  (none)\n")
	daemontest.Contains(t, daemontest.One(t, ms, ps["usa"].Addr, "Turn 1 Trade — your orders sent ahead").Text,
		"  OFFER 1 TO russia: $100 FOR 1 OIL\n", "I have told Russian Federation of your offer 1 now.")
	for _, m := range mailsTo(ms, ps["china"].Addr) {
		if strings.Contains(m.Text, "$100") {
			t.Errorf("China hears of the offer: %s", m.Subject)
		}
	}

	tb.As(ps["russia"], "BUY 1 OIL")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), ps["russia"].Addr, "Re:").Text, "Turn 1 Trade ends as soon as China has sent orders")
	tb.As(ps["china"], "BUY 1 OIL")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), ps["china"].Addr, "Re:").Text,
		"Every order Turn 1 Trade waits for is in, but an offer between players is still unanswered")
	tb.Wait(time.Minute)
	if g := tb.Game("offahead"); g.PhaseID != "T01-2" {
		t.Fatalf("the phase ended with the offer sent ahead unanswered: %s", g.PhaseID)
	}
	tb.As(ps["russia"], "BUY 1 OIL\nACCEPT usa 1: $100 FOR 1 OIL")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "Russian Federation accepts your offer 1").Text,
		"Russian Federation has accepted your offer 1 in Turn 1 Trade:\n  $100 for 1 oil\n")
	tb.Wait(time.Minute)
	ms = tb.Outbox()
	if g := tb.Game("offahead"); g.PhaseID != "T01-3" {
		t.Fatalf("after the answer: %s", g.PhaseID)
	}
	daemontest.Contains(t, daemontest.One(t, ms, ps["usa"].Addr, "Turn 1 Trade — results").Text, "Offer 1 to Russian Federation carried out")
}

// The deadline reminder tells a power that has not answered an
// offer which offer it is and how to answer, with the orders that stand
// (an answer is one of the power's orders, and a new mail replaces them
// all): also a power whose orders are in and that gets no reminder for
// them. Once it has answered it is not reminded again; the offerer and
// the third power hear nothing of the offer.
func TestReminderNamesUnansweredOffer(t *testing.T) {
	tb, _, ps := supremacyTable(t, "offremind")
	for _, p := range []string{"usa", "russia", "china"} {
		tb.As(ps[p], "OPEN ALL")
	}
	tb.Wait(time.Minute)
	tb.Outbox()
	g := tb.Game("offremind")
	if g.PhaseID != "T01-2" {
		t.Fatalf("after salaries: %s", g.PhaseID)
	}
	tb.As(ps["russia"], "BUY 1 OIL")
	tb.As(ps["china"], "BUY 1 GRAIN\nOFFER TO russia: $100 FOR 1 OIL")
	tb.Outbox()

	tb.Wait(g.Deadline.Sub(tb.Now()) - 23*time.Hour) // the 24-hour reminder
	ms := tb.Outbox()
	remind := daemontest.One(t, ms, ps["russia"].Addr, "Reminder: offer 1 of China").Text
	daemontest.Contains(t, remind, "Reminder: you have not answered offer 1 of China in Turn 1 Trade of offremind:\n  $100 for 1 oil\n",
		"Deadline: Tue 8 Dec 2026 21:00 UTC (in 23 hours).\n", "at the deadline an unanswered offer lapses.",
		"To accept it, send this order:\n  ACCEPT china 1: $100 FOR 1 OIL\nTo refuse it:\n  REFUSE china 1\n",
		"Your answer is one of your orders for Turn 1 Trade (a new mail of orders replaces all your standing orders for this phase)",
		"Your orders for this phase now stand as:\n  BUY 1 OIL\n")
	for _, m := range mailsTo(ms, ps["russia"].Addr) {
		if strings.Contains(m.Subject, "orders due") {
			t.Errorf("Russia, whose orders are in, is reminded of them: %s", m.Subject)
		}
	}
	daemontest.One(t, ms, ps["usa"].Addr, "Reminder: Turn 1 Trade orders due")
	for _, p := range []string{"usa", "china"} {
		for _, m := range mailsTo(ms, ps[p].Addr) {
			if strings.Contains(m.Subject, "offer") || strings.Contains(m.Text, "$100") {
				t.Errorf("%s is reminded of the offer: %s", p, m.Subject)
			}
		}
	}

	tb.As(ps["russia"], "BUY 1 OIL\nREFUSE china 1")
	tb.Outbox()
	tb.Wait(g.Deadline.Sub(tb.Now()) - 90*time.Minute) // the 2-hour reminder
	ms = tb.Outbox()
	daemontest.One(t, ms, ps["usa"].Addr, "Reminder: Turn 1 Trade orders due")
	for _, m := range mailsTo(ms, ps["russia"].Addr) {
		t.Errorf("Russia, who answered, is reminded: %s", m.Subject)
	}
}

// Both sides sent ahead: the receiver's held orders accept the
// offer before the offerer's held orders make it (the engine reads the
// held sets in the order of its powers). When the phase opens the
// receiver is mailed the offer with its answer as its orders give it,
// and the offerer is told the answer, as it would be of any answer.
func TestOfferAnsweredAheadToldToTheOfferer(t *testing.T) {
	tb, _, ps := supremacyTable(t, "ansahead")
	tb.As(ps["usa"], "OPEN ALL\nPHASE trade\nBUY 1 GRAIN\nOFFER TO russia: $100 FOR 1 OIL")
	tb.As(ps["russia"], "OPEN ALL\nPHASE trade\nBUY 1 OIL\nACCEPT usa 1: $100 FOR 1 OIL")
	tb.As(ps["china"], "OPEN ALL")
	tb.Outbox()
	tb.Wait(time.Minute)
	ms := tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, ps["russia"].Addr, "Offer from United States").Text,
		"United States makes you an offer (offer 1) in Turn 1 Trade:\n  $100 for 1 oil\n",
		"Your orders as they stand accept it as it now reads. To refuse it, send:\n  REFUSE usa 1\n")
	daemontest.Contains(t, daemontest.One(t, ms, ps["usa"].Addr, "Russian Federation accepts your offer 1").Text,
		"Russian Federation has accepted your offer 1 in Turn 1 Trade:\n  $100 for 1 oil\n")
	daemontest.Contains(t, daemontest.One(t, ms, ps["usa"].Addr, "Turn 1 Trade — your orders sent ahead").Text,
		"I have told Russian Federation of your offer 1 now.\nThe orders of Russian Federation already accept your offer 1 (I have mailed you its answer).")
}
