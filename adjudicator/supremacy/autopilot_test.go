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
		{"trade: one of each resource it lacks", nil,
			func(f *fixture) { f.phase(PhaseTrade, 1).res("russia", 0, 2, 0) },
			[]string{"BUY 1 OIL", "BUY 1 GRAIN"}},
		{"trade: nothing when the next salaries need the cash", nil,
			func(f *fixture) { f.phase(PhaseTrade, 1).armies("russia", "mos", 9).cash("russia", 550) },
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
		{"build: nothing when the cost would leave the next salaries unpaid", nil,
			func(f *fixture) {
				f.phase(PhaseBuild, 1).res("russia", 1, 1, 1).cash("russia", 350).armies("russia", "mos", 9)
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
