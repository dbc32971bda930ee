package empire

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"pbemd/orders"
)

// The autopilot's orders, case by case in the DATC's manner: a position
// (the 6×4 all-land board), the power it plays, the orders it gives. Every
// order it gives is one the engine accepts from a player, unchanged.
func TestAutopilotPlaysSteadily(t *testing.T) {
	e := engine(t, "empire3")
	for _, tc := range []struct {
		name, step string
		turns      int // strategic turns of the production step
		fog        int
		units      string
		want       []string
	}{
		{"bids: the largest bid, never the one that breaks the ceasefire", stepBid, 0, 0,
			"red FAC1 A1\nred RID2 B1\nblue FAC1 F4", []string{"BID 6"}},
		{"production: infantry on the factories, spread in factory order; the rest saved in the first factory", stepBuild, 1, 0,
			// A1, B1 and C1 controlled: 18 points a turn, and 5 saved.
			"red FAC1 A1 saved=5\nred RID2 B1\nred FAC3 C1\nred RAD4 D1\nblue FAC1 F4", []string{"BUY 2 RID A1", "BUY RID C1", "SAVE 5 FAC1"}},
		{"production: nothing to buy, the points are saved", stepBuild, 1, 0,
			// Only A1 is controlled (armor only occupies): 6 points, and
			// the territory at F1 has no factory.
			"red FAC1 A1 saved=1\nred RAD2 B1\nred RID3 F1\nblue FAC1 F4", []string{"BUY RID A1", "SAVE 1 FAC1"}},
		{"deployment: every unit stays; a unit on the move settles where it keeps its supply", stepDeploy, 0, 0,
			"red FAC1 A1\nred RID2 A2\nred RAD3 C1-B1\nblue FAC1 F4", []string{"KEEP RID2", "KEEP RAD3 B1"}},
		{"deployment: a cut-off territory sacrifices its cheapest unit about to perish", stepDeploy, 0, 0,
			"red FAC1 A1\nred RID2 D3\nred TD3 E3\nred RID4 E4\nblue FAC1 A4", []string{"KEEP RID2", "KEEP TD3", "KEEP RID4", "SACRIFICE TD3"}},
		{"deployment: one unit alone to perish is not sacrificed", stepDeploy, 0, 0,
			"red FAC1 A1\nred RID2 D3\nblue FAC1 A4", []string{"KEEP RID2"}},
		{"deployment: without a factory, an army group headquarters becomes one", stepDeploy, 0, 0,
			"red AGHQ1 C2\nred AGHQ2 D2\nred RID3 B2\nblue FAC1 F4", []string{"TRANSFORM AGHQ1", "KEEP AGHQ2", "KEEP RID3"}},
		{"tactical: no threat, every unit holds, and a ceasefire", stepTactical, 0, 0,
			"red FAC1 A1\nred RID2 B1\nred RAD3 B2-C2\nblue RID1 F4", []string{"RID2 HOLD", "RAD3 HOLD", "CEASEFIRE"}},
		{"tactical: an unguarded factory an enemy can reach is guarded from next door; the enemy is not attacked", stepTactical, 0, 0,
			"red FAC1 A1\nred RID2 B1\nred TD3 C1\nblue RID1 A2", []string{"RID2 B1-A1", "TD3 HOLD", "CEASEFIRE"}},
		{"tactical: a guarded factory needs no other guard", stepTactical, 0, 0,
			"red FAC1 A1\nred RID2 A1\nred RID3 B1\nblue RID1 A2", []string{"RID2 HOLD", "RID3 HOLD", "CEASEFIRE"}},
		{"tactical: an enemy out of sight is no threat (fog)", stepTactical, 0, 1,
			"red FAC1 A1\nred RID2 B1\nblue RAD1 C3-B3", []string{"RID2 HOLD", "CEASEFIRE"}},
		{"tactical: a cut-off group sacrifices its cheapest unit that would perish", stepTactical, 0, 0,
			"red FAC1 A1\nred RID2 E3\nred TD3 F3\nred EID4 E4\nblue RID1 A4", []string{"RID2 HOLD", "TD3 HOLD", "EID4 HOLD", "SACRIFICE TD3", "CEASEFIRE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := testGame(t, openBoard, tc.units)
			g.Step, g.Turns, g.Opts.Fog = tc.step, tc.turns, tc.fog
			if tc.step != stepTactical {
				g.Turn = 0
			}
			state := g.encode("empire3")
			text, err := e.AutopilotOrders(state, "red", 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Split(text, "\n"); strings.Join(got, " | ") != strings.Join(tc.want, " | ") {
				t.Errorf("autopilot:\n got %q\nwant %q", got, tc.want)
			}
			checkAutopilot(t, e, state, "red", text)
		})
	}
}

// checkAutopilot fails unless the engine accepts every line of the
// autopilot's text unchanged and without a remark.
func checkAutopilot(t *testing.T, e *Engine, state []byte, power, text string) {
	t.Helper()
	ck, err := e.Check(state, power, text)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ck.Lines {
		if l.Kind != orders.OrderLine || len(l.Diags) > 0 {
			t.Fatalf("the engine refuses the autopilot's %q: %+v\nall: %q", l.Text, l.Diags, text)
		}
	}
	if text != "" && strings.Join(ck.Canonical, "\n") != text {
		t.Fatalf("canonical %q, the autopilot wrote %q", ck.Canonical, text)
	}
}

// Over the positions of random games (every step, fog, the reduced unit
// set, the retreat rule, a generated world: several hundred), the autopilot's orders for
// every waiting power are accepted by the engine unchanged, do not depend
// on the seed, and never take a unit into a hex holding an enemy.
func TestAutopilotOrdersAreLegalInRandomGames(t *testing.T) {
	cases := []struct {
		name string
		opts map[string]string
		seed uint64
	}{
		{"empire2", nil, 1},
		{"empire3", map[string]string{"units": "reduced", "retreat": "on"}, 1},
		{"empire-random", map[string]string{"fog": "2"}, 2},
	}
	positions, orders := 0, 0
	steps := map[string]int{}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%v/%d", c.name, c.opts, c.seed), func(t *testing.T) {
			e := engine(t, c.name)
			for _, state := range playRandom(t, c.name, c.opts, c.seed, nil) {
				s, err := e.Status(state)
				if err != nil {
					t.Fatal(err)
				}
				g, err := e.decode(state)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range s.Waiting {
					text, err := e.AutopilotOrders(state, p, 1)
					if err != nil {
						t.Fatal(err)
					}
					if again, _ := e.AutopilotOrders(state, p, 99); again != text {
						t.Fatalf("%s %s: the seed changed the orders:\n%s\n--\n%s", s.ID, p, text, again)
					}
					checkAutopilot(t, e, state, p, text)
					positions++
					steps[g.Step]++
					orders += strings.Count(text, "\n") + 1
					neverAttacks(t, g, p, text)
				}
			}
		})
	}
	t.Logf("%d positions, %d orders, by step %v", positions, orders, steps)
	for _, st := range []string{stepBid, stepBuild, stepDeploy, stepTactical} {
		if steps[st] == 0 {
			t.Errorf("no position in step %s", st)
		}
	}
}

