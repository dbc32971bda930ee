package diplomacy

import (
	"math/rand/v2"
	"testing"

	"pbemd/adjudicator"
)

// gamePhase is one phase of a recorded game: the stored state before it
// and each power's orders as a player mails them.
type gamePhase struct {
	state []byte
	text  map[string]string
}

// recordGame plays years of random play on a map through the engine and
// returns its phases.
func recordGame(tb testing.TB, name string, seed uint64, years int) (adjudicator.Engine, []gamePhase) {
	e, ok := adjudicator.Lookup(name)
	if !ok {
		tb.Fatal("engine not registered")
	}
	m, _ := MapByName(name)
	r := rand.New(rand.NewPCG(seed, 11))
	state, err := e.New(nil, 0)
	if err != nil {
		tb.Fatal(err)
	}
	var out []gamePhase
	for {
		g, err := decodeState(state, mapOf(name))
		if err != nil {
			tb.Fatal(err)
		}
		if g.over || g.pos.Phase.Year >= m.StartYear+years {
			return e, out
		}
		text := map[string]string{}
		for _, o := range randomOrders(g.pos, r) {
			text[o.Power] += m.FormatOrder(o.Order) + "\n"
		}
		ph := gamePhase{state: state, text: text}
		out = append(out, ph)
		next, err := playPhase(e, ph)
		if err != nil {
			tb.Fatal(err)
		}
		state = next
	}
}

// playPhase is what the daemon asks of the engine in one phase: each
// power's mail checked, then the phase resolved from the canonical lines.
func playPhase(e adjudicator.Engine, ph gamePhase) ([]byte, error) {
	lines := map[string][]string{}
	for _, p := range sortedKeys(ph.text) {
		ck, err := e.Check(ph.state, p, ph.text[p])
		if err != nil {
			return nil, err
		}
		lines[p] = ck.Canonical
	}
	out, err := e.Resolve(ph.state, lines, 0)
	if err != nil {
		return nil, err
	}
	return out.Next, nil
}

// BenchmarkDiplomacyGame plays a standard game of random play (to a solo,
// or ten years) through the engine as the daemon does (every power's orders checked, then the phase
// resolved, state in and state out), the orders drawn beforehand.
func BenchmarkDiplomacyGame(b *testing.B) {
	e, phases := recordGame(b, "standard", 3, 10)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, ph := range phases {
			if _, err := playPhase(e, ph); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(phases)), "phases/game")
}
