package empire

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// fight runs combat on a fresh game and returns the battles.
// retreat maps "owner NAME" to the hex the unit keeps ("" for the default).
func fight(t *testing.T, units string, seed uint64, retreat map[string]string) (*Game, []*Battle) {
	t.Helper()
	g := testGame(t, openBoard, units)
	var rt map[*Unit]int
	if retreat != nil {
		g.Opts.Retreat = true
		rt = map[*Unit]int{}
		for k, h := range retreat {
			owner, name, _ := strings.Cut(k, " ")
			rt[g.find(owner, name)] = -1
			if h != "" {
				rt[g.find(owner, name)] = hex(t, g, h)
			}
		}
	}
	return g, g.combat(newRand(seed), rt)
}

// noSharedHex is the invariant after combat: no hex holds units of two
// powers.
func noSharedHex(t *testing.T, g *Game) {
	t.Helper()
	owner := map[int]string{}
	for _, u := range g.Units {
		for _, h := range u.hexes() {
			if o, ok := owner[h]; ok && o != u.Owner {
				t.Fatalf("%s holds %s and %s units after combat:\n%s", g.World.HexName(h), o, u.Owner, unitsText(g))
			}
			owner[h] = u.Owner
		}
	}
}

// Seed: "a combat capable unit only having contact with weak enemy units
// will automatically destroy all of them at once" (free extra shots).
func TestCapableAgainstWeakOnly(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		g, bs := fight(t, "red RAD1 C2\nblue TD1 C2\nblue TD2 C2\nblue TD3 C2\nblue RIC4 C2 disabled", seed, nil)
		if unitsText(g) != "red RAD1 C2" {
			t.Fatalf("seed %d: %s", seed, unitsText(g))
		}
		shots := bs[0].Shots
		if len(shots) != 4 || shots[0].Free || !shots[1].Free || !shots[2].Free || !shots[3].Free {
			t.Fatalf("seed %d: want one attack of four shots, three free: %+v", seed, shots)
		}
	}
}

// Seed, "Combat Between Weak Units": when only weak units remain they fight
// among themselves, one target per attack, until no contact is left.
func TestWeakAgainstWeak(t *testing.T) {
	outcomes := map[string]int{}
	for seed := uint64(0); seed < 200; seed++ {
		g, bs := fight(t, "red TD1 C2\nblue TD1 C2\nblue TD2 C2", seed, nil)
		noSharedHex(t, g)
		for _, s := range bs[0].Shots {
			if !s.Weak || s.Free {
				t.Fatalf("seed %d: shot %+v: want weak round shots, no free ones", seed, s)
			}
		}
		if len(bs[0].Shots) < 1 || len(bs[0].Shots) > 2 {
			t.Fatalf("seed %d: %d shots", seed, len(bs[0].Shots))
		}
		outcomes[unitsText(g)]++
	}
	if len(outcomes) < 3 {
		t.Errorf("outcomes %v: red wins, and blue wins with one or two left, all happen", outcomes)
	}
}

// A disabled unit is weak: it cannot fire while a capable enemy is there.
func TestDisabledIsWeak(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		g, _ := fight(t, "red RIC1 C2 disabled\nred RIC2 C2 disabled\nblue RAD1 C2", seed, nil)
		if unitsText(g) != "blue RAD1 C2" {
			t.Fatalf("seed %d: %s", seed, unitsText(g))
		}
	}
}

// Seed: separate conflicts are resolved separately; a unit on the move
// over two contested hexes joins their conflicts.
func TestSeparateConflicts(t *testing.T) {
	_, bs := fight(t, "red RAD1 B2\nblue RID1 B2\nred RAD2 E4\ngreen RID1 E4\nred RID3 A1\nred RID4 A1", 1, nil)
	if len(bs) != 2 {
		t.Fatalf("%d battles, want 2", len(bs))
	}
	if strings.Join(bs[0].Hexes, " ") != "B2" || strings.Join(bs[1].Hexes, " ") != "E4" {
		t.Errorf("battles in %v and %v", bs[0].Hexes, bs[1].Hexes)
	}
	_, bs = fight(t, "red RAD1 B2-C2\nblue RID1 B2\nblue RID2 C2", 1, nil)
	if len(bs) != 1 || len(bs[0].Hexes) != 2 {
		t.Errorf("a moving unit over two contested hexes: %d battles", len(bs))
	}
	if _, bs = fight(t, "red RAD1 B2\nred RID2 B2\nblue RID1 C2", 1, nil); len(bs) != 0 {
		t.Errorf("battle without contact: %+v", bs)
	}
}

