package supremacy_test

import (
	"strings"
	"testing"
	"time"

	"pbemd/daemon/daemontest"
)

// Issue 15 item 15: an offer reaches its receiver when it is made, not in
// the results after it lapsed, and the receiver answers within the phase.
//
// Seed, Private Trade: "After all players have traded on the market,
// players may privately trade with each other for any mutually agreeable
// terms."
// Seed, Personal Loans: "Players may borrow money at any time from other
// players. They may agree to any terms, but they are not enforceable under
// the rules."

// offerTable starts a one-turn game and plays the set-up; it returns the
// table and a sender by power.
func offerTable(t *testing.T, game, variant string) (*daemontest.Table, func(p, text string), map[string][2]string) {
	t.Helper()
	registerTestEngines(t)
	tb := daemontest.New(t)
	who := start(tb, game, variant)
	as := func(p, text string) { t.Helper(); tb.Send(who[p][0], who[p][1], text) }
	as("usa", "PLACE 9 ARMIES IN tex")
	as("russia", "PLACE 9 ARMIES IN sib")
	as("china", "PLACE 9 ARMIES IN man")
	tb.Wait(time.Minute)
	if g := tb.Game(game); g.PhaseID != "T01-1" {
		t.Fatalf("after set-up: %s", g.PhaseID)
	}
	tb.Outbox()
	return tb, as, who
}

// toTrade plays the salaries phase (everybody opens every company).
func toTrade(t *testing.T, tb *daemontest.Table, as func(p, text string), game string) {
	t.Helper()
	for _, p := range []string{"usa", "russia", "china"} {
		as(p, "OPEN ALL")
	}
	tb.Wait(time.Minute)
	if g := tb.Game(game); g.PhaseID != "T01-2" {
		t.Fatalf("after salaries: %s", g.PhaseID)
	}
	tb.Outbox()
}

// A private trade: the United States offers last, when every other
// player has ordered (the phase would end on its orders); Russia gets the
// offer at once, the phase waits, Russia accepts by mail and the results
// show the trade carried out. China's offer to Russia is refused: China is
// told at once and the results say so.
func TestOfferToldAtOnceAndAccepted(t *testing.T) {
	tb, as, who := offerTable(t, "offer1", "supremacy-test")
	toTrade(t, tb, as, "offer1")
	usa, russia, china := who["usa"][0], who["russia"][0], who["china"][0]

	as("russia", "BUY 3 OIL")
	as("china", "BUY 1 GRAIN\nOFFER TO russia: $100 FOR 1 OIL")
	ms := tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, russia, "Offer from China").Text,
		"China makes you an offer (offer 1) in Turn 1 Trade:\n  $100 for 1 oil\n",
		"To accept it, send this order before the deadline", "  ACCEPT china 1: $100 FOR 1 OIL\n",
		"To refuse it:\n  REFUSE china 1\n",
		"Your orders for this phase now stand as:\n  BUY 3 OIL\n")
	daemontest.Contains(t, daemontest.One(t, ms, china, "Re: orders").Text, "I have told Russian Federation of your offer 1 now.")

	as("usa", "OFFER TO russia: $600 FOR 1 OIL")
	ms = tb.Outbox()
	offer := daemontest.One(t, ms, russia, "Offer from United States").Text
	daemontest.Contains(t, offer, "United States makes you an offer (offer 1) in Turn 1 Trade:\n  $600 for 1 oil\n",
		"  ACCEPT usa 1: $600 FOR 1 OIL\n", "  REFUSE usa 1\n",
		"Turn 1 Trade does not end before its deadline while an offer made in it is unanswered")
	daemontest.Lacks(t, offer, "China", "$100")
	ack := daemontest.One(t, ms, usa, "Re: orders").Text
	daemontest.Contains(t, ack, "I have told Russian Federation of your offer 1 now.",
		"Every order Turn 1 Trade waits for is in, but your offer 1 to Russian Federation is still unanswered")
	daemontest.Lacks(t, ack, "ends now", "China")
	if len(mailsTo(ms, china)) != 0 {
		t.Errorf("China hears of the United States' offer: %v", mailsTo(ms, china))
	}
	tb.Wait(time.Minute)
	if g := tb.Game("offer1"); g.PhaseID != "T01-2" {
		t.Fatalf("the phase ended with offers unanswered: %s", g.PhaseID)
	}

	// Russia answers both, with its market order, in one mail.
	as("russia", "BUY 3 OIL\nACCEPT usa 1: $600 FOR 1 OIL\nREFUSE china 1")
	ms = tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, usa, "Russian Federation accepts your offer 1").Text,
		"Russian Federation has accepted your offer 1 in Turn 1 Trade:\n  $600 for 1 oil\n")
	daemontest.Contains(t, daemontest.One(t, ms, china, "Russian Federation refuses your offer 1").Text,
		"Russian Federation has refused your offer 1 in Turn 1 Trade:\n  $100 for 1 oil\nIt will not be carried out")
	daemontest.Contains(t, daemontest.One(t, ms, russia, "Re: orders").Text,
		"I have told United States of your answer to its offer 1.", "I have told China of your answer to its offer 1.",
		"These orders end Turn 1 Trade")
	tb.Wait(time.Minute)
	ms = tb.Outbox()
	if g := tb.Game("offer1"); g.PhaseID != "T01-3" {
		t.Fatalf("after the answers: %s", g.PhaseID)
	}
	daemontest.Contains(t, daemontest.One(t, ms, usa, "results").Text, "Offer 1 to Russian Federation carried out: you give $600 and get 1 oil.")
	daemontest.Contains(t, daemontest.One(t, ms, russia, "results").Text, "Offer 1 of United States carried out: you get $600 and give 1 oil.")
	daemontest.Contains(t, daemontest.One(t, ms, china, "results").Text, "Your offer 1 to russia was refused: OFFER 1 TO russia: $100 FOR 1 OIL")
}

