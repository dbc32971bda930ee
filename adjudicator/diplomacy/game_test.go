package diplomacy

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"pbemd/adjudicator"
	"pbemd/orders"
)

// randomOrders writes a random set of legal orders for every power (some
// powers now and then send nothing, to exercise civil disorder).
func randomOrders(pos *Position, r *rand.Rand) []PowerOrder {
	m := pos.Map
	var out []PowerOrder
	switch pos.Phase.Type {
	case Movement:
		chk := testCheck(pos)
		n := len(pos.Units)
		ords := make([]orders.Order, n)
		special := make([]bool, n)
		for i, u := range pos.Units {
			ords[i] = orders.Order{Kind: orders.Hold, Unit: u.Type, Loc: u.Loc}
		}
		// Convoys first: a fleet at sea carries a neighbouring army.
		for f, u := range pos.Units {
			pi := m.provIdx[u.Loc.Province]
			if u.Type != orders.Fleet || !m.convoyable(pi) || r.IntN(3) != 0 {
				continue
			}
			for a, v := range pos.Units {
				api := m.provIdx[v.Loc.Province]
				if v.Type != orders.Army || special[a] || !m.seaNear[pi].has(api) {
					continue
				}
				var dests []int
				for p := range m.Provinces {
					k := m.Provinces[p].Kind
					if p != api && m.seaNear[pi].has(p) && (k == Coast || k == Archipelago) {
						dests = append(dests, p)
					}
				}
				if len(dests) == 0 {
					continue
				}
				to := m.Provinces[dests[r.IntN(len(dests))]].ID
				ords[a] = orders.Order{Kind: orders.Move, Unit: v.Type, Loc: v.Loc, Target: orders.Location{Province: to}, ViaConvoy: r.IntN(2) == 0}
				ords[f] = orders.Order{Kind: orders.Convoy, Unit: u.Type, Loc: u.Loc, AuxUnit: orders.Army, Aux: v.Loc, Target: orders.Location{Province: to}}
				special[a], special[f] = true, true
				break
			}
		}
		// Moves and holds.
		support := make([]bool, n)
		for i, u := range pos.Units {
			if special[i] {
				continue
			}
			switch x := r.IntN(10); {
			case x < 2:
				continue // hold
			case x < 4:
				support[i] = true
				continue
			}
			var moves []orders.Order
			for p := range m.Provinces {
				o := orders.Order{Kind: orders.Move, Unit: u.Type, Loc: u.Loc, Target: orders.Location{Province: m.Provinces[p].ID}}
				if u.Type == orders.Fleet && len(m.Provinces[p].Coasts) > 0 {
					o.Target.Coast = m.Provinces[p].Coasts[r.IntN(len(m.Provinces[p].Coasts))]
				}
				if _, why := chk.legal(pos, PowerOrder{u.Power, o}); why == "" && (m.army[m.provIdx[u.Loc.Province]].has(p) || u.Type == orders.Fleet) {
					moves = append(moves, o)
				}
			}
			if len(moves) > 0 {
				ords[i] = moves[r.IntN(len(moves))]
			}
		}
		// Supports of a neighbouring unit's order.
		for i, u := range pos.Units {
			if !support[i] {
				continue
			}
			var cands, attacks []orders.Order
			for j, v := range pos.Units {
				if j == i {
					continue
				}
				o := ords[j]
				var s orders.Order
				if o.Kind == orders.Move {
					s = orders.Order{Kind: orders.SupportMove, Unit: u.Type, Loc: u.Loc, AuxUnit: v.Type, Aux: v.Loc, Target: orders.Location{Province: o.Target.Province}}
				} else {
					s = orders.Order{Kind: orders.SupportHold, Unit: u.Type, Loc: u.Loc, AuxUnit: v.Type, Aux: v.Loc}
				}
				if _, why := chk.legal(pos, PowerOrder{u.Power, s}); why == "" {
					cands = append(cands, s)
					if v.Power == u.Power && o.Kind == orders.Move {
						attacks = append(attacks, s)
					}
				}
			}
			if len(attacks) > 0 && r.IntN(4) > 0 {
				ords[i] = attacks[r.IntN(len(attacks))]
			} else if len(cands) > 0 {
				ords[i] = cands[r.IntN(len(cands))]
			}
		}
		silent := map[string]bool{}
		for _, p := range m.Powers {
			silent[p.ID] = r.IntN(12) == 0
		}
		for i, u := range pos.Units {
			if _, why := chk.legal(pos, PowerOrder{u.Power, ords[i]}); why != "" || silent[u.Power] {
				continue
			}
			out = append(out, PowerOrder{u.Power, ords[i]})
		}
	case Retreats:
		for _, d := range pos.Dislodged {
			if len(d.Options) > 0 && r.IntN(5) > 0 {
				p, c := splitLoc(d.Options[r.IntN(len(d.Options))])
				out = append(out, PowerOrder{d.Power, orders.Order{Kind: orders.Retreat, Unit: d.Type, Loc: d.Loc, Target: orders.Location{Province: p, Coast: c}}})
			} else if r.IntN(2) == 0 {
				out = append(out, PowerOrder{d.Power, orders.Order{Kind: orders.Disband, Unit: d.Type, Loc: d.Loc}})
			}
		}
	case Adjustments:
		owed := Owed(pos)
		for _, p := range m.Powers {
			n := owed[p.ID]
			if n == 0 || r.IntN(5) == 0 {
				continue
			}
			if n > 0 {
				homes := freeHomes(pos, p.ID)
				r.Shuffle(len(homes), func(i, j int) { homes[i], homes[j] = homes[j], homes[i] })
				for k := 0; k < n && k < len(homes); k++ {
					pr, _ := m.Province(homes[k])
					o := orders.Order{Kind: orders.Build, Unit: orders.Army, Loc: orders.Location{Province: pr.ID}}
					if pr.Kind == Coast && r.IntN(2) == 0 {
						o.Unit = orders.Fleet
						if len(pr.Coasts) > 0 {
							o.Loc.Coast = pr.Coasts[r.IntN(len(pr.Coasts))]
						}
					}
					if r.IntN(8) == 0 {
						o = orders.Order{Kind: orders.Waive}
					}
					out = append(out, PowerOrder{p.ID, o})
				}
				continue
			}
			var mine []Unit
			for _, u := range pos.Units {
				if u.Power == p.ID {
					mine = append(mine, u)
				}
			}
			r.Shuffle(len(mine), func(i, j int) { mine[i], mine[j] = mine[j], mine[i] })
			for k := 0; k < -n-r.IntN(2) && k < len(mine); k++ {
				out = append(out, PowerOrder{p.ID, orders.Order{Kind: orders.Disband, Unit: mine[k].Type, Loc: mine[k].Loc}})
			}
		}
	}
	return out
}

