package supremacy

import "testing"

// The section lines of orders sent ahead (ahead.go), as players write them.
func TestSectionLine(t *testing.T) {
	for _, c := range []struct {
		text string
		ph   Phase
		ok   bool
		bad  bool
	}{
		{"PHASE attack", PhaseAttack, true, false},
		{"  phase Attack:  ", PhaseAttack, true, false},
		{"Attack phase:", PhaseAttack, true, false},
		{"In the build phase:", PhaseBuild, true, false},
		{"Build phase", PhaseBuild, true, false},
		{"Orders for the move phase", PhaseMove, true, false},
		{"For my trade phase -", PhaseTrade, true, false},
		{"PHASE salaries", PhaseSalaries, true, false},
		{"PHASE lunch", PhaseNone, true, true},
		{"PHASE attack and move", PhaseNone, true, true},
		{"PHASE attack: ATTACK mex FROM tex", PhaseNone, true, true},
		{"Here are my orders for the trade phase", PhaseNone, false, false},
		{"ATTACK mex FROM tex", PhaseNone, false, false},
		{"MOVE 3 tex - usc", PhaseNone, false, false},
		{"attack", PhaseNone, false, false},
		{"PHASE", PhaseNone, false, false},
		{":::", PhaseNone, false, false},
		{"", PhaseNone, false, false},
	} {
		ph, ok, bad := sectionLine(c.text)
		if ph != c.ph || ok != c.ok || (bad != "") != c.bad {
			t.Errorf("%q: got %v %v %q, want %v %v bad=%v", c.text, ph, ok, bad, c.ph, c.ok, c.bad)
		}
	}
}
