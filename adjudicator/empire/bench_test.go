package empire

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// battle500 is a tactical turn with 500 units in one battle: 250 red and
// 250 blue, of every mobile type, in four hexes, armor on the move over two
// of them, each side with a headquarters for supply.
func battle500(tb testing.TB) *Game {
	sc, _ := DefaultScenario()
	var mobile []*UnitType
	for _, t := range sc.Units.Types {
		if t.Mobile() {
			mobile = append(mobile, t)
		}
	}
	var lines []string
	hexes := []string{"C2", "D2", "C3", "D3"}
	for _, p := range []string{"red", "blue"} {
		for i := 1; i <= 250; i++ {
			t := mobile[i%len(mobile)]
			h := hexes[i%len(hexes)]
			switch {
			case t.fast() && i%3 == 0:
				h = "C2-D2"
			case !t.fast() && i%5 == 0:
				h = "D2-D3"
			case !t.fast() && i%7 == 0:
				h = "C3-D3"
			case !t.fast() && i%11 == 0:
				h = "C2-C3"
			}
			lines = append(lines, fmt.Sprintf("%s %s%d %s", p, t.Code, i, h))
		}
	}
	g := testGame(tb, openBoard, strings.Join(lines, "\n"))
	g.Powers = []string{"red", "blue"}
	return g
}

// BenchmarkEmpireBattle resolves a tactical turn through the engine (state
// in, state and reports out) with a 500-unit battle.
func BenchmarkEmpireBattle(b *testing.B) {
	g := battle500(b)
	e := engine(b, "empire2")
	state := g.encode("empire2")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := e.Resolve(state, nil, int64(i))
		if err != nil {
			b.Fatal(err)
		}
		if len(out.Next) == 0 {
			b.Fatal("no state")
		}
	}
}

// BenchmarkCombat500 is the combat alone of the same battle.
func BenchmarkCombat500(b *testing.B) {
	g0 := battle500(b)
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		g := g0.clone()
		b.StartTimer()
		if len(g.combat(rng, nil)) != 1 {
			b.Fatal("not one battle")
		}
	}
}

// BenchmarkResolveTurn resolves a typical turn: four powers at the start of
// the fighting, each with a dozen units, orders from the random player.
func BenchmarkResolveTurn(b *testing.B) {
	e := engine(b, "empire")
	st, err := e.New(nil, 1)
	if err != nil {
		b.Fatal(err)
	}
	g, _ := e.decode(st)
	g.Step, g.Turns = stepBuild, 2
	r := rand.New(rand.NewPCG(3, 4))
	sets := map[string]*orderSet{}
	for _, p := range g.Powers {
		s, _ := g.collect(p, g.randomOrders(p, r))
		sets[p] = s
	}
	g.resolveBuild(sets)
	st = g.encode("empire")
	ords := map[string][]string{}
	for _, p := range g.Powers {
		ords[p], _ = e.RandomOrders(st, p, r)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Resolve(st, ords, int64(i)); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBattle500(t *testing.T) {
	g := battle500(t)
	bs := g.combat(newRand(1), nil)
	if len(bs) != 1 || bs[0].Before["red"] != 250 || bs[0].Before["blue"] != 250 {
		t.Fatalf("battles %d", len(bs))
	}
	noSharedHex(t, g)
}
