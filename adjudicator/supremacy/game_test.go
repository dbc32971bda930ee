package supremacy

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"pbemd/adjudicator"
)

func engineFor(t testing.TB, powers string) *Engine {
	t.Helper()
	e, err := NewEngine("test", "test", map[string]string{"powers": powers})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

const sixPowers = "usa,commonwealth,eu,russia,china,japan"

// TestBotGames plays whole games with seeded bots to their end (turn limit,
// nuclear winter or last player standing) and checks the invariants after
// every phase: money conserved between bank and players, no piece in a
// contaminated area, reserves within their columns, one army owner per
// area, no private figure in the public report.
func TestBotGames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		powers string
		opts   map[string]string
		seeds  int
	}{
		{"usa,russia,china", map[string]string{}, 4},
		{sixPowers, map[string]string{}, 4},
		{sixPowers, map[string]string{"fast": "yes", "turns": "12"}, 4},
		{"usa,eu,russia,china,japan", map[string]string{"slow": "yes"}, 2},
		{"usa,commonwealth,eu,russia,china,japan,brazil,middleeast", map[string]string{"fast": "yes"}, 2},
		{"usa,russia,china", map[string]string{"steps": "attack", "fast": "yes", "turns": "5"}, 2},
		{"usa,eu,russia,china", map[string]string{"steps": "all", "fast": "yes", "turns": "3"}, 2},
		{"usa,eu,russia,china", map[string]string{"steps": "all", "build": "together", "turns": "2"}, 1},
	}
	for _, c := range cases {
		for seed := int64(1); seed <= int64(c.seeds); seed++ {
			t.Run(fmt.Sprintf("%s/%v/%d", c.powers, c.opts, seed), func(t *testing.T) {
				t.Parallel() // each a game of its own
				e := engineFor(t, c.powers)
				phases := 0
				final := playGame(t, e, c.opts, seed, 5000, func(ph int, st []byte, o *outcomeView) {
					phases++
					w, err := decodeWorld(st)
					if err != nil {
						t.Fatal(err)
					}
					if err := invariants(w); err != nil {
						t.Fatalf("after phase %d: %v\n%s", ph, err, o.public)
					}
					for _, p := range w.players {
						if p.alive() && strings.Contains(o.public, "cash "+money(p.Cash)) {
							t.Fatalf("public report shows %s's cash", p.ID)
						}
					}
					for _, id := range o.status.Waiting {
						if !contains(o.status.Alive, id) {
							t.Fatalf("%s waited for but not alive", id)
						}
					}
				})
				st, err := e.Status(final)
				if err != nil {
					t.Fatal(err)
				}
				if !st.Over {
					t.Fatalf("game not over after %d phases: %s", phases, st.ID)
				}
				w, _ := decodeWorld(final)
				if len(w.ranking) != len(w.players) {
					t.Fatalf("ranking %v", w.ranking)
				}
			})
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestDeterministic plays the same seeded game twice: every state and
// report must be byte-identical.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	for _, steps := range []string{StepsNone, StepsAttack} {
		t.Run(steps, func(t *testing.T) {
			t.Parallel()
			record := func() []string {
				var log []string
				e := engineFor(t, sixPowers)
				playGame(t, e, map[string]string{"steps": steps, "fast": "yes", "turns": "4"}, 99, 5000, func(ph int, st []byte, o *outcomeView) {
					log = append(log, string(st), o.public, fmt.Sprint(o.private))
				})
				return log
			}
			a, b := record(), record()
			if len(a) != len(b) {
				t.Fatalf("%d vs %d phases", len(a), len(b))
			}
			for k := range a {
				if a[k] != b[k] {
					t.Fatalf("entry %d differs:\n%s\n---\n%s", k, a[k], b[k])
				}
			}
		})
	}
}

