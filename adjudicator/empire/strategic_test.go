package empire

import (
	"strings"
	"testing"
)

// Seed, "The Strategical Phase", step 1: which units stay on the board,
// which go to the unit pool; HQs transform; the strategic supply check.
func TestDeployment(t *testing.T) {
	g := testGame(t, openBoard, `
red FAC1 A1
red RID2 B1
red RAD3 C1-D1
red RID4 C1
red TD5 F4
red AGHQ6 B1
red AHQ7 A2
red CHQ8 B2
red RAC9 B2-C2
blue FAC1 F1
blue RID2 E1`)
	g.Step = stepDeploy
	sets := map[string]*orderSet{
		"red": mustOrders(t, g, "red", "POOL RID2", "POOL RAD3", "POOL TD5", "TRANSFORM AGHQ6", "TRANSFORM AHQ7", "TRANSFORM CHQ8", "KEEP RAC9 C2"),
	}
	res := g.resolveDeploy(sets)
	want := `red FAC1 A1
red RID2 B1 pooled
red RAD3 C1 pooled
red RID4 C1
red FAC6 B1
red AB7 A2
red FB8 B2
red RAC9 C2
blue FAC1 F1
blue RID2 E1`
	if got := unitsText(g); got != want {
		t.Errorf("after deployment:\n%s\nwant:\n%s", got, want)
	}
	if strings.Join(res.Transformed, "; ") != "red AGHQ6 -> FAC6 in B1; red AHQ7 -> AB7 in A2; red CHQ8 -> FB8 in B2" {
		t.Errorf("transformed %v", res.Transformed)
	}
	// TD5 stands alone in F4, far from any territory of red: it stays.
	if strings.Join(res.PoolRefused, "; ") != "red TD5 in F4" || res.Pooled["red"] != 2 {
		t.Errorf("pools %v refused %v", res.Pooled, res.PoolRefused)
	}
	// TD5 has no strategic supply in F4: it perishes.
	if eventsText(res.Supply) != "red TD5 perished" {
		t.Errorf("supply %s", eventsText(res.Supply))
	}
	if g.Step != stepBid {
		t.Errorf("next step %s", g.Step)
	}
}

// A unit pools into a territory next to its hex, even when it stood alone.
func TestPoolNextToTerritory(t *testing.T) {
	g := testGame(t, openBoard, "red FAC1 A1\nred RID2 B1")
	g.Step = stepDeploy
	g.resolveDeploy(map[string]*orderSet{"red": mustOrders(t, g, "red", "POOL RID2")})
	if got := unitsText(g); got != "red FAC1 A1\nred RID2 A1 pooled" {
		t.Errorf("got %s", got)
	}
	// A stationary unit is never pooled.
	g = testGame(t, openBoard, "red FAC1 A1")
	g.Step = stepDeploy
	_, vs := g.collect("red", []Order{{Kind: OrderPool, Unit: "FAC1", Pos: Pos{-1, -1}}})
	if vs[0].err == nil {
		t.Error("a factory pooled")
	}
}

// Seed, "Strategical Occupation and Control": a territory with a factory
// produces the land fragments of the hexes its HQs, factories, bases and
// infantry control; armor and transports only occupy.
func TestProductionFromControlledLand(t *testing.T) {
	// A1 all land (6); B1 shoreline with 3 fragments; C1 4; D1 2.
	rows := []string{"# #..#.# #.###. ...##.", " . . . ."}
	cases := []struct {
		units string
		rate  int
	}{
		{"red FAC1 A1", 6},
		{"red FAC1 A1\nred RID2 B1", 9},
		{"red FAC1 A1\nred RAD2 B1\nred RID3 C1", 10},          // armor links B1 but does not control it
		{"red FAC1 A1\nred TD2 B1\nred CHQ3 C1", 10},           // transport the same
		{"red FAC1 A1\nred RID2 A1\nred AB3 B1", 9},            // a hex counts once
		{"red FAC1 A1\nred RID2 C1", 6},                        // C1 is not in the factory's territory
		{"red AB1 A1\nred RID2 B1", 0},                         // no factory, no production
		{"red FAC1 A1\nred FAC2 B1\nred EIC3 C1 disabled", 13}, // two factories share one territory
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.units, "\n", ", "), func(t *testing.T) {
			g := testGame(t, rows, c.units)
			if got := g.score("red"); got != c.rate {
				t.Errorf("production %d, want %d", got, c.rate)
			}
		})
	}
}

// Seed: the secret count of strategic turns; the lowest bid starts the
// tactical phase; no bid counts as the maximum.
func TestBids(t *testing.T) {
	g := testGame(t, openBoard, "red FAC1 A1\nblue FAC1 F4\ngreen FAC1 C3")
	g.Step = stepBid
	res := g.resolveBids(map[string]*orderSet{
		"red":  mustOrders(t, g, "red", "BID 4"),
		"blue": mustOrders(t, g, "blue", "BID 2"),
	})
	if res.Turns != 2 || strings.Join(res.Callers, " ") != "blue" || res.Bids["green"] != g.Opts.MaxBid {
		t.Errorf("bids %+v", res)
	}
	g.Step = stepBid
	res = g.resolveBids(map[string]*orderSet{
		"red":   mustOrders(t, g, "red", "BID 3"),
		"blue":  mustOrders(t, g, "blue", "BID 3"),
		"green": mustOrders(t, g, "green", "BID 5"),
	})
	if res.Turns != 3 || strings.Join(res.Callers, " ") != "red blue" || g.Step != stepBuild || g.Turns != 3 {
		t.Errorf("tied lowest bids %+v", res)
	}
	g.Step = stepBid
	_, vs := g.collect("red", []Order{{Kind: OrderBid, N: 0}, {Kind: OrderBid, N: 7}, {Kind: OrderBid, N: 6}})
	if vs[0].err == nil || vs[1].err == nil || vs[2].err != nil {
		t.Errorf("bid limits: %+v", vs)
	}
}

