package empire_test

import (
	"testing"

	"pbemd/daemon/daemontest"
)

// TestWhatIfIsRefusedWhereUnitsDoNotHoldByDefault: WHATIF is offered
// only where a unit without orders holds (Diplomacy); in Empire it is
// refused politely, and the orders in the same mail are still read.
func TestWhatIfIsRefusedWhereUnitsDoNotHoldByDefault(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("e2", "empire2", "")
	ps := tb.SignUp("e2", []string{"red", "blue"})
	tb.Outbox()
	tb.As(ps["red"], "BID 1\nWHATIF")
	m := daemontest.One(t, tb.Outbox(), ps["red"].Addr, "Re:")
	daemontest.Contains(t, m.Text, "WHATIF: ", "cannot preview orders in e2", "Orders received for Red")
}
