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
// powers now and then send nothing, and some retreats, builds and disbands
// are left to civil disorder).
func randomOrders(pos *Position, r *rand.Rand) []PowerOrder {
	return RandomOrders(pos, r, RandomOptions{SilentOdds: 12, Gaps: true})
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
				if o.Order.Kind == Move && o.Outcome == Succeeded {
					st.moves++
					if o.Order.ViaConvoy || !m.ArmyBorder(o.Order.Loc.Province, o.Order.Target.Province) && o.Order.Unit == Army {
						st.convoyed++
					}
				}
				if o.Order.Kind == Retreat && o.Outcome == Succeeded {
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
				kinds := []OrderKind{Hold, Retreat, Build, Disband, Waive, Convoy}
				ords = append(ords, PowerOrder{other, Order{Kind: kinds[r.IntN(len(kinds))], Unit: u.Type, Loc: u.Loc, Aux: u.Loc, Target: u.Loc}})
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