func testCheck(pos *Position) *moveCheck {
	m := pos.Map
	c := &moveCheck{m: m, unitAt: make([]int, len(m.Provinces)), units: pos.Units}
	for i := range c.unitAt {
		c.unitAt[i] = -1
	}
	for i, u := range pos.Units {
		pi := m.provIdx[u.Loc.Province]
		c.unitAt[pi] = i
		if u.Type == orders.Fleet && m.convoyable(pi) {
			c.fleets.set(pi)
		}
	}
	return c
}

// checkStep verifies the invariants of one adjudicated phase.
func checkStep(t *testing.T, before *Position, res *Result) {
	t.Helper()
	next := res.Next
	m := before.Map
	if err := next.Validate(); err != nil {
		t.Fatalf("%s: next position invalid: %v", before.Phase.ID(), err)
	}
	for _, o := range res.Orders {
		switch o.Outcome {
		case Succeeded:
		case Failed, Invalid, Illegal:
			if o.Reason == "" {
				t.Errorf("%s: %s %s: %s without a reason", before.Phase.ID(), o.Power, o.Text, o.Outcome)
			}
		default:
			t.Errorf("%s: %s %s: outcome %q", before.Phase.ID(), o.Power, o.Text, o.Outcome)
		}
	}
	// Supply centres: always the map's total, owned ones never become unowned.
	owned := 0
	for sc, pw := range next.Owners {
		if p, ok := m.Province(sc); !ok || !p.SupplyCenter || pw == "" {
			t.Fatalf("bad owner entry %s=%s", sc, pw)
		}
		owned++
	}
	if owned < len(before.Owners) || owned > len(m.SupplyCentres()) {
		t.Errorf("%s: %d owned centres after %d", before.Phase.ID(), owned, len(before.Owners))
	}
	count := func(us []Unit) map[string]int {
		c := map[string]int{}
		for _, u := range us {
			c[u.Power]++
		}
		return c
	}
	b, a := count(before.Units), count(next.Units)
	switch before.Phase.Type {
	case Movement:
		d := map[string]int{}
		for _, x := range next.Dislodged {
			d[x.Power]++
		}
		for _, p := range m.Powers {
			if a[p.ID]+d[p.ID] != b[p.ID] {
				t.Errorf("%s: %s had %d units, now %d plus %d dislodged", before.Phase.ID(), p.ID, b[p.ID], a[p.ID], d[p.ID])
			}
		}
		if len(next.Dislodged) > 0 && next.Phase.Type != Retreats {
			t.Errorf("dislodged units but next phase %s", next.Phase.ID())
		}
	case Retreats:
		d, gone := map[string]int{}, count(res.Disbanded)
		for _, x := range before.Dislodged {
			d[x.Power]++
		}
		for _, p := range m.Powers {
			if a[p.ID] != b[p.ID]+d[p.ID]-gone[p.ID] {
				t.Errorf("%s: %s: %d units + %d dislodged - %d disbanded != %d", before.Phase.ID(), p.ID, b[p.ID], d[p.ID], gone[p.ID], a[p.ID])
			}
		}
	case Adjustments:
		built, gone := count(res.Built), count(res.Disbanded)
		centres := before.CentreCount()
		for _, p := range m.Powers {
			if a[p.ID] != b[p.ID]+built[p.ID]-gone[p.ID] {
				t.Errorf("%s: %s: unit count %d + %d - %d != %d", before.Phase.ID(), p.ID, b[p.ID], built[p.ID], gone[p.ID], a[p.ID])
			}
			if b[p.ID] > centres[p.ID] && a[p.ID] != centres[p.ID] {
				t.Errorf("%s: %s has %d units for %d centres after disbanding", before.Phase.ID(), p.ID, a[p.ID], centres[p.ID])
			}
			if b[p.ID] <= centres[p.ID] && (a[p.ID] < b[p.ID] || a[p.ID] > centres[p.ID]) {
				t.Errorf("%s: %s went from %d to %d units with %d centres", before.Phase.ID(), p.ID, b[p.ID], a[p.ID], centres[p.ID])
			}
		}
	}
}