// Three powers in one hex: every unit fires at any enemy; the hex ends
// with one power or none.
func TestThreePowers(t *testing.T) {
	survivors := map[string]int{}
	for seed := uint64(0); seed < 300; seed++ {
		g, _ := fight(t, "red RID1 C2\nred RID2 C2\nblue RID1 C2\nblue RID2 C2\ngreen RID1 C2\ngreen RID2 C2", seed, nil)
		noSharedHex(t, g)
		if len(g.Units) > 0 {
			survivors[g.Units[0].Owner]++
		}
	}
	for _, p := range []string{"red", "blue", "green"} {
		if survivors[p] < 60 {
			t.Errorf("%s won %d of 300 symmetric battles", p, survivors[p])
		}
	}
}

// Seed, optional rule "Retreat Instead of Attack".
func TestRetreat(t *testing.T) {
	t.Run("armor keeps the hex ordered", func(t *testing.T) {
		kept, lost := 0, 0
		for seed := uint64(0); seed < 100; seed++ {
			g, bs := fight(t, "red RAD1 C2-D2\nblue RID1 D2", seed, map[string]string{"red RAD1": "C2"})
			noSharedHex(t, g)
			switch unitsText(g) {
			case "red RAD1 C2\nblue RID1 D2":
				kept++
				if bs[0].Shots[0].Retreat != "C2" {
					t.Fatalf("shots %+v", bs[0].Shots)
				}
			case "blue RID1 D2":
				lost++
			default:
				t.Fatalf("seed %d: %s", seed, unitsText(g))
			}
		}
		if kept < 30 || lost < 30 {
			t.Errorf("retreated %d, destroyed %d of 100", kept, lost)
		}
	})
	t.Run("slower units leave the hex they half occupy", func(t *testing.T) {
		for seed := uint64(0); seed < 50; seed++ {
			g, _ := fight(t, "red RID1 C2-D2\nblue RID1 C2", seed, map[string]string{"red RID1": ""})
			noSharedHex(t, g)
			// Retreating out of D2 does not help: the enemy is in C2.
			if len(g.Units) != 1 {
				t.Fatalf("seed %d: %s", seed, unitsText(g))
			}
		}
	})
	t.Run("one conflict", func(t *testing.T) {
		_, bs := fight(t, "red RAD1 B2\nblue RID1 B2\nred RAD2 E4\ngreen RID1 E4", 1, map[string]string{})
		if len(bs) != 1 || len(bs[0].Hexes) != 2 {
			t.Errorf("with the retreat rule: %d battles", len(bs))
		}
	})
	t.Run("no retreat when standing", func(t *testing.T) {
		for seed := uint64(0); seed < 20; seed++ {
			_, bs := fight(t, "red RAD1 C2\nblue RID1 C2", seed, map[string]string{"red RAD1": ""})
			for _, s := range bs[0].Shots {
				if s.Retreat != "" {
					t.Fatal("a standing unit retreated")
				}
			}
		}
	})
}

// exactOutcomes is the exact distribution of a battle of a capable red and
// b capable blue units in one hex: each step a random unit of all alive
// fires and destroys a random enemy. Keys: "red 3" = red wins with three
// left.
func exactOutcomes(a, b int) map[string]float64 {
	p := map[[2]int]float64{{a, b}: 1}
	out := map[string]float64{}
	for total := a + b; total > 0; total-- {
		for x := 0; x <= total; x++ {
			y := total - x
			q := p[[2]int{x, y}]
			if q == 0 {
				continue
			}
			switch {
			case y == 0:
				out[fmt.Sprintf("red %d", x)] += q
				continue
			case x == 0:
				out[fmt.Sprintf("blue %d", y)] += q
				continue
			}
			n := float64(x + y)
			p[[2]int{x, y - 1}] += q * float64(x) / n
			p[[2]int{x - 1, y}] += q * float64(y) / n
		}
	}
	return out
}