// A personal loan in the salaries phase, withdrawn, made again and then
// changed: the receiver is told each time; an acceptance of the earlier
// terms does not take the new ones, so the changed offer waits for an
// answer and lapses at the deadline.
func TestOfferWithdrawnAndChanged(t *testing.T) {
	tb, as, who := offerTable(t, "offer2", "supremacy-test")
	usa, china := who["usa"][0], who["china"][0]
	as("usa", "HELP")
	daemontest.Contains(t, only(t, tb.Outbox(), usa).Text, "Orders from a player the phase waits for end it when they arrive.\n"+
		"An offer to another player holds the phase until it is answered (or the deadline):\nits receiver is mailed it at once, with the orders that accept or refuse it.\n")
	as("usa", "OPEN ALL")
	as("russia", "OPEN ALL")

	as("china", "OFFER TO usa: $2000")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), usa, "Offer from China").Text,
		"China makes you an offer (offer 1) in Turn 1 Salaries:\n  $2000 (a gift or personal loan)\n", "  ACCEPT china 1: $2000\n",
		"Your orders for this phase now stand as:\n  OPEN ALL\n")

	// A new mail of orders replaces China's whole set: the offer is gone.
	as("china", "OPEN ALL")
	ms := tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, usa, "Offer from China withdrawn").Text,
		"China has withdrawn its offer 1 in Turn 1 Salaries:\n  $2000 (a gift or personal loan)\nIt will not be carried out")
	daemontest.Contains(t, daemontest.One(t, ms, china, "Re: orders").Text, "I have told United States that your offer 1 is withdrawn.")
	tb.Wait(time.Minute)
	if g := tb.Game("offer2"); g.PhaseID != "T01-2" {
		t.Fatalf("the phase did not end when every order was in and no offer stood: %s", g.PhaseID)
	}
	ms = tb.Outbox()
	daemontest.Lacks(t, daemontest.One(t, ms, usa, "results").Text, "offer")

	as("usa", "BUY 1 OIL")
	as("china", "OFFER TO usa: $1000")
	tb.Outbox()
	as("usa", "BUY 1 OIL\nACCEPT china 1: $1000\nOFFER TO china: $10")
	ms = tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, china, "United States accepts your offer 1").Text, "  $1000 (a gift or personal loan)")
	daemontest.One(t, ms, china, "Offer from United States")
	as("china", "OFFER TO usa: $500")
	ms = tb.Outbox()
	changed := daemontest.One(t, ms, usa, "Offer from China changed").Text
	daemontest.Contains(t, changed, "China has changed its offer 1 in Turn 1 Trade. It read:\n  $1000 (a gift or personal loan)\nIt now reads:\n  $500 (a gift or personal loan)\n",
		"To accept it, send this order before the deadline", "  ACCEPT china 1: $500\n",
		"Your orders for this phase now stand as:\n  BUY 1 OIL\n  ACCEPT china 1: $1000\n")
	// Russia's orders are the last the phase waits for; the changed
	// offer still has no answer, so the phase goes on to its deadline.
	as("russia", "BUY 1 OIL")
	daemontest.Contains(t, only(t, tb.Outbox(), who["russia"][0]).Text, "Every order Turn 1 Trade waits for is in, but an offer between players is still unanswered")
	tb.Wait(time.Hour)
	if g := tb.Game("offer2"); g.PhaseID != "T01-2" {
		t.Fatalf("the phase ended with the changed offer unanswered: %s", g.PhaseID)
	}
	tb.Wait(tb.Game("offer2").Deadline.Sub(tb.Now()))
	ms = tb.Outbox()
	if g := tb.Game("offer2"); g.PhaseID != "T01-3" {
		t.Fatalf("at the deadline: %s", g.PhaseID)
	}
	res := daemontest.One(t, ms, usa, "results").Text
	daemontest.Contains(t, res, "You accepted offer 1 of china on the terms $1000, but it now reads $500: not carried out.")
	// China never answered the United States' offer: it lapsed.
	daemontest.Contains(t, daemontest.One(t, ms, china, "results").Text, "Your offer 1 to usa was not accepted as it stands",
		"Offer 1 of usa lapsed: you did not answer it.")
	daemontest.Contains(t, res, "Your offer 1 to china was not accepted (no answer by the end of the phase): OFFER 1 TO china: $10")
	if !strings.Contains(res, "cash $") {
		t.Fatalf("no position in the results:\n%s", res)
	}
}