// playGame plays a seeded random game for the given number of years and
// returns every phase's encoded state.
// gameStats counts what happened in random games, to show the generator
// exercises the rules rather than holding everywhere.
type gameStats struct {
	moves, convoyed, dislodged, retreated, built, disbanded, adjustPhases int
}

func playGame(t *testing.T, m *Map, seed uint64, years int, st *gameStats) []string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	pos := m.NewPosition()
	var states []string
	phases := 0
	for pos.Phase.Year < m.StartYear+years {
		ords := randomOrders(pos, r)
		res, err := Adjudicate(pos, ords)
		if err != nil {
			t.Fatalf("%s: %v", pos.Phase.ID(), err)
		}
		checkStep(t, pos, res)
		if st != nil {
			for _, o := range res.Orders {
				if o.Order.Kind == orders.Move && o.Outcome == Succeeded {
					st.moves++
					if o.Order.ViaConvoy || !m.ArmyBorder(o.Order.Loc.Province, o.Order.Target.Province) && o.Order.Unit == orders.Army {
						st.convoyed++
					}
				}
				if o.Order.Kind == orders.Retreat && o.Outcome == Succeeded {
					st.retreated++
				}
			}
			st.dislodged += len(res.Dislodged)
			st.built += len(res.Built)
			st.disbanded += len(res.Disbanded)
			if pos.Phase.Type == Adjustments {
				st.adjustPhases++
			}
		}
		states = append(states, string(encodeState(&gameState{pos: res.Next})))
		phases++
		if res.Winner != "" {
			t.Logf("%s wins in %s", res.Winner, pos.Phase.ID())
			break
		}
		pos = res.Next
	}
	if phases < 2*years {
		t.Errorf("only %d phases played", phases)
	}
	return states
}

func TestRandomGames(t *testing.T) {
	for _, name := range []string{"standard", "ancientmed"} {
		m, _ := MapByName(name)
		var st gameStats
		for seed := uint64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("%s/seed%d", name, seed), func(t *testing.T) {
				playGame(t, m, seed, 12, &st)
			})
		}
		t.Logf("%s: %+v", name, st)
		if st.moves < 100 || st.convoyed == 0 || st.dislodged == 0 || st.retreated == 0 || st.built == 0 || st.disbanded == 0 || st.adjustPhases == 0 {
			t.Errorf("%s: random games exercise too little: %+v", name, st)
		}
	}
}

