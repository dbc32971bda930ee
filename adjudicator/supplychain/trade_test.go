package supplychain

import (
	"strings"
	"testing"
)

// Seed, Buy-Sell-Trade: one card for money, one for one, one for two, one
// for one plus money; there must be compensation.
func TestTradeForms(t *testing.T) {
	for _, tc := range []struct {
		gc, hc, gm, hm int
		ok             bool
	}{
		{1, 0, 0, 300, true},    // (a) sell
		{0, 1, 300, 0, true},    // (a) buy
		{1, 1, 0, 0, true},      // (b)
		{1, 2, 0, 0, true},      // (c)
		{2, 1, 0, 0, true},      // (c)
		{1, 1, 100, 0, true},    // (d)
		{1, 1, 0, 100, true},    // (d)
		{1, 0, 0, 0, false},     // a gift
		{0, 0, 100, 100, false}, // no card
		{2, 2, 0, 0, false},
		{2, 0, 0, 300, false},
		{1, 2, 100, 0, false},
		{1, 1, 100, 100, false},
		{0, 1, 0, 0, false},
	} {
		err := tradeForm(tc.gc, tc.hc, tc.gm, tc.hm)
		if (err == nil) != tc.ok {
			t.Errorf("%+v: %v", tc, err)
		}
	}
}

// tradeGame: red holds SO3 and WF2, blue holds FF2 and $1,500.
func tradeGame(t *testing.T) (*Engine, *game) {
	t.Helper()
	g := actionGame(t)
	g.giveHand(t, 0, "SO3", "WF2")
	g.giveHand(t, 1, "FF2")
	return engine(t, "supplychain-3"), g
}

// resolveAs resolves the game's phase with one power's text, checked
// first as the daemon does.
func resolveAs(t *testing.T, e *Engine, st []byte, power, text string) []byte {
	t.Helper()
	ords := map[string][]string{}
	if text != "" {
		c, err := e.Check(st, power, text)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Canonical) == 0 {
			t.Fatalf("%s's %q refused: %+v", power, text, c.Lines)
		}
		ords[power] = c.Canonical
	}
	out, err := e.Resolve(st, ords, 1)
	if err != nil {
		t.Fatal(err)
	}
	g, err := decodeState(out.Next)
	if err != nil {
		t.Fatal(err)
	}
	if err := invariants(g); err != nil {
		t.Fatal(err)
	}
	return out.Next
}

func TestTradeOffer(t *testing.T) {
	t.Run("accepted, and the turn goes on", func(t *testing.T) {
		e, g := tradeGame(t)
		st := resolveAs(t, e, g.encode(), "red", "SELL SO3 TO Blue FOR $300\nBUY KLG1 FROM CONTRACTS")
		s, _ := e.Status(st)
		if s.ID != "R001-1-offer" || s.Waiting[0] != "blue" {
			t.Fatalf("status %+v", s)
		}
		// Red cannot order while the offer waits; Blue can only answer.
		if c, _ := e.Check(st, "red", "REVENUE"); len(c.Canonical) != 0 {
			t.Error("red ordered during the offer")
		}
		if c, _ := e.Check(st, "blue", "REVENUE"); len(c.Canonical) != 0 {
			t.Error("blue took a turn instead of answering")
		}
		st = resolveAs(t, e, st, "blue", "accept")
		g2, _ := decodeState(st)
		if !g2.inHandCode(1, "SO3") || g2.players[1].money != 1200 || g2.players[0].money != 1500+300-150 || !g2.inHandCode(0, "KLG1") {
			t.Errorf("after: red %s %d, blue %s %d", g2.handCodes(0), g2.players[0].money, g2.handCodes(1), g2.players[1].money)
		}
		if g2.seat != 1 || g2.phase != phaseTurn {
			t.Errorf("seat %d phase %d: blue's turn should follow", g2.seat, g2.phase)
		}
	})
	t.Run("declined", func(t *testing.T) {
		e, g := tradeGame(t)
		st := resolveAs(t, e, g.encode(), "red", "TRADE WF2 FOR FF2 WITH blue")
		st = resolveAs(t, e, st, "blue", "DECLINE")
		g2, _ := decodeState(st)
		if !g2.inHandCode(0, "WF2") || !g2.inHandCode(1, "FF2") {
			t.Errorf("cards moved: red %s, blue %s", g2.handCodes(0), g2.handCodes(1))
		}
	})
	t.Run("no answer by the deadline", func(t *testing.T) {
		e, g := tradeGame(t)
		st := resolveAs(t, e, g.encode(), "red", "BUY FF2 FROM blue FOR $600")
		out, err := e.Resolve(st, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.Report.Public, "did not answer") {
			t.Errorf("%s", out.Report.Public)
		}
	})
	t.Run("one for two", func(t *testing.T) {
		e, g := tradeGame(t)
		st := resolveAs(t, e, g.encode(), "red", "TRADE SO3, WF2 FOR FF2 WITH blue")
		st = resolveAs(t, e, st, "blue", "yes")
		g2, _ := decodeState(st)
		if !g2.inHandCode(0, "FF2") || !g2.inHandCode(1, "SO3") || !g2.inHandCode(1, "WF2") {
			t.Errorf("red %s, blue %s", g2.handCodes(0), g2.handCodes(1))
		}
	})
	t.Run("one for one plus money", func(t *testing.T) {
		e, g := tradeGame(t)
		st := resolveAs(t, e, g.encode(), "red", "TRADE WITH blue GIVE WF2, $200 GET FF2")
		st = resolveAs(t, e, st, "blue", "ACCEPT")
		g2, _ := decodeState(st)
		if g2.players[0].money != 1300 || g2.players[1].money != 1700 {
			t.Errorf("money %d %d", g2.players[0].money, g2.players[1].money)
		}
	})
	t.Run("a sale's income is capped (law A)", func(t *testing.T) {
		e, g := tradeGame(t)
		g.players[0].money = 1900
		st := resolveAs(t, e, g.encode(), "red", "SELL SO3 TO blue FOR $300")
		st = resolveAs(t, e, st, "blue", "ACCEPT")
		g2, _ := decodeState(st)
		if g2.players[0].money != 2000 || g2.players[1].money != 1200 {
			t.Errorf("money %d %d", g2.players[0].money, g2.players[1].money)
		}
	})
	t.Run("re-checked at the answer", func(t *testing.T) {
		e, g := tradeGame(t)
		st := resolveAs(t, e, g.encode(), "red", "BUY FF2 FROM blue FOR $600")
		g2, _ := decodeState(st)
		g2.players[0].money = 100 // red spent it meanwhile (a GM's change)
		out, _ := e.Resolve(g2.encode(), map[string][]string{"blue": {"ACCEPT"}}, 1)
		if !strings.Contains(out.Report.Public, "cannot be made now") {
			t.Errorf("%s", out.Report.Public)
		}
	})
}

func TestTradeRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, order, want string
		setup             func(t *testing.T, g *game)
	}{
		{"money for money", "TRADE WITH blue GIVE $100 GET $200", "at least one card", nil},
		{"two for two", "TRADE SO3, WF2 FOR FF2, LM2 WITH blue", "one for two", func(t *testing.T, g *game) { g.giveHand(t, 1, "LM2") }},
		{"with oneself", "SELL WF2 TO red FOR $100", "not another player", nil},
		{"a card one does not have", "SELL FF2 TO blue FOR $100", "Red has no FF2", nil},
		{"not enough money", "BUY FF2 FROM blue FOR $1,600", "only $1,500", nil},
		{"the main office", "SELL main office TO blue FOR $500", "Main Office", nil},
		{"the dealt Starter", "SELL ST1 TO blue FOR $500", "Starter", func(t *testing.T, g *game) {
			g.giveHand(t, 0, "ST1")
			g.players[0].starter = g.idx(t, "ST1")
		}},
		{"law C for the buyer", "SELL KLG1 TO blue FOR $100", "law C", func(t *testing.T, g *game) {
			g.giveHand(t, 0, "KLG1")
			g.giveHand(t, 1, "KLG2")
		}},
		{"law F for the buyer", "SELL DR1 TO blue FOR $100", "law F", func(t *testing.T, g *game) {
			g.giveHand(t, 0, "DR1")
			g.players[1].derelicts = 1
		}},
		{"law B for the buyer", "SELL OF1 TO blue FOR $400", "law B", func(t *testing.T, g *game) {
			g.giveHand(t, 0, "OF1")
			g.giveHand(t, 1, "OF2")
		}},
		{"a placed card that holds a block", "SELL KLG1 TO blue FOR $100", "ruin", func(t *testing.T, g *game) {
			g.lay(t, 0, "LM2", 1, 0, 0)
			g.lay(t, 0, "KLG1", 2, 0, 0)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, g := tradeGame(t)
			if tc.setup != nil {
				tc.setup(t, g)
			}
			err := g.play(t, tc.order)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				if err == nil {
					t.Fatalf("%q accepted", tc.order)
				}
				t.Fatalf("%q: %v, want %q", tc.order, err, tc.want)
			}
		})
	}
	t.Run("a gift cannot even be written", func(t *testing.T) {
		e, g := tradeGame(t)
		for _, text := range []string{"TRADE WITH blue GIVE WF2 GET $0", "TRADE WITH blue GIVE WF2 GET", "SELL WF2 TO blue"} {
			if c, _ := e.Check(g.encode(), "red", text); len(c.Canonical) != 0 {
				t.Errorf("%q stored as %v", text, c.Canonical)
			}
		}
	})
	t.Run("a placed card may be sold", func(t *testing.T) {
		_, g := tradeGame(t)
		g.lay(t, 0, "WF1", 1, 0, 2)
		g.mustPlay(t, "SELL WF1 TO blue FOR $100")
		if g.phase != phaseOffer {
			t.Fatal("no offer")
		}
		g.answerOffer(true, true)
		if placedIndex(&g.teams[0], g.idx(t, "WF1")) >= 0 || !g.inHandCode(1, "WF1") {
			t.Errorf("WF1 did not reach blue's hand")
		}
	})
	t.Run("a Starter bought later may be sold", func(t *testing.T) {
		_, g := tradeGame(t)
		g.giveHand(t, 0, "ST8")
		g.mustPlay(t, "SELL ST8 TO blue FOR $300")
	})
}
