package supplychain

import (
	"math/rand/v2"
	"testing"
)

// playCore plays a whole game by bots on the core (no JSON), as the
// benchmark measures it.
func playCore(b testing.TB, d *Deck, opt Options, seed int64) *game {
	g, err := newGame(d, opt, allPowers, seed)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	for n := 0; g.phase != phaseOver; n++ {
		if n > 5000 {
			b.Fatal("no end")
		}
		switch g.phase {
		case phaseTurn:
			g.runTurn(g.seat, g.botOrders(g.seat, rng), false)
			if g.phase == phaseTurn {
				g.finishTurn()
			}
		case phaseOffer:
			os := g.botOrders(g.offer.to, rng)
			g.answerOffer(os[0].Verb == VerbAccept, true)
		}
	}
	return g
}

// BenchmarkSupplyChainGame: a 6-player bot game from the deal to the end.
func BenchmarkSupplyChainGame(b *testing.B) {
	d := defaultDeck(b)
	opt := Options{Players: 6, Deck: "default", Default: "revenue"}
	rounds := 0
	for i := 0; b.Loop(); i++ {
		g := playCore(b, d, opt, int64(i%16)+1)
		rounds += g.round
	}
	b.ReportMetric(float64(rounds)/float64(b.N), "rounds/game")
}

// BenchmarkResolve: one typical mid-game turn through the engine
// interface (decode, carry out, render the reports, encode).
func BenchmarkResolve(b *testing.B) {
	e, _ := NewEngine("supplychain-6")
	d := defaultDeck(b)
	g := playCore(b, d, Options{Players: 6, Deck: "default", Default: "revenue"}, 3)
	_ = g
	// Replay the same seed to the middle of the game.
	mid, err := newGame(d, Options{Players: 6, Deck: "default", Default: "revenue"}, allPowers, 3)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 7))
	for mid.round < g.round/2 {
		if mid.phase == phaseOffer {
			mid.answerOffer(false, true)
			continue
		}
		mid.runTurn(mid.seat, mid.botOrders(mid.seat, rng), false)
		if mid.phase == phaseTurn {
			mid.finishTurn()
		}
	}
	for mid.phase != phaseTurn {
		mid.answerOffer(false, true)
	}
	st := mid.encode()
	var lines []string
	for _, o := range mid.botOrders(mid.seat, rng) {
		lines = append(lines, o.format(d))
	}
	ords := map[string][]string{mid.players[mid.seat].power: lines}
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.Resolve(st, ords, 1); err != nil {
			b.Fatal(err)
		}
	}
}
