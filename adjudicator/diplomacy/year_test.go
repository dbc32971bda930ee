package diplomacy

import (
	"slices"
	"testing"

	"pbemd/adjudicator"
)

// Every phase's YearStep places it in Info.Year with the kind it has, and
// the steps of a year rise: Spring movement 0, Spring retreats 1, Fall
// movement 2, Fall retreats 3, Winter adjustments 4, a skipped phase's step
// simply missing (the daemon's weekly calendar keeps its day).
func TestYearStepsPlaceEachPhase(t *testing.T) {
	for _, name := range []string{"standard", "ancientmed"} {
		t.Run(name, func(t *testing.T) {
			e := engineFor(t, name)
			year := e.Info().Year
			want := []adjudicator.PhaseKind{adjudicator.PhaseOrders, adjudicator.PhaseRetreat, adjudicator.PhaseOrders, adjudicator.PhaseRetreat, adjudicator.PhaseBuild}
			if len(year) != len(want) {
				t.Fatalf("Info.Year = %v, want %v", year, want)
			}
			state, err := e.New(nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			var steps []int
			for range 4 { // two quiet years: S, F, S, F (no retreats, no builds)
				st, err := e.Status(state)
				if err != nil {
					t.Fatal(err)
				}
				if year[st.YearStep] != st.Kind {
					t.Errorf("%s: step %d is a %s phase in Info.Year, the phase is %s", st.ID, st.YearStep, year[st.YearStep], st.Kind)
				}
				steps = append(steps, st.YearStep)
				out, err := e.Resolve(state, nil, 1)
				if err != nil {
					t.Fatal(err)
				}
				state = out.Next
			}
			if want := []int{0, 2, 0, 2}; !slices.Equal(steps, want) {
				t.Errorf("quiet years' steps %v, want %v", steps, want)
			}
			for _, c := range []struct {
				p    Phase
				step int
			}{{Phase{Spring, 1901, Movement}, 0}, {Phase{Spring, 1901, Retreats}, 1}, {Phase{Fall, 1901, Movement}, 2}, {Phase{Fall, 1901, Retreats}, 3}, {Phase{Winter, 1901, Adjustments}, 4}} {
				if got := yearStep(c.p); got != c.step || year[got] != kindOf(c.p.Type) {
					t.Errorf("%v: step %d, want %d", c.p, got, c.step)
				}
			}
		})
	}
}

func kindOf(t PhaseType) adjudicator.PhaseKind {
	switch t {
	case Retreats:
		return adjudicator.PhaseRetreat
	case Adjustments:
		return adjudicator.PhaseBuild
	}
	return adjudicator.PhaseOrders
}