// TestStateRoundTrip: decoding and encoding a state changes nothing, and
// a state with an unknown field or another version is refused.
func TestStateRoundTrip(t *testing.T) {
	e := engineFor(t, sixPowers)
	playGame(t, e, map[string]string{"fast": "yes", "turns": "3"}, 5, 5000, func(ph int, st []byte, o *outcomeView) {
		w, err := decodeWorld(st)
		if err != nil {
			t.Fatal(err)
		}
		if again := w.encode(); !bytes.Equal(again, st) {
			t.Fatalf("phase %d: re-encoded state differs", ph)
		}
	})
	st, _ := e.New(nil, 1)
	for _, bad := range []string{
		strings.Replace(string(st), `"version":1`, `"version":2`, 1),
		strings.Replace(string(st), `"turn":0`, `"turn":0,"colour":"red"`, 1),
		strings.Replace(string(st), `"scenario":"default"`, `"scenario":"mars"`, 1),
		strings.Replace(string(st), `"id":"usa"`, `"id":"atlantis"`, 1),
	} {
		if bad == string(st) {
			t.Fatal("replacement did not apply")
		}
		if _, err := decodeWorld([]byte(bad)); err == nil {
			t.Errorf("accepted %.80s…", bad)
		}
	}
}

// TestOptions: the options a game may set, and their errors.
func TestOptions(t *testing.T) {
	e := engineFor(t, sixPowers)
	good := []map[string]string{
		nil, {"fast": "yes"}, {"slow": "on", "turns": "20"}, {"steps": "attack"}, {"steps": "all", "build": "together"},
		{"powers": "usa, russia"}, {"scenario": "default"},
	}
	for _, o := range good {
		if _, err := e.New(o, 1); err != nil {
			t.Errorf("New(%v): %v", o, err)
		}
	}
	bad := map[string]map[string]string{
		"unknown option":    {"colour": "red"},
		"not a number":      {"turns": "many"},
		"too many turns":    {"turns": "100"},
		"not yes or no":     {"fast": "maybe"},
		"steps":             {"steps": "some"},
		"not a superpower":  {"powers": "usa,atlantis"},
		"at least two":      {"powers": "usa"},
		"twice":             {"powers": "usa,usa"},
		"no scenario":       {"scenario": "mars"},
		"build is together": {"build": "sometimes"},
	}
	for name, o := range bad {
		if _, err := e.New(o, 1); err == nil {
			t.Errorf("%s: New(%v) accepted", name, o)
		}
	}
	// the fast game deals 6 cards and gives the ICBM technology
	st, _ := e.New(map[string]string{"fast": "yes"}, 3)
	w, _ := decodeWorld(st)
	for i, p := range w.players {
		if n := len(w.companies(i)); n != 6 || !p.TechICBM {
			t.Errorf("fast game: %s has %d cards, ICBM %v", p.ID, n, p.TechICBM)
		}
	}
	st, _ = e.New(nil, 3)
	w, _ = decodeWorld(st)
	for i, p := range w.players {
		if n := len(w.companies(i)); n != 3 || p.TechICBM || p.Cash != 7000 {
			t.Errorf("standard game: %s has %d cards, ICBM %v, cash %d", p.ID, n, p.TechICBM, p.Cash)
		}
	}
}

// TestPresets: the registered engines.
func TestPresets(t *testing.T) {
	for _, p := range Presets {
		e, ok := adjudicator.Lookup(p.Name)
		if !ok {
			t.Fatalf("%s not registered", p.Name)
		}
		info := e.Info()
		if info.Game != "supremacy" || info.Simultaneous || len(info.Powers) < 3 || info.Rules == "" || len(info.Examples) == 0 {
			t.Errorf("%s: %+v", p.Name, info)
		}
		st, err := e.New(nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		s, err := e.Status(st)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(s.Waiting, ",") != strings.Join(info.Powers, ",") || s.ID != "T00-0" || s.Kind != adjudicator.PhaseOrders {
			t.Errorf("%s start: %+v", p.Name, s)
		}
	}
}