// Seed: production points = turns × fragments + savings; secret purchases
// placed in the territory; savings in factories; the unit pools laid out.
func TestProduction(t *testing.T) {
	g := testGame(t, openBoard, `
red FAC1 A1 saved=4
red FAC2 B1
red RID3 C1
red RAD4 B1 pooled
red RID5 A1 pooled
red FAC6 F4
blue FAC1 F1`)
	g.Step, g.Turns = stepBuild, 2
	// Territory A1-C1: 3 controlled all-land hexes = 18 a turn, ×2 + 4 = 40.
	// Territory F4: 6 a turn, ×2 = 12.
	s := mustOrders(t, g, "red", "BUY 2 RID C1", "BUY RAD A1", "PLACE RAD4 C1", "SAVE 3 FAC2", "BUY TD F4")
	_, vs := g.collect("red", []Order{
		{Kind: OrderBuy, Type: "AGHQ", N: 1, Pos: Pos{hex(t, g, "A1"), -1}}, // 30 > 40-20
		{Kind: OrderBuy, Type: "RID", N: 1, Pos: Pos{hex(t, g, "D1"), -1}},  // D1 is not red's
		{Kind: OrderPlace, Unit: "RID5", Pos: Pos{hex(t, g, "F4"), -1}},     // another territory
		{Kind: OrderBuy, Type: "FAC", N: 1, Pos: Pos{hex(t, g, "A1"), -1}},  // factories are not bought
	})
	if vs[0].err != nil {
		t.Errorf("AGHQ within 40: %v", vs[0].err)
	}
	for i := 1; i < 4; i++ {
		if vs[i].err == nil {
			t.Errorf("order %d accepted", i)
		}
	}
	res := g.resolveBuild(map[string]*orderSet{"red": s})
	want := `red FAC1 A1 saved=17
red FAC2 B1 saved=3
red RID3 C1
red RAD4 C1
red RID5 A1
red FAC6 F4 saved=9
red RID7 C1
red RID8 C1
red RAD9 A1
red TD10 F4
blue FAC1 F1 saved=12`
	if got := unitsText(g); got != want {
		t.Errorf("after production:\n%s\nwant:\n%s", got, want)
	}
	// Production points are conserved: saved before + produced = spent + saved after.
	before, produced, spent, after := 0, 0, 0, 0
	for _, p := range res.Production {
		before += p.Saved
		produced += p.Rate * p.Turns
		spent += p.Spent
		for _, n := range p.SavedIn {
			after += n
		}
	}
	if before+produced != spent+after {
		t.Errorf("points: %d saved + %d produced != %d spent + %d saved", before, produced, spent, after)
	}
	if g.Step != stepTactical || g.Turn != 1 {
		t.Errorf("next %s %d", g.Step, g.Turn)
	}
}

// Seed: the tactical phase ends when every player with mobile units is
// done; players without mobile units have no say.
func TestCeasefire(t *testing.T) {
	units := "red RID1 A1\nred FAC2 A1\nblue RID1 F4\nblue FAC2 F4\ngreen FAC1 C3"
	cases := []struct {
		name   string
		orders map[string][]string // nil: silent
		limit  bool
		ends   bool
	}{
		{"both agree", map[string][]string{"red": {"CEASEFIRE"}, "blue": {"CEASEFIRE", "RID1 HOLD"}}, false, true},
		{"one fights on", map[string][]string{"red": {"CEASEFIRE"}, "blue": {"RID1 HOLD"}}, false, false},
		{"silence agrees", map[string][]string{"red": {"CEASEFIRE"}}, false, true},
		{"taken back", map[string][]string{"red": {"CEASEFIRE", "NO CEASEFIRE"}, "blue": {"CEASEFIRE"}}, false, false},
		{"turn limit", map[string][]string{"red": {"RID1 HOLD"}}, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := testGame(t, openBoard, units)
			if c.limit {
				g.Turn = g.Opts.MaxTurns
			}
			sets := map[string]*orderSet{}
			for p, ls := range c.orders {
				sets[p] = mustOrders(t, g, p, ls...)
			}
			res := g.resolveTurn(sets, newRand(1))
			if res.Ends != c.ends || res.Limit != c.limit {
				t.Errorf("ends %v limit %v, want %v %v (votes %v)", res.Ends, res.Limit, c.ends, c.limit, res.Ceasefire)
			}
			if _, voted := res.Ceasefire["green"]; voted {
				t.Error("green, without mobile units, voted")
			}
			if c.ends && (g.Step != stepDeploy || g.Round != 2) || !c.ends && g.Turn != 2 {
				t.Errorf("next: round %d %s turn %d", g.Round, g.Step, g.Turn)
			}
		})
	}
	g := testGame(t, openBoard, units)
	g.Opts.SilentCeasefire = false
	if res := g.resolveTurn(map[string]*orderSet{"red": mustOrders(t, g, "red", "CEASEFIRE")}, newRand(1)); res.Ends {
		t.Error("silent_ceasefire off: silence ended the phase")
	}
}