// The kill distribution of the random combat matches the exact one
// (chi-square test at the 0.1% level).
func TestCombatStatistics(t *testing.T) {
	for _, c := range []struct{ a, b int }{{1, 1}, {3, 2}, {5, 5}, {8, 4}} {
		t.Run(fmt.Sprintf("%dv%d", c.a, c.b), func(t *testing.T) {
			var lines []string
			for i := 1; i <= c.a; i++ {
				lines = append(lines, fmt.Sprintf("red RAD%d C2", i))
			}
			for i := 1; i <= c.b; i++ {
				lines = append(lines, fmt.Sprintf("blue RID%d C2", i))
			}
			g0 := testGame(t, openBoard, strings.Join(lines, "\n"))
			rng := newRand(uint64(c.a*100 + c.b))
			const n = 20000
			got := map[string]int{}
			for k := 0; k < n; k++ {
				g := g0.clone()
				g.combat(rng, nil)
				got[fmt.Sprintf("%s %d", g.Units[0].Owner, len(g.Units))]++
			}
			want := exactOutcomes(c.a, c.b)
			chi, df := 0.0, -1
			rest, restE := 0, 0.0
			for _, k := range sortedKeys(want) {
				e := want[k] * n
				if e < 5 {
					rest += got[k]
					restE += e
					continue
				}
				d := float64(got[k]) - e
				chi += d * d / e
				df++
			}
			if restE > 0 {
				d := float64(rest) - restE
				chi += d * d / math.Max(restE, 1)
				df++
			}
			// Critical values of chi-square at p = 0.001.
			crit := []float64{10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32, 26.12, 27.88, 29.59, 31.26, 32.91, 34.53}
			if df < 1 {
				df = 1
			}
			if chi > crit[df-1] {
				t.Errorf("chi-square %.1f with %d degrees of freedom: got %v, want %v", chi, df, got, want)
			}
		})
	}
}

// The free shot after destroying a weak unit: red RAD1 against blue RID1
// and TD1. Red wins exactly when it fires first (probability 1/2), and then
// always destroys both blue units.
func TestFreeShotDistribution(t *testing.T) {
	red := 0
	const n = 4000
	rng := newRand(9)
	g0 := testGame(t, openBoard, "red RAD1 C2\nblue RID1 C2\nblue TD2 C2")
	for k := 0; k < n; k++ {
		g := g0.clone()
		g.combat(rng, nil)
		switch unitsText(g) {
		case "red RAD1 C2":
			red++
		case "blue RID1 C2\nblue TD2 C2":
		default:
			t.Fatalf("outcome %s", unitsText(g))
		}
	}
	if d := math.Abs(float64(red)/n - 0.5); d > 0.03 {
		t.Errorf("red won %d of %d", red, n)
	}
}

// The same seed gives the same battle; another seed another one.
func TestCombatDeterministic(t *testing.T) {
	units := "red RAD1 C2\nred RAD2 C2\nred RID3 C2-D2\nblue RID1 C2\nblue RID2 D2\nblue RAD3 D2\ngreen RAD1 D2"
	text := func(seed uint64) string {
		_, bs := fight(t, units, seed, nil)
		var b strings.Builder
		for _, bt := range bs {
			for _, s := range bt.Shots {
				b.WriteString(shotLine(s) + "\n")
			}
		}
		return b.String()
	}
	if first, again := text(5), text(5); first != again {
		t.Error("same seed, different battles")
	}
	differ := false
	for s := uint64(6); s < 12; s++ {
		differ = differ || text(s) != text(5)
	}
	if !differ {
		t.Error("the seed changes nothing")
	}
}
