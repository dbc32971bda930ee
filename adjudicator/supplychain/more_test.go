package supplychain

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pbemd/adjudicator"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Seed, Place: an office can be placed alone.
func TestPlaceOfficeAlone(t *testing.T) {
	g := actionGame(t)
	g.giveHand(t, 0, "OF3")
	g.mustPlay(t, "PLACE OF3 AT 0,1")
}

// Seed, Revenue: the player may choose the office a route starts at.
func TestRevenueFromOffice(t *testing.T) {
	g := actionGame(t)
	g.lay(t, 0, "SO22", 1, 0, 1) // Counting House: $150
	g.mustPlay(t, "REVENUE FROM MO2")
	if g.players[0].money != 1600 {
		t.Errorf("money %d, want 1600 (the main office's $100)", g.players[0].money)
	}
	g = actionGame(t)
	g.lay(t, 0, "SO22", 1, 0, 1)
	g.mustPlay(t, "REVENUE")
	if g.players[0].money != 1650 {
		t.Errorf("money %d, want 1650 (the best route)", g.players[0].money)
	}
	g = actionGame(t)
	g.lay(t, 0, "WF2", 0, 1, 0)
	g.refuse(t, "REVENUE FROM WF2", "starts at an office")
}

// The token alone is a Reorganize; it returns to its 3VP side when its
// edge no longer joins two cards.
func TestTokenMoves(t *testing.T) {
	g := actionGame(t)
	g.lay(t, 0, "WF1", 1, 0, 2)
	g.lay(t, 0, "CF1", 0, 1, 0)
	g.mustPlay(t, "TOKEN AT 0,0 S")
	if !contains(g.acted, "reorganize") || g.teams[0].token == nil {
		t.Fatalf("acted %v token %v", g.acted, g.teams[0].token)
	}
	g.refuse(t, "TOKEN AT 5,5 E", "between two of your placed cards")
	g.mustPlay(t, "DISCARD CF1")
	if g.teams[0].token != nil {
		t.Errorf("the token stayed on an edge with one card")
	}
}

// A blind purchase of an office beyond law B goes to the Stale Sale pile.
func TestBlindLawB(t *testing.T) {
	g := newTestGame(t, Options{Players: 3, FireSale: true})
	g.clearHands()
	g.giveHand(t, 0, "OF1")
	so := g.idx(t, "SO5")
	g.pull(so)
	g.draw = append([]int{so}, g.draw...)
	g.mustPlay(t, "BLIND")
	if g.stale[len(g.stale)-1] != so || g.players[0].money != 1500 {
		t.Errorf("stale %v money %d", g.stale, g.players[0].money)
	}
}

// Co-op: law B compares partnerships.
func TestCoopLawB(t *testing.T) {
	g := newTestGame(t, Options{Players: 4, Coop: true})
	// Each partnership owns a main office and four special offices: buying
	// one more is allowed, a second is not.
	g.mustPlay(t, "BUY OF1 FROM OFFICES")
	g.finishTurn()
	g.finishTurn()
	if g.seat != 2 || g.players[2].team != g.players[0].team {
		t.Fatalf("seat %d", g.seat)
	}
	g.refuse(t, "BUY OF2 FROM OFFICES", "law B")
}

// A spin turns the derelict attached to the card with it.
func TestSpinMovesDerelict(t *testing.T) {
	g := actionGame(t)
	g.lay(t, 0, "HB1", 1, 0, 0)
	g.lay(t, 0, "VB1", 2, 0, 1)
	g.teams[0].thorns = []thorn{{card: g.idx(t, "DR3"), x: 1, y: -1, target: g.idx(t, "HB1"), from: "blue"}}
	g.pull(g.idx(t, "DR3"))
	g.teams[0].thorns = []thorn{{card: g.idx(t, "DR3"), x: 1, y: -1, target: g.idx(t, "HB1"), from: "blue"}}
	if p := g.tabProblem(0); p != "" {
		t.Fatal(p)
	}
	g.mustPlay(t, "SPIN HB1 2")
	if th := g.teams[0].thorns[0]; th.x != 1 || th.y != 1 || th.rot != 2 {
		t.Errorf("the derelict is at %d,%d turn %d, want 1,1 turn 2", th.x, th.y, th.rot)
	}
}