// In step play (steps=attack) only the attacker's mail ends his step; an
// offer in it holds the step until its receiver, who is not playing a
// step, answers. The offer, answered, stands in the state through the
// phase's later steps (they end on their orders again) and is carried out
// at the end of the phase. Seed, Personal Loans: "Players may borrow money
// at any time from other players."
func TestOfferInStepPlay(t *testing.T) {
	tb, as, who := offerTable(t, "offer3", "supremacy-test-steps")
	toTrade(t, tb, as, "offer3")
	for _, p := range []string{"usa", "russia", "china"} {
		as(p, "BUY 1 OIL")
	}
	tb.Wait(time.Minute)
	tb.Outbox()
	g := tb.Game("offer3")
	if g.PhaseKind != "turn" || len(g.Waiting) != 1 {
		t.Fatalf("attack phase %s kind %s waiting %v", g.PhaseID, g.PhaseKind, g.Waiting)
	}
	first, other := g.Waiting[0], "usa"
	if first == "usa" {
		other = "russia"
	}
	as(first, "OFFER TO "+other+": $500\nPASS")
	ms := tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, who[other][0], "Offer from").Text, "  $500 (a gift or personal loan)\n", "  ACCEPT "+first+" 1: $500\n")
	tb.Wait(time.Minute)
	if g := tb.Game("offer3"); g.PhaseID != "T01-3-000" {
		t.Fatalf("the step ended with its offer unanswered: %s", g.PhaseID)
	}
	as(other, "ACCEPT "+first+" 1: $500")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), who[first][0], "accepts your offer 1").Text, "  $500 (a gift or personal loan)\n")
	tb.Wait(time.Minute)
	var results []string
	for i := 0; strings.HasPrefix(tb.Game("offer3").PhaseID, "T01-3"); i++ {
		if i > 6 {
			t.Fatalf("the attack phase does not end: %s", tb.Game("offer3").PhaseID)
		}
		for _, m := range mailsTo(tb.Outbox(), who[first][0]) {
			results = append(results, m.Text)
		}
		as(tb.Game("offer3").Waiting[0], "PASS")
		tb.Wait(time.Minute)
	}
	for _, m := range mailsTo(tb.Outbox(), who[first][0]) {
		results = append(results, m.Text)
	}
	daemontest.Contains(t, strings.Join(results, "\n"), "Offer 1 to "+map[string]string{"usa": "United States", "russia": "Russian Federation"}[other]+" carried out: you give $500 and get nothing.")
}

