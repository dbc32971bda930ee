package empire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// gameStats counts what random games exercised.
type gameStats struct {
	phases, battles, shots, freeShots, weakShots, retreats  int
	perished, disabled, restored, sacrificed, transformed   int
	pooled, bought, saved, eliminated, ceasefires, limitEnd int
}

func (s *gameStats) add(o *gameStats) {
	s.phases += o.phases
	s.battles += o.battles
	s.shots += o.shots
	s.freeShots += o.freeShots
	s.weakShots += o.weakShots
	s.retreats += o.retreats
	s.perished += o.perished
	s.disabled += o.disabled
	s.restored += o.restored
	s.sacrificed += o.sacrificed
	s.transformed += o.transformed
	s.pooled += o.pooled
	s.bought += o.bought
	s.saved += o.saved
	s.eliminated += o.eliminated
	s.ceasefires += o.ceasefires
	s.limitEnd += o.limitEnd
}

// playRandom plays a seeded random game through the engine to its end and
// checks the invariants after every phase. It returns every state.
func playRandom(t *testing.T, name string, opts map[string]string, seed uint64, st *gameStats) [][]byte {
	t.Helper()
	e := engine(t, name)
	state, err := e.New(opts, int64(seed))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 77))
	states := [][]byte{state}
	prevID := ""
	for n := 0; ; n++ {
		if n > 2000 {
			t.Fatalf("seed %d: no end after %d phases", seed, n)
		}
		s, err := e.Status(state)
		if err != nil {
			t.Fatal(err)
		}
		// Phase ids are stable and sortable: each is after the one before.
		if s.ID <= prevID {
			t.Fatalf("seed %d: phase %s after %s", seed, s.ID, prevID)
		}
		prevID = s.ID
		if s.Over {
			if len(s.Waiting) != 0 {
				t.Errorf("a finished game waits for %v", s.Waiting)
			}
			return states
		}
		before, _ := e.decode(state)
		ords := map[string][]string{}
		for _, p := range s.Waiting {
			if r.IntN(15) == 0 {
				continue // silent
			}
			lines, err := e.RandomOrders(state, p, r)
			if err != nil {
				t.Fatal(err)
			}
			// Garbage and illegal orders among them never hurt.
			text := strings.Join(lines, "\n")
			if r.IntN(5) == 0 {
				text += "\nRID99 A1-B1\nBUY 3 XYZ C4\nwhat now?\nBID 0"
			}
			ck, err := e.Check(state, p, text)
			if err != nil {
				t.Fatalf("check: %v", err)
			}
			if len(ck.Canonical) != len(lines) {
				t.Fatalf("seed %d %s %s: check kept %v of %v", seed, s.ID, p, ck.Canonical, lines)
			}
			ords[p] = ck.Canonical
		}
		out, err := e.Resolve(state, ords, int64(seed)*1000+int64(n))
		if err != nil {
			t.Fatalf("seed %d %s: %v", seed, s.ID, err)
		}
		var prs []*PhaseResult
		if err := json.Unmarshal(out.Report.Data, &prs); err != nil {
			t.Fatal(err)
		}
		after, err := e.decode(out.Next)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, before, after, prs, out.Report.Public)
		if st != nil {
			st.count(prs)
		}
		// The state re-encodes byte for byte.
		if !bytes.Equal(after.encode(name), out.Next) {
			t.Fatal("state encoding not stable")
		}
		state = out.Next
		states = append(states, state)
	}
}

func (st *gameStats) count(prs []*PhaseResult) {
	for _, pr := range prs {
		st.phases++
		st.eliminated += len(pr.Eliminated)
		if d := pr.Deploy; d != nil {
			st.transformed += len(d.Transformed)
			for _, n := range d.Pooled {
				st.pooled += n
			}
			st.supply(d.Supply)
		}
		if b := pr.Build; b != nil {
			for _, p := range b.Production {
				st.bought += len(p.Bought)
				if len(p.SavedIn) > 0 {
					st.saved++
				}
			}
		}
		if tr := pr.Turn; tr != nil {
			st.battles += len(tr.Battles)
			for _, b := range tr.Battles {
				for _, s := range b.Shots {
					st.shots++
					switch {
					case s.Retreat != "":
						st.retreats++
					case s.Free:
						st.freeShots++
					case s.Weak:
						st.weakShots++
					}
				}
			}
			st.supply(tr.Supply)
			if tr.Ends && !tr.Limit {
				st.ceasefires++
			}
			if tr.Limit {
				st.limitEnd++
			}
		}
	}
}

func (st *gameStats) supply(evs []SupplyEvent) {
	for _, e := range evs {
		switch e.What {
		case "perished":
			st.perished++
		case "disabled":
			st.disabled++
		case "restored":
			st.restored++
		case "sacrificed":
			st.sacrificed++
		}
	}
}

