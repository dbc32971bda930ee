package supplychain

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"pbemd/orders"
)

func defaultDeck(t testing.TB) *Deck {
	t.Helper()
	d, err := DeckByName("default")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// invariants checks what must hold after every action: every card in
// exactly one place, money within the cap, every tableau legal, the laws
// that are states (C, F), the listing's size.
func invariants(g *game) error {
	count := make([]int, len(g.d.Cards))
	add := func(where string, cs ...int) {
		for _, c := range cs {
			if c >= 0 {
				count[c]++
			}
		}
	}
	add("draw", g.draw...)
	add("stale", g.stale...)
	add("contracts", g.contracts...)
	add("vehicles", g.vehicles...)
	add("offices", g.offices...)
	add("out", g.out...)
	for _, s := range g.listing {
		add("listing", s.card)
	}
	for _, p := range g.players {
		for _, h := range p.hand {
			add("hand", h.card)
		}
		add("blind", p.blind)
		if p.money < 0 || p.money > g.d.Rules.MoneyCap {
			return fmt.Errorf("%s has %d", p.power, p.money)
		}
		if p.derelicts > 1 {
			return fmt.Errorf("law F: %s possessed %d derelicts", p.power, p.derelicts)
		}
		seen := map[string]bool{}
		for _, h := range p.hand {
			c := g.card(h.card)
			if c.Kind == KindContract || c.Kind == KindVehicle {
				if seen[c.Name] {
					return fmt.Errorf("law C: %s holds two %s", p.power, c.Name)
				}
				seen[c.Name] = true
			}
		}
	}
	for ti := range g.teams {
		t := &g.teams[ti]
		add("plan", t.plan)
		for _, pl := range t.placed {
			add("placed", pl.card)
		}
		for _, th := range t.thorns {
			add("thorn", th.card)
		}
		if prob := analyze(g.d, t, g.opt.Laissez).problem(); prob != "" {
			return fmt.Errorf("tableau of %s: %s", g.teamName(ti), prob)
		}
		if t.main >= 0 && placedIndex(t, t.main) < 0 {
			return fmt.Errorf("%s lost its main office", g.teamName(ti))
		}
	}
	for c, n := range count {
		if n != 1 {
			return fmt.Errorf("card %s is in %d places", g.d.Cards[c].Code, n)
		}
	}
	if !g.opt.Solo && len(g.listing) != g.d.Rules.Listed {
		return fmt.Errorf("%d listing slots", len(g.listing))
	}
	return nil
}

// botGame plays a whole game by seeded bots on the core, checking the
// invariants after every action and every turn. It returns the final game
// and the number of phases.
func botGame(t testing.TB, opt Options, seed int64) (*game, int) {
	t.Helper()
	d := defaultDeck(t)
	opt.Deck = "default"
	if opt.Default == "" {
		opt.Default = "revenue"
	}
	g, err := newGame(d, opt, allPowers, seed)
	if err != nil {
		t.Fatal(err)
	}
	var hookErr error
	g.hook = func(g *game) {
		if hookErr == nil {
			hookErr = invariants(g)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	phases := 0
	for g.phase != phaseOver {
		phases++
		if phases > 5000 {
			t.Fatalf("seed %d: no end after %d phases (round %d)", seed, phases, g.round)
		}
		g.rep = &report{}
		switch g.phase {
		case phaseTurn:
			p := g.seat
			os := g.botOrders(p, rng)
			g.runTurn(p, os, false)
			if g.phase == phaseTurn {
				g.finishTurn()
				prev := (g.seat + len(g.players) - 1) % len(g.players)
				if g.phase != phaseOver && len(g.players[prev].hand) > g.handLimit(prev) {
					t.Fatalf("seed %d: %s over the hand limit after its turn", seed, g.players[prev].power)
				}
			}
		case phaseOffer:
			os := g.botOrders(g.offer.to, rng)
			g.answerOffer(os[0].Verb == VerbAccept, true)
		case phaseSolo:
			for p := range g.players {
				if g.players[p].done {
					continue
				}
				os := g.botOrders(p, rng)
				if len(os) == 0 {
					os = []Order{{Verb: VerbFinish, N: -1}}
				}
				g.runSolo(p, os, false)
			}
			g.step++
		}
		if hookErr != nil {
			t.Fatalf("seed %d, phase %d: %v", seed, phases, hookErr)
		}
		if err := invariants(g); err != nil {
			t.Fatalf("seed %d, phase %d: %v", seed, phases, err)
		}
	}
	return g, phases
}

func finalPicture(g *game) string {
	g.rep = &report{}
	return g.finalText() + g.publicText()
}

// ---- scenarios ----

// newTestGame deals a game of n players with a fixed seed.
func newTestGame(t testing.TB, opt Options) *game {
	t.Helper()
	opt.Deck = "default"
	if opt.Default == "" {
		opt.Default = "revenue"
	}
	if opt.Players == 0 {
		opt.Players = 3
	}
	g, err := newGame(defaultDeck(t), opt, allPowers, 1)
	if err != nil {
		t.Fatal(err)
	}
	g.rep = &report{}
	return g
}

func (g *game) idx(t testing.TB, code string) int {
	t.Helper()
	c, ok := g.d.CardByCode(code)
	if !ok {
		t.Fatalf("no card %s", code)
	}
	return c
}

// pull takes card c out of wherever it is.
func (g *game) pull(c int) {
	g.draw = removeInt(g.draw, c)
	g.stale = removeInt(g.stale, c)
	g.contracts = removeInt(g.contracts, c)
	g.vehicles = removeInt(g.vehicles, c)
	g.offices = removeInt(g.offices, c)
	g.out = removeInt(g.out, c)
	for i := range g.listing {
		if g.listing[i].card == c {
			g.listing[i] = slot{card: -1}
		}
	}
	for p := range g.players {
		pl := &g.players[p]
		if i := g.handIndex(p, c); i >= 0 {
			pl.hand = append(pl.hand[:i], pl.hand[i+1:]...)
		}
		if pl.blind == c {
			pl.blind = -1
		}
	}
	for ti := range g.teams {
		tm := &g.teams[ti]
		if i := placedIndex(tm, c); i >= 0 {
			tm.placed = append(tm.placed[:i], tm.placed[i+1:]...)
		}
		for i := range tm.thorns {
			if tm.thorns[i].card == c {
				tm.thorns = append(tm.thorns[:i], tm.thorns[i+1:]...)
				break
			}
		}
		if tm.plan == c {
			tm.plan = -1
		}
	}
}

// clearHands puts every hand card out of play (tests start from empty
// hands unless they say otherwise).
func (g *game) clearHands() {
	for p := range g.players {
		for _, h := range g.players[p].hand {
			g.out = insertSorted(g.out, h.card)
		}
		g.players[p].hand = nil
		g.players[p].starter = -1
	}
}

func (g *game) giveHand(t testing.TB, p int, codes ...string) {
	t.Helper()
	for _, code := range codes {
		c := g.idx(t, code)
		g.pull(c)
		g.players[p].hand = append(g.players[p].hand, handCard{card: c})
	}
}

// lay places a card in player p's tableau without any check.
func (g *game) lay(t testing.TB, p int, code string, x, y, rot int) {
	t.Helper()
	c := g.idx(t, code)
	g.pull(c)
	tm := g.teamOf(p)
	tm.placed = append(tm.placed, placed{card: c, x: x, y: y, rot: rot})
}

func (g *game) list(t testing.TB, i int, code string, age int) {
	t.Helper()
	c := g.idx(t, code)
	g.pull(c)
	if old := g.listing[i].card; old >= 0 {
		g.out = insertSorted(g.out, old)
	}
	g.listing[i] = slot{card: c, age: age}
}

// orders reads order text with the grammar (leniently, as from a mail).
func (g *game) orders(t testing.TB, text string) []Order {
	t.Helper()
	gr, err := newGrammar(g.d, g.powers())
	if err != nil {
		t.Fatal(err)
	}
	res := orders.Parse(text, orders.Options{Grammar: gr})
	var out []Order
	for _, l := range res.Lines {
		switch l.Kind {
		case orders.OrderLine:
			out = append(out, l.Value.(*line).orders...)
		case orders.ErrorLine:
			t.Fatalf("line %q: %v", l.Text, l.Diags)
		}
	}
	return out
}

// play carries out text as the active player's turn (without ending the
// turn) and returns the first error, if any.
func (g *game) play(t testing.TB, text string) error {
	t.Helper()
	g.rep = &report{}
	for _, r := range g.runTurn(g.seat, g.orders(t, text), false) {
		if r.err != nil {
			return r.err
		}
	}
	if err := invariants(g); err != nil {
		t.Fatalf("after %q: %v", text, err)
	}
	return nil
}

func (g *game) mustPlay(t testing.TB, text string) {
	t.Helper()
	if err := g.play(t, text); err != nil {
		t.Fatalf("%q: %v", text, err)
	}
}

func (g *game) refuse(t testing.TB, text, want string) {
	t.Helper()
	before := g.clone()
	err := g.play(t, text)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("%q: %v, want an error with %q", text, err, want)
	}
	if a, b := before.encode(), g.encode(); string(a) != string(b) {
		t.Fatalf("%q failed but changed the game", text)
	}
}

func (g *game) tabProblem(p int) string {
	return analyze(g.d, g.teamOf(p), g.opt.Laissez).problem()
}

func (g *game) handCodes(p int) string {
	var xs []string
	for _, h := range g.players[p].hand {
		xs = append(xs, g.card(h.card).Code)
	}
	return strings.Join(xs, " ")
}
