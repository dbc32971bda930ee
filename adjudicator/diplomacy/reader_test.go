package diplomacy

import (
	"fmt"
)

// parseCaseOrder reads one canonical order line of a case file with the
// orders package, strictly (no leniency) and without a position, so that
// the case file alone decides what was ordered.
func parseCaseOrder(m *Map, s string, phase PhaseType) (Order, error) {
	ph := map[PhaseType]ParsePhase{Movement: MovementPhase, Retreats: RetreatPhase, Adjustments: AdjustmentPhase}[phase]
	o, _, err := ParseOrder(s, ParseOptions{Lexicon: m.Lexicon(), Phase: ph, Strict: true})
	if err != nil {
		// Orders of the wrong phase (a support in a retreat phase, DATC
		// 6.H.1) are still read, to be rejected by the engine.
		o, _, err = ParseOrder(s, ParseOptions{Lexicon: m.Lexicon(), Strict: true})
	}
	if err != nil {
		return Order{}, fmt.Errorf("order %q: %w", s, err)
	}
	return o, nil
}
