package diplomacy

import (
	"strings"
	"testing"

	"pbemd/adjudicator"
	"pbemd/orders"
)

// The autopilot's orders, case by case in the DATC's manner: a position,
// the power the autopilot plays, the orders it gives. Every order it gives
// is one the engine accepts from a player.
func TestAutopilotPlaysSteadily(t *testing.T) {
	e := engineFor(t, "standard").(*Engine)
	spring := Phase{Spring, 1901, Movement}
	for _, tc := range []struct {
		name, power string
		state       []byte
		want        []string
	}{
		{"a threatened unit on its own centre is supported to hold; the others hold", "austria",
			nil, // the start
			[]string{"A Bud S F Tri", "F Tri H", "A Vie H"}},
		{"an empty own centre a neighbour threatens is filled", "germany",
			stateOf(t, "standard", spring, []string{"germany: A Ruh", "france: A Bur"}, map[string]string{"mun": "germany", "ber": "germany"}, nil),
			[]string{"A Ruh - Mun"}},
		{"no threat: every unit holds", "england",
			stateOf(t, "standard", spring, []string{"england: F Lon", "england: A Yor"}, map[string]string{"lon": "england"}, nil),
			[]string{"F Lon H", "A Yor H"}},
		{"a dislodged unit retreats to its own centre first", "austria",
			stateOf(t, "standard", Phase{Fall, 1901, Retreats}, []string{"turkey: A Ser", "austria: A Vie"},
				map[string]string{"bud": "austria", "tri": "austria", "vie": "austria"},
				[]Dislodged{{Unit: Unit{Power: "austria", Type: Army, Loc: Location{Province: "ser"}}, AttackerFrom: "bul"}}),
			[]string{"A Ser R Bud"}},
		{"builds stand at home, a fleet on a coast when armies outnumber fleets", "austria",
			stateOf(t, "standard", Phase{Winter, 1901, Adjustments}, []string{"austria: A Ser", "austria: A Gre", "austria: F Alb"},
				map[string]string{"bud": "austria", "tri": "austria", "vie": "austria", "ser": "austria", "gre": "austria"}, nil),
			[]string{"Build A Bud", "Build F Tri"}},
		{"disbands take the farthest units from home", "austria",
			stateOf(t, "standard", Phase{Winter, 1901, Adjustments}, []string{"austria: A Bud", "austria: A Gal", "austria: A Mos"},
				map[string]string{"bud": "austria"}, nil),
			[]string{"A Mos D", "A Gal D"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := tc.state
			if state == nil {
				var err error
				if state, err = e.New(nil, 1); err != nil {
					t.Fatal(err)
				}
			}
			text, err := e.AutopilotOrders(state, tc.power, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Split(text, "\n"); strings.Join(got, " | ") != strings.Join(tc.want, " | ") {
				t.Errorf("autopilot for %s:\n got %q\nwant %q", tc.power, got, tc.want)
			}
			ck, err := e.Check(state, tc.power, text)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range ck.Lines {
				if l.Kind == orders.ErrorLine || len(l.Diags) > 0 {
					t.Errorf("the engine refuses the autopilot's %q: %v", l.Text, l.Diags)
				}
			}
		})
	}
}

// In a fog of war game the autopilot reads the board as its power sees it:
// Italy's army in Greece could be convoyed through the Ionian Sea and
// Turkey's own fleet to Turkey's empty Smyrna, so the standard game's
// autopilot fills Smyrna; Turkey sees neither Greece nor anything that
// threatens Smyrna, so the fog game's autopilot holds.
func TestAutopilotInTheFogSeesWhatItsPowerSees(t *testing.T) {
	state := func(variant string) []byte {
		return stateOf(t, variant, Phase{Spring, 1902, Movement},
			[]string{"turkey: A Arm", "turkey: F Eas", "italy: A Gre", "italy: F Ion"},
			map[string]string{"smy": "turkey", "con": "turkey", "ank": "turkey", "gre": "italy"}, nil)
	}
	whole, err := engineFor(t, "standard").(adjudicator.Autopilot).AutopilotOrders(state("standard"), "turkey", 1)
	if err != nil || whole != "A Arm - Smy\nF Eas H" {
		t.Fatalf("standard: %q, %v; want A Arm - Smy, F Eas H", whole, err)
	}
	fog := engineFor(t, "fog")
	if visible(mustPosition(t, fog, state("fog")), "turkey")["gre"] {
		t.Fatal("Turkey sees Greece: the case shows nothing")
	}
	seen, err := fog.(adjudicator.Autopilot).AutopilotOrders(state("fog"), "turkey", 1)
	if err != nil || seen != "A Arm H\nF Eas H" {
		t.Fatalf("fog: %q, %v; want A Arm H, F Eas H", seen, err)
	}
}

func mustPosition(t *testing.T, e adjudicator.Engine, state []byte) *Position {
	t.Helper()
	g, err := viewState(state, e.(FogEngine).m)
	if err != nil {
		t.Fatal(err)
	}
	return g.pos
}
