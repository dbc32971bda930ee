package diplomacy

import (
	"fmt"

	"pbemd/orders"
)

// parseCaseOrder reads one canonical order line of a case file with the
// orders package, strictly (no leniency) and without a position, so that
// the case file alone decides what was ordered.
func parseCaseOrder(m *Map, s string, phase PhaseType) (orders.Order, error) {
	ph := map[PhaseType]orders.Phase{Movement: orders.MovementPhase, Retreats: orders.RetreatPhase, Adjustments: orders.AdjustmentPhase}[phase]
	o, _, err := orders.ParseOrder(s, orders.Options{Lexicon: m.Lexicon(), Phase: ph, Strict: true})
	if err != nil {
		// Orders of the wrong phase (a support in a retreat phase, DATC
		// 6.H.1) are still read, to be rejected by the engine.
		o, _, err = orders.ParseOrder(s, orders.Options{Lexicon: m.Lexicon(), Strict: true})
	}
	if err != nil {
		return orders.Order{}, fmt.Errorf("order %q: %w", s, err)
	}
	return o, nil
}