// Offers the GM sets for a power (SET ORDERS) are forwarded like the
// power's own; an offer that arrives when the phase already has every
// order and is being processed is told to be too late.
func TestOfferBySetOrdersAndTooLate(t *testing.T) {
	registerTestEngines(t)
	tb := daemontest.New(t)
	gm := tb.Create("offer4", "supremacy-test", "")
	ps := tb.SignUp("offer4", []string{"usa", "russia", "china"})
	tb.As(ps["usa"], "PLACE 9 ARMIES IN tex")
	tb.As(ps["russia"], "PLACE 9 ARMIES IN sib")
	tb.As(ps["china"], "PLACE 9 ARMIES IN man")
	tb.Wait(time.Minute)
	tb.Outbox()

	tb.Send(daemontest.GM, gm, "SET ORDERS china\nOPEN ALL\nOFFER TO usa: $300\nENDORDERS")
	ms := tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, ps["usa"].Addr, "Offer from China").Text, "China makes you an offer (offer 1) in Turn 1 Salaries:\n  $300 (a gift or personal loan)\n")
	daemontest.Contains(t, daemontest.One(t, ms, daemontest.GM, "Re:").Text, "I have told United States of China's offer 1 now.")

	tb.As(ps["usa"], "OPEN ALL\nREFUSE china 1")
	tb.As(ps["russia"], "OPEN ALL") // every order in, every offer answered: the phase is due
	tb.Outbox()
	tb.As(ps["russia"], "OPEN ALL\nOFFER TO usa: $100")
	late := daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "Offer from Russian Federation").Text
	daemontest.Contains(t, late, "Turn 1 Salaries had all its orders and is being processed now, so there is no time left to answer")
	daemontest.Lacks(t, late, "To accept it")
	tb.Wait(time.Minute)
	if g := tb.Game("offer4"); g.PhaseID != "T01-2" {
		t.Fatalf("after salaries: %s", g.PhaseID)
	}
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "results").Text, "Offer 1 of russia lapsed: you did not answer it.")
}

// An offer to a power nobody plays (its player resigned; its orders
// stand) cannot be answered: it does not hold the phase up, and lapses.
func TestOfferToAnOpenSeat(t *testing.T) {
	tb, as, who := offerTable(t, "offer5", "supremacy-test")
	as("china", "OPEN ALL")
	as("china", "RESIGN")
	as("russia", "OPEN ALL")
	tb.Outbox()
	as("usa", "OPEN ALL\nOFFER TO china: $100")
	ms := tb.Outbox()
	if len(mailsTo(ms, who["china"][0])) != 0 {
		t.Errorf("the resigned player hears of the offer")
	}
	daemontest.Contains(t, only(t, ms, who["usa"][0]).Text, "These orders end Turn 1 Salaries",
		"Nobody plays China now: your offer 1 cannot be answered, and lapses at the end of the phase.")
	tb.Wait(time.Minute)
	if g := tb.Game("offer5"); g.PhaseID != "T01-2" {
		t.Fatalf("an offer to an open seat held the phase: %s", g.PhaseID)
	}
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), who["usa"][0], "results").Text, "Your offer 1 to china was not accepted (no answer by the end of the phase)")
}
