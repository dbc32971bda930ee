package diplomacy

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"pbemd/internal/proccpu"
)

// burstPositions plays n seeded random games of the map, each for a
// different number of phases, and returns the state after the last phase
// and that phase's results: positions as a deadline burst meets them,
// each game its own.
func burstPositions(tb testing.TB, e *Engine, n int) (states, results [][]byte) {
	tb.Helper()
	m := e.Map()
	for seed := uint64(1); len(states) < n; seed++ {
		r := rand.New(rand.NewPCG(seed, 11))
		state, err := e.New(nil, 0)
		if err != nil {
			tb.Fatal(err)
		}
		var res []byte
		steps := 4 + int(seed%17)
		for step := 0; step < steps; step++ {
			pos, err := e.Position(state)
			if err != nil {
				tb.Fatal(err)
			}
			ords := RandomOrders(pos, r, RandomOptions{Aggressive: true})
			sent := map[string][]string{}
			for _, p := range m.Powers {
				var text strings.Builder
				for _, o := range OrdersOf(ords, p.ID) {
					text.WriteString(m.FormatOrder(o) + "\n")
				}
				ck, err := e.Check(state, p.ID, text.String())
				if err != nil {
					tb.Fatal(err)
				}
				sent[p.ID] = ck.Canonical
			}
			out, err := e.Resolve(state, sent, 0)
			if err != nil {
				tb.Fatal(err)
			}
			state, res = out.Next, out.Report.Data
			if st, _ := e.Status(out.Next); st.Over {
				break
			}
		}
		states, results = append(states, state), append(results, res)
	}
	return states, results
}

// BenchmarkPictureBurst is the picture's share of the 10,000-game deadline
// burst: each picture of another game (64 games, mid-game positions of 4
// to 20 phases, with the phase's orders), drawn from state and results
// and PNG-encoded, one at a time, after a first picture has made what is
// made once per map. Budget: ≤ 5 ms of CPU (cpu-ms/op, the process's
// processor time, which a loaded machine inflates less than the wall
// clock) and ≤ 200 KB (png-bytes, the largest PNG).
func BenchmarkPictureBurst(b *testing.B) {
	for _, name := range []string{"standard", "ancientmed"} {
		b.Run(name, func(b *testing.B) {
			e, _ := NewEngine(name)
			states, results := burstPositions(b, e, 64)
			var buf bytes.Buffer
			// What is made once per map (its rasters, colour table,
			// glyphs) is made before the clock starts.
			if p, err := e.Draw(states[0], results[0], ""); err != nil || p.WritePNG(&buf) != nil {
				b.Fatal("the first picture failed")
			}
			largest := 0
			b.ReportAllocs()
			cpu0 := proccpu.Used()
			i := 0
			for b.Loop() {
				k := i % len(states)
				i++
				buf.Reset()
				p, err := e.Draw(states[k], results[k], "")
				if err != nil {
					b.Fatal(err)
				}
				if err := p.WritePNG(&buf); err != nil {
					b.Fatal(err)
				}
				largest = max(largest, buf.Len())
			}
			b.ReportMetric(float64(proccpu.Used()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(largest), "png-bytes")
		})
	}
}