// checkInvariants checks one Resolve call.
func checkInvariants(t *testing.T, before, after *Game, prs []*PhaseResult, public string) {
	t.Helper()
	w := after.World
	owner := map[int]string{}
	for _, u := range after.Units {
		if !after.alive(u.Owner) {
			t.Fatalf("%s: unit %s of eliminated %s", after.phaseID(), u.Name(), u.Owner)
		}
		if u.Pooled != false && after.Step != stepBid && after.Step != stepBuild {
			t.Fatalf("%s: %s pooled outside a strategic phase", after.phaseID(), u.Name())
		}
		if u.To >= 0 && (after.Step == stepBid || after.Step == stepBuild || !w.Linked(u.At, u.To)) {
			t.Fatalf("%s: %s on the move %s", after.phaseID(), u.Name(), after.posName(u.pos()))
		}
		if w.Fragments(u.At) == 0 {
			t.Fatalf("%s: %s in open water", after.phaseID(), u.Name())
		}
		for _, h := range u.hexes() {
			// No hex holds units of two powers after combat.
			if o, ok := owner[h]; ok && o != u.Owner {
				t.Fatalf("%s: %s holds units of %s and %s", after.phaseID(), w.HexName(h), o, u.Owner)
			}
			owner[h] = u.Owner
		}
	}
	for _, pr := range prs {
		// Production points are conserved: saved before + produced =
		// spent + saved after.
		if b := pr.Build; b != nil {
			for _, p := range b.Production {
				after := 0
				for _, n := range p.SavedIn {
					after += n
				}
				if p.Saved+p.Rate*p.Turns != p.Spent+after || p.Spent > p.Budget {
					t.Fatalf("%s: points of %s not conserved: %+v", pr.Phase, p.Territory, p)
				}
			}
		}
		if tr := pr.Turn; tr != nil {
			for _, b := range tr.Battles {
				lost := 0
				for _, n := range b.Lost {
					lost += n
				}
				kills := 0
				for _, s := range b.Shots {
					if s.Target != "" {
						kills++
					}
				}
				if kills != lost {
					t.Fatalf("%s: %d shots hit, %d units lost", pr.Phase, kills, lost)
				}
			}
		}
	}
	// Unsupplied units are handled: after a tactical turn, no unit that
	// must have tactical supply stands able in a group without a generator,
	// unless its power sacrificed a unit this turn.
	last := prs[len(prs)-1]
	if last.Turn != nil && !last.Turn.Ends && after.Step == stepTactical {
		sacrificed := map[string]bool{}
		for _, e := range last.Turn.Supply {
			if e.What == "sacrificed" {
				sacrificed[e.Power] = true
			}
		}
		for _, p := range after.alivePowers() {
			for _, gr := range after.groups(p) {
				gen := false
				for _, u := range gr.Units {
					gen = gen || u.Type.Tactical.Produces == "full" && !u.Disabled
				}
				for _, u := range gr.Units {
					if !gen && u.Type.Tactical.Needs() && !u.Disabled && !sacrificed[p] {
						t.Fatalf("%s: %s %s has no tactical supply and was not handled", after.phaseID(), p, u.Name())
					}
				}
			}
		}
	}
	if strings.TrimSpace(public) == "" {
		t.Fatal("empty public report")
	}
}

func TestRandomGames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		opts  map[string]string
		seeds int
	}{
		{"empire2", nil, 6},
		{"empire", nil, 4},
		{"empire3", map[string]string{"units": "reduced", "retreat": "on"}, 3},
		{"empire-random", map[string]string{"fog": "2"}, 3},
		{"empire2", map[string]string{"world": "generated", "silent_ceasefire": "off", "max_rounds": "4"}, 3},
	}
	// The games run side by side, each counting into its own stats; the
	// group returns when all have ended.
	var stats []*gameStats
	t.Run("games", func(t *testing.T) {
		for _, c := range cases {
			for seed := uint64(1); seed <= uint64(c.seeds); seed++ {
				st := &gameStats{}
				stats = append(stats, st)
				t.Run(fmt.Sprintf("%s/%v/%d", c.name, c.opts, seed), func(t *testing.T) {
					t.Parallel()
					playRandom(t, c.name, c.opts, seed, st)
				})
			}
		}
	})
	total := &gameStats{}
	for _, st := range stats {
		total.add(st)
	}
	t.Logf("%+v", *total)
	// The random games exercise the rules, not only hold positions.
	for k, v := range map[string]int{"battles": total.battles, "free shots": total.freeShots, "weak shots": total.weakShots,
		"retreats": total.retreats, "perished": total.perished, "disabled": total.disabled, "restored": total.restored,
		"sacrificed": total.sacrificed, "transformed": total.transformed, "pooled": total.pooled, "bought": total.bought,
		"saved": total.saved, "eliminated": total.eliminated, "ceasefires": total.ceasefires} {
		if v == 0 {
			t.Errorf("random games never saw %s", k)
		}
	}
}

// The same seed plays the same game byte for byte.
func TestDeterministicGame(t *testing.T) {
	t.Parallel()
	a := playRandom(t, "empire", nil, 3, nil)
	b := playRandom(t, "empire", nil, 3, nil)
	if len(a) != len(b) {
		t.Fatalf("%d phases, then %d", len(a), len(b))
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Fatalf("phase %d differs", i)
		}
	}
	c := playRandom(t, "empire", nil, 4, nil)
	if len(c) == len(a) && bytes.Equal(c[len(c)-1], a[len(a)-1]) {
		t.Error("two seeds played the same game")
	}
}
