package supremacy

import (
	"strings"
	"testing"

	"pbemd/orders"
)

// autopilotCheck returns the autopilot's lines for power in state, failing
// the test unless Check accepts every one of them without a word and the
// same state gives the same lines again.
func autopilotCheck(t testing.TB, e *Engine, state []byte, power, where string) []string {
	t.Helper()
	text, err := e.AutopilotOrders(state, power, 1)
	if err != nil {
		t.Fatalf("%s %s: %v", where, power, err)
	}
	if again, _ := e.AutopilotOrders(state, power, 2); again != text {
		t.Fatalf("%s %s: the autopilot gave %q, then %q", where, power, text, again)
	}
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	ck, err := e.Check(state, power, text)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ck.Lines {
		if l.Kind == orders.ErrorLine || len(l.Diags) > 0 {
			t.Errorf("%s %s: the engine does not take the autopilot's %q as it is: %v", where, power, l.Text, l.Diags)
		}
	}
	if len(ck.Canonical) != len(lines) {
		t.Errorf("%s %s: the autopilot wrote %q, Check kept %q", where, power, lines, ck.Canonical)
	}
	return lines
}

// Every order the autopilot gives is one the engine takes from a player,
// without an error or a warning, in every kind of phase and step of games
// the bots play (mail rounds, the attack phase in steps, every phase in
// steps), and the same position gives the same orders.
func TestAutopilotOrdersPassCheck(t *testing.T) {
	e, err := NewEngine("supremacy", "test", map[string]string{"powers": "usa,eu,russia,china,japan"})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[Kind]int{}
	for _, c := range []struct {
		seed int64
		opts map[string]string
	}{
		{1, map[string]string{"turns": "4"}},
		{2, map[string]string{"turns": "3", "fast": "yes", "steps": "attack"}},
		{3, map[string]string{"turns": "3", "steps": "all"}},
		{4, map[string]string{"turns": "3", "fast": "yes", "steps": "all", "build": "together"}},
	} {
		check := func(state []byte) {
			st, err := e.Status(state)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range st.Waiting {
				for _, l := range autopilotCheck(t, e, state, p, st.ID) {
					if o, err := e.sc.parseLine(l); err == nil {
						seen[o.Kind]++
					}
				}
			}
		}
		start, err := e.New(c.opts, c.seed)
		if err != nil {
			t.Fatal(err)
		}
		check(start)
		playGame(t, e, c.opts, c.seed, 600, func(_ int, state []byte, _ *outcomeView) { check(state) })
	}
	// The bots' games reach every kind of order the autopilot gives.
	for k, name := range map[Kind]string{KPlace: "PLACE", KOpen: "OPEN", KClose: "CLOSE", KBuy: "BUY", KPass: "PASS", KMove: "MOVE", KBuild: "BUILD"} {
		if seen[k] == 0 {
			t.Errorf("the games never had the autopilot give a %s order", name)
		}
	}
}

