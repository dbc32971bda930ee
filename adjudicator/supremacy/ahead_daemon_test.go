package supremacy_test

import (
	"strings"
	"testing"
	"time"

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