// neverAttacks fails when one of the autopilot's moves takes a unit into a
// hex that holds another power's unit.
func neverAttacks(t *testing.T, g *Game, p, text string) {
	t.Helper()
	res, err := g.parseOrders(p, text, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range res.Lines {
		o, ok := l.Value.(*Order)
		if !ok || o.Kind != OrderMove {
			continue
		}
		for _, u := range g.Units {
			if u.Owner != p && (u.in(o.Pos.At) || o.Pos.To >= 0 && u.in(o.Pos.To)) {
				t.Fatalf("%s %s: %q attacks %s %s", g.phaseID(), p, l.Text, u.Owner, u.Name())
			}
		}
	}
}

// Two powers both on autopilot never fight: every tactical phase ends in
// its first turn by ceasefire, no battle is fought, no unit is lost for
// want of supply, and the game ends at the round limit with both powers
// in it.
func TestAutopilotsNeverFight(t *testing.T) {
	e := engine(t, "empire2")
	state, err := e.New(map[string]string{"max_rounds": "3"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; ; n++ {
		s, err := e.Status(state)
		if err != nil {
			t.Fatal(err)
		}
		if s.Over {
			if len(s.Alive) != 2 || s.Result == nil || s.Result.Kind != "production" {
				t.Fatalf("the end: alive %v, result %+v", s.Alive, s.Result)
			}
			return
		}
		if n > 40 {
			t.Fatalf("no end after %d phases (now %s)", n, s.ID)
		}
		ords := map[string][]string{}
		for _, p := range s.Waiting {
			text, err := e.AutopilotOrders(state, p, int64(n))
			if err != nil {
				t.Fatal(err)
			}
			ords[p] = strings.Split(text, "\n")
		}
		out, err := e.Resolve(state, ords, int64(n))
		if err != nil {
			t.Fatal(err)
		}
		var prs []*PhaseResult
		if err := json.Unmarshal(out.Report.Data, &prs); err != nil {
			t.Fatal(err)
		}
		for _, pr := range prs {
			if tr := pr.Turn; tr != nil && (len(tr.Battles) > 0 || !tr.Ends || tr.Limit) {
				t.Fatalf("%s: battles %d, ends %v (limit %v)", pr.Phase, len(tr.Battles), tr.Ends, tr.Limit)
			}
			if len(pr.Eliminated) > 0 {
				t.Fatalf("%s: %v eliminated", pr.Phase, pr.Eliminated)
			}
			var supply []SupplyEvent
			if pr.Turn != nil {
				supply = pr.Turn.Supply
			}
			if pr.Deploy != nil {
				supply = pr.Deploy.Supply
			}
			for _, ev := range supply {
				if ev.What != "restored" {
					t.Fatalf("%s: %+v", pr.Phase, ev)
				}
			}
		}
		state = out.Next
	}
}
