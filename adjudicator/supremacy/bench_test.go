package supremacy

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkSupremacyGame plays a 6-player, 10-turn bot game in mail rounds:
// every phase, every player's bot orders go through Check, then the phase
// is resolved (as the daemon does it).
func BenchmarkSupremacyGame(b *testing.B) {
	e := engineFor(b, sixPowers)
	phases := 0
	for b.Loop() {
		phases = 0
		playGame(b, e, map[string]string{"turns": "10"}, 5, 5000, func(int, []byte, *outcomeView) { phases++ })
	}
	b.ReportMetric(float64(phases), "phases/game")
}

// BenchmarkResolve resolves one typical phase: the attack phase of turn 4
// of a 6-player game, with every player's bot orders.
func BenchmarkResolve(b *testing.B) {
	e := engineFor(b, sixPowers)
	var state []byte
	playGame(b, e, map[string]string{"turns": "10", "fast": "yes"}, 11, 5000, func(ph int, st []byte, o *outcomeView) {
		if state == nil && o.status.ID == "T04-3" {
			state = st
		}
	})
	if state == nil {
		b.Fatal("no turn 4 attack phase")
	}
	st, _ := e.Status(state)
	rng := rand.New(rand.NewPCG(1, 2))
	ords := map[string][]string{}
	for _, p := range st.Alive {
		lines, _ := RandomOrders(state, p, rng.Int64())
		ords[p] = lines
	}
	for b.Loop() {
		if _, err := e.Resolve(state, ords, 42); err != nil {
			b.Fatal(err)
		}
	}
}
