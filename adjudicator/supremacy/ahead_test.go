package supremacy

import (
	"strings"
	"testing"
)

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

// BenchmarkCheckSections checks a mail of 500 lines (the most the daemon
// reads) with 16 section lines the mail reader takes for chatter ("Build
// phase:"), each of which costs a pass over the lines above it: the worst
// a mail can make of orders sent ahead. BenchmarkCheckNoSections is the
// same mail without them.
func BenchmarkCheckSections(b *testing.B)   { benchCheckMail(b, true) }
func BenchmarkCheckNoSections(b *testing.B) { benchCheckMail(b, false) }

func benchCheckMail(b *testing.B, sections bool) {
	e := engineFor(b, "usa,russia,china")
	state := salariesState(b, e)
	var lines []string
	for len(lines) < 500 {
		if sections && len(lines)%31 == 30 {
			lines = append(lines, "Build phase:")
			continue
		}
		lines = append(lines, "RESEARCH OIL MAX 1")
	}
	text := strings.Join(lines, "\n")
	for b.Loop() {
		if _, err := e.Check(state, "usa", text); err != nil {
			b.Fatal(err)
		}
	}
}

// salariesState is the position at turn 1's salaries: every player's
// forces placed in a home area.
func salariesState(tb testing.TB, e *Engine) []byte {
	tb.Helper()
	state, err := e.New(nil, 6)
	if err != nil {
		tb.Fatal(err)
	}
	out, err := e.Resolve(state, map[string][]string{"usa": {"PLACE 9 ARMIES IN tex"}, "russia": {"PLACE 9 ARMIES IN sib"}, "china": {"PLACE 9 ARMIES IN man"}}, 1)
	if err != nil {
		tb.Fatal(err)
	}
	return out.Next
}