// The autopilot's orders, case by case in the DATC's manner: a position,
// the power the autopilot plays, the orders it gives (none: nil). Every
// order it gives is one the engine takes from a player.
func TestAutopilotPlaysSteadily(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  map[string]string
		setup func(f *fixture)
		want  []string
	}{
		{"set-up: every force an army at home, the frontier areas first", nil,
			func(f *fixture) { f.phase(PhaseSetup, 0) },
			[]string{"PLACE 2 ARMIES IN mos, 3 ARMIES IN stp, 2 ARMIES IN vol, 2 ARMIES IN sib"}},
		{"salaries: a company whose reserve column is full stays closed", nil,
			func(f *fixture) {
				f.phase(PhaseSalaries, 1).give("russia", "mosmin", "stpgrain", "voloil").res("russia", 0, 0, 12).armies("russia", "mos", 9)
			},
			[]string{"OPEN ALL", "CLOSE stpgrain"}},
		{"salaries: companies open only as far as the cash pays the forces too", nil,
			func(f *fixture) {
				f.phase(PhaseSalaries, 1).give("russia", "mosmin", "voloil").armies("russia", "mos", 9).cash("russia", 140)
			},
			[]string{"OPEN ALL", "CLOSE voloil"}},
		{"salaries: no cash to spare closes every company", nil,
			func(f *fixture) {
				f.phase(PhaseSalaries, 1).give("russia", "mosmin", "voloil").armies("russia", "mos", 9).cash("russia", 100)
			},
			[]string{"CLOSE ALL"}},
		{"trade: what it holds beyond two of a resource is sold; nothing bought while no home area is outnumbered", nil,
			func(f *fixture) {
				f.phase(PhaseTrade, 1).res("russia", 0, 5, 2).armies("russia", "vol", 3).armies("russia", "sib", 3).armies("china", "kaz", 3)
			},
			[]string{"SELL 3 MINERALS"}},
		{"trade: a home area outnumbered: one of each resource it lacks, for a set", nil,
			func(f *fixture) { f.phase(PhaseTrade, 1).res("russia", 0, 2, 0).armies("china", "kaz", 2) },
			[]string{"BUY 1 OIL", "BUY 1 GRAIN"}},
		{"trade: nothing bought when the salaries need the cash", nil,
			func(f *fixture) {
				f.phase(PhaseTrade, 1).armies("russia", "mos", 9).armies("china", "kaz", 3).cash("russia", 1000)
			},
			nil},
		{"attack in a mail round: it passes", nil,
			func(f *fixture) { f.phase(PhaseAttack, 1).armies("russia", "mos", 5).armies("china", "kaz", 1) },
			[]string{"PASS"}},
		{"a declared launch awaiting confirmation is called off", map[string]string{"steps": "attack"},
			func(f *fixture) {
				f.phase(PhaseAttack, 1).order("russia", "usa", "china")
				f.w.attack = &attackJSON{Stage: "confirm", Launch: "LAUNCH 1 AT bei"}
			},
			[]string{"CALL OFF"}},
		{"a counterattack step: its player's standing counterattack stands", map[string]string{"steps": "attack"},
			func(f *fixture) {
				f.phase(PhaseAttack, 1).order("china", "usa", "russia").armies("russia", "mos", 5).armies("china", "ukr", 2)
				f.w.attack = &attackJSON{Stage: "counter", Defenders: []string{"russia mos"}}
				f.player("russia").Reactions = []string{"IF ATTACKED: ATTACK ukr FROM mos"}
			},
			nil},
		{"a counterattack step without a standing counterattack: it passes", map[string]string{"steps": "attack"},
			func(f *fixture) {
				f.phase(PhaseAttack, 1).order("china", "usa", "russia").armies("russia", "mos", 5).armies("china", "ukr", 2)
				f.w.attack = &attackJSON{Stage: "counter", Defenders: []string{"russia mos"}}
			},
			[]string{"PASS"}},
		{"move: armies to the outnumbered home area, enough kept behind", nil,
			func(f *fixture) {
				f.phase(PhaseMove, 1).res("russia", 0, 0, 2).armies("russia", "mos", 4).armies("russia", "vol", 1).armies("russia", "sib", 3).armies("china", "kaz", 3)
			},
			[]string{"MOVE 2 mos - vol"}},
		{"move: without grain nothing moves", nil,
			func(f *fixture) {
				f.phase(PhaseMove, 1).res("russia", 3, 3, 0).armies("russia", "mos", 4).armies("russia", "vol", 1).armies("china", "kaz", 3)
			},
			nil},
		{"build: three armies in the most outnumbered home area", nil,
			func(f *fixture) {
				f.phase(PhaseBuild, 1).res("russia", 1, 1, 1).cash("russia", 2000).armies("russia", "mos", 2).armies("russia", "vol", 1).armies("china", "kaz", 2)
			},
			[]string{"BUILD 3 ARMIES IN sib"}},
		{"build: nothing when the cost would leave two turns' salaries unpaid", nil,
			func(f *fixture) {
				f.phase(PhaseBuild, 1).res("russia", 1, 1, 1).cash("russia", 500).armies("russia", "mos", 9).armies("china", "kaz", 3)
			},
			nil},
		{"build: nothing when no home area is outnumbered", nil,
			func(f *fixture) {
				f.phase(PhaseBuild, 1).res("russia", 3, 3, 3).armies("russia", "mos", 2).armies("russia", "vol", 1).armies("china", "ukr", 1)
			},
			nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "usa,russia,china", tc.opts)
			tc.setup(f)
			e := &Engine{sc: f.w.sc}
			got := autopilotCheck(t, e, f.w.encode(), "russia", "")
			if strings.Join(got, " | ") != strings.Join(tc.want, " | ") {
				t.Errorf("autopilot for russia:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// A whole game of absent players, every power on the autopilot: it runs to
// its last turn with every player still in it; no die is rolled (nobody
// attacks); no force is lost for want of pay; and every player's forces
// grow or stay, none of its orders refused when carried out.
func TestAutopilotKeepsWhatItHas(t *testing.T) {
	e, err := NewEngine("supremacy", "test", map[string]string{"powers": "usa,russia,china,japan", "turns": "10"})
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []int64{7, 8, 9} {
		autopilotGame(t, e, seed)
	}
}

// autopilotGame plays a game of e with every power on the autopilot.
func autopilotGame(t *testing.T, e *Engine, seed int64) {
	t.Helper()
	state, err := e.New(nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	forces := map[string]int{}
	for n := 0; n < 200; n++ {
		st, err := e.Status(state)
		if err != nil {
			t.Fatal(err)
		}
		if st.Over {
			if len(st.Alive) != 4 {
				t.Errorf("seed %d: at the end only %v play", seed, st.Alive)
			}
			return
		}
		ords := map[string][]string{}
		for _, p := range st.Waiting {
			if lines := autopilotCheck(t, e, state, p, st.ID); len(lines) > 0 {
				ords[p] = lines
			}
		}
		out, err := e.Resolve(state, ords, seed+int64(n))
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"dice (", "cannot pay", "bankrupt", "refused", "cannot carry out"} {
			if strings.Contains(out.Report.Public, bad) {
				t.Errorf("seed %d %s: the report says %q:\n%s", seed, st.ID, bad, out.Report.Public)
			}
		}
		for p, priv := range out.Report.Private {
			if strings.Contains(priv, "refused") {
				t.Errorf("seed %d %s: %s is told of a refusal:\n%s", seed, st.ID, p, priv)
			}
		}
		w, err := decodeWorld(out.Next)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range w.players {
			a, nv := w.forces(i)
			if a+nv < forces[p.ID] {
				t.Errorf("seed %d %s: %s has %d forces, had %d", seed, st.ID, p.ID, a+nv, forces[p.ID])
			}
			forces[p.ID] = a + nv
		}
		state = out.Next
	}
	t.Fatalf("seed %d: the game did not end in 200 phases", seed)
}