// The results mail: a golden file of one turn's public and private text.
func TestReportGolden(t *testing.T) {
	e := engine(t, "supplychain-3")
	g := actionGame(t)
	g.giveHand(t, 0, "FF2", "LM2", "KLG1", "KTL1", "SO3")
	g.giveHand(t, 1, "SO4", "ST5")
	g.players[1].starter = g.idx(t, "ST5")
	ords := map[string][]string{"red": {"PLACE FF2 AT 1,0 TURN 0", "PLACE LM2 AT 2,0 TURN 0", "PLACE KLG1 AT 3,0 TURN 0", "PLACE KTL1 AT 1,1 TURN 0", "REVENUE"}}
	out, err := e.Resolve(g.encode(), ords, 1)
	if err != nil {
		t.Fatal(err)
	}
	got := "=== public\n" + out.Report.Public + "=== red\n" + out.Report.Private["red"] + "=== blue\n" + out.Report.Private["blue"]
	path := filepath.Join("testdata", "turn.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("report differs from %s (run with -update after checking):\n%s", path, got)
	}
	for _, w := range []string{"Red places Furniture Factory (FF2) at 1,0", "Red collects revenue: $400", "It is your turn"} {
		if !strings.Contains(got, w) {
			t.Errorf("report lacks %q", w)
		}
	}
}

// Seed, Extras: Discard (and Spin) at any time — by mail, a player whose
// turn it is not sends them during another's turn, and they are carried
// out when that turn is resolved.
func TestFreeOrdersAnyTime(t *testing.T) {
	e := engine(t, "supplychain-3")
	g := actionGame(t)
	g.giveHand(t, 1, "WF2", "CF2")
	st := g.encode()
	c, _ := e.Check(st, "blue", "DISCARD WF2\nSPIN main office 1")
	if strings.Join(c.Canonical, "|") != "DISCARD WF2|SPIN MO6 1" {
		t.Fatalf("canonical %v %+v", c.Canonical, c.Lines)
	}
	if c, _ := e.Check(st, "blue", "DISCARD WF2\nREVENUE"); len(c.Canonical) != 0 {
		t.Errorf("blue took an action in red's turn: %v", c.Canonical)
	}
	out, err := e.Resolve(st, map[string][]string{"red": {"REVENUE"}, "blue": c.Canonical}, 1)
	if err != nil {
		t.Fatal(err)
	}
	g2, _ := decodeState(out.Next)
	if g2.inHandCode(1, "WF2") || !containsCard(g2.stale, g2.idx(t, "WF2")) || g2.teams[1].placed[0].rot != 1 {
		t.Errorf("blue's free orders were not carried out:\n%s", out.Report.Public)
	}
	if !strings.Contains(out.Report.Public, "Blue abandons Wheat Farm (WF2)") {
		t.Errorf("%s", out.Report.Public)
	}
	// The partner of an offer may discard with the answer.
	st = resolveAs(t, e, g.encode(), "red", "BUY CF2 FROM blue FOR $300")
	c, _ = e.Check(st, "blue", "DECLINE\nDISCARD WF2")
	if strings.Join(c.Canonical, "|") != "DECLINE|DISCARD WF2" {
		t.Fatalf("canonical %v", c.Canonical)
	}
	out, _ = e.Resolve(st, map[string][]string{"blue": c.Canonical}, 1)
	g3, _ := decodeState(out.Next)
	if g3.inHandCode(1, "WF2") || !g3.inHandCode(1, "CF2") {
		t.Errorf("blue's hand %s", g3.handCodes(1))
	}
}