// TestRandomGameThroughEngine plays a random game through the text
// interface: orders are printed, checked by Engine.Check, stored as canonical
// lines and resolved by Engine.Resolve; every state must equal the one the
// typed API gives.
func TestRandomGameThroughEngine(t *testing.T) {
	for _, name := range []string{"standard", "ancientmed"} {
		t.Run(name, func(t *testing.T) {
			e, ok := adjudicator.Lookup(name)
			if !ok {
				t.Fatal("engine not registered")
			}
			m, _ := MapByName(name)
			r := rand.New(rand.NewPCG(7, 11))
			state, err := e.New(nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			pos := m.NewPosition()
			for pos.Phase.Year < m.StartYear+10 {
				ords := randomOrders(pos, r)
				res, err := Adjudicate(pos, ords)
				if err != nil {
					t.Fatal(err)
				}
				text := map[string]string{}
				for _, o := range ords {
					text[o.Power] += m.FormatOrder(o.Order) + "\n"
				}
				lines := map[string][]string{}
				for _, p := range sortedKeys(text) {
					ck, err := e.Check(state, p, text[p])
					if err != nil {
						t.Fatal(err)
					}
					for _, l := range ck.Lines {
						for _, d := range l.Diags {
							if d.Severity == orders.Error {
								t.Errorf("%s %s: line %q: %s", pos.Phase.ID(), p, l.Text, d.Message)
							}
						}
					}
					lines[p] = ck.Canonical
				}
				out, err := e.Resolve(state, lines, 0)
				if err != nil {
					t.Fatal(err)
				}
				want := encodeState(&gameState{pos: res.Next, over: res.Winner != "", winners: winners(res)})
				if !bytes.Equal(out.Next, want) {
					t.Fatalf("%s: engine state differs from the typed adjudication\n got %s\nwant %s", pos.Phase.ID(), out.Next, want)
				}
				if out.Report.Public == "" || len(out.Report.Data) == 0 {
					t.Fatalf("%s: empty report", pos.Phase.ID())
				}
				if res.Winner != "" {
					break
				}
				state, pos = out.Next, res.Next
			}
		})
	}
}

func winners(res *Result) []string {
	if res.Winner == "" {
		return nil
	}
	return []string{res.Winner}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestDeterminism: the same game twice gives the same states, and one busy
// phase resolved 100 times through the engine gives byte-identical output.
func TestDeterminism(t *testing.T) {
	m, _ := MapByName("standard")
	a := playGame(t, m, 42, 6, nil)
	b := playGame(t, m, 42, 6, nil)
	if len(a) != len(b) {
		t.Fatalf("%d phases, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("phase %d differs", i)
		}
	}
	e, _ := adjudicator.Lookup("standard")
	state, lines := midgame(t)
	var first adjudicator.Outcome
	for i := 0; i < 100; i++ {
		out, err := e.Resolve(state, lines, int64(i))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = out
			continue
		}
		if !bytes.Equal(out.Next, first.Next) || out.Report.Public != first.Report.Public || !bytes.Equal(out.Report.Data, first.Report.Data) || fmt.Sprint(out.Report.Private) != fmt.Sprint(first.Report.Private) {
			t.Fatalf("run %d differs from run 1", i+1)
		}
	}
}

// FuzzAdjudicate feeds random order sets (seeded from the fuzz input) to the
// resolver on both maps: it must never panic and always keep the invariants.
func FuzzAdjudicate(f *testing.F) {
	f.Add(uint64(1), uint8(3), false)
	f.Add(uint64(99), uint8(8), true)
	f.Fuzz(func(t *testing.T, seed uint64, phases uint8, ancient bool) {
		name := "standard"
		if ancient {
			name = "ancientmed"
		}
		m, _ := MapByName(name)
		r := rand.New(rand.NewPCG(seed, 1))
		pos := m.NewPosition()
		for i := 0; i < int(phases%24); i++ {
			ords := randomOrders(pos, r)
			// Mix in some nonsense: orders for other powers' units, and
			// orders of the wrong phase.
			if len(pos.Units) > 0 && r.IntN(2) == 0 {
				u := pos.Units[r.IntN(len(pos.Units))]
				other := m.Powers[r.IntN(len(m.Powers))].ID
				kinds := []orders.OrderKind{orders.Hold, orders.Retreat, orders.Build, orders.Disband, orders.Waive, orders.Convoy}
				ords = append(ords, PowerOrder{other, orders.Order{Kind: kinds[r.IntN(len(kinds))], Unit: u.Type, Loc: u.Loc, Aux: u.Loc, Target: u.Loc}})
			}
			res, err := Adjudicate(pos, ords)
			if err != nil {
				t.Fatal(err)
			}
			checkStep(t, pos, res)
			if res.Winner != "" {
				return
			}
			pos = res.Next
		}
	})
}