// Check carries a turn out on a copy, but never with what the player
// cannot see: the Deck's order (a blind purchase, a refilled listing
// slot) and other players' hands. Two positions that differ only there
// give the same answer.
func TestCheckHidesWhatThePlayerCannotSee(t *testing.T) {
	e := engine(t, "supplychain-3")
	base := actionGame(t)
	base.giveHand(t, 0, "SO3")
	withTop := func(code string) *game {
		g := base.clone()
		c := g.idx(t, code)
		g.pull(c)
		g.draw = append([]int{c}, g.draw...)
		return g
	}
	a, b := withTop("GS1"), withTop("WF3")
	// Blue holds a Lumber Mill in one position and not in the other.
	a.giveHand(t, 1, "LM3")
	for _, text := range []string{
		"BLIND\nBUY LM1 FROM LISTING",
		"BLIND\nBUY GS1 FROM LISTING",
		"BUY LM1 FROM LISTING\nSWAP SO3 FOR GS1",
		"BUY LM1 FROM LISTING\nSWAP SO3 FOR WF3",
		"BUY Lumber Mill FROM blue FOR $300\nREVENUE",
		"BUY LM3 FROM blue FOR $300",
		"TRADE SO3 FOR LM3 WITH blue",
	} {
		ca, _ := e.Check(a.encode(), "red", text)
		cb, _ := e.Check(b.encode(), "red", text)
		if checkText(ca) != checkText(cb) {
			t.Errorf("%q: Check tells the positions apart:\n%+v\n%+v", text, ca, cb)
		}
	}
	// A card from the partner's hand is named, and looked for when the
	// offer is made.
	c, _ := e.Check(a.encode(), "red", "BUY Lumber Mill FROM blue FOR $300")
	if strings.Join(c.Canonical, "|") != `TRADE WITH blue GIVE $300 GET "Lumber Mill"` {
		t.Fatalf("canonical %v", c.Canonical)
	}
	st := resolveAs(t, e, a.encode(), "red", "BUY Lumber Mill FROM blue FOR $300")
	st = resolveAs(t, e, st, "blue", "ACCEPT")
	if g, _ := decodeState(st); !g.inHandCode(0, "LM3") {
		t.Errorf("red's hand %s", g.handCodes(0))
	}
	// Blue has none: the offer fails, uses the action, and only blue
	// hears why.
	out, err := e.Resolve(b.encode(), map[string][]string{"red": c.Canonical}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Report.Public, "Blue cannot accept: the Buy-Sell-Trade fails") ||
		strings.Contains(out.Report.Public, "has no") || !strings.Contains(out.Report.Private["blue"], "Blue has no Lumber Mill") {
		t.Errorf("public:\n%s\nblue:\n%s", out.Report.Public, out.Report.Private["blue"])
	}
}

// checkText is what a Check tells the player (lines, diagnostics,
// canonical lines, notes), without pointers.
func checkText(c adjudicator.Check) string {
	var b strings.Builder
	for _, l := range c.Lines {
		fmt.Fprintf(&b, "%d %s %v\n", l.Kind, l.Text, l.Diags)
	}
	fmt.Fprintf(&b, "%q\n%q\n", c.Canonical, c.Notes)
	return b.String()
}

// The orders after an offer run after the answer, with the card just
// bought.
func TestOrdersAfterAnOffer(t *testing.T) {
	e := engine(t, "supplychain-3")
	g := actionGame(t)
	g.giveHand(t, 1, "WF3")
	st := resolveAs(t, e, g.encode(), "red", "buy wheat farm from blue for $200\nplace wheat farm east of main office")
	st = resolveAs(t, e, st, "blue", "accept")
	g2, _ := decodeState(st)
	i := placedIndex(&g2.teams[0], g2.idx(t, "WF3"))
	if i < 0 || g2.teams[0].placed[i].x != 1 || g2.teams[0].placed[i].rot != 2 || g2.seat != 1 {
		t.Errorf("red's tableau %+v, seat %d", g2.teams[0].placed, g2.seat)
	}
}
