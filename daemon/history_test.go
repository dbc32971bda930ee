package daemon_test

import (
	"bytes"
	"testing"

	"pbemd/daemon/daemontest"
	"pbemd/store"
)

// A phase record keeps the state before its phase only when it is not
// the state after the phase before (store.PutPhase); HISTORY and
// ROLLBACK of a later phase read it from there: ROLLBACK of Fall 1901
// puts back the position after Spring 1901, and the phase plays again.
func TestRollbackOfALaterPhaseRestoresItsPosition(t *testing.T) {
	tb, gm, pl := standardTable(t, "hist")
	eng := pl["england"]
	tb.As(eng, "F Lon - Nth")
	tb.Send(daemontest.GM, gm, "PROCESS")
	tb.Tick()
	tb.As(eng, "F Nth - Nwy")
	tb.Send(daemontest.GM, gm, "PROCESS")
	tb.Tick()
	tb.Outbox()
	if g := tb.Game("hist"); g.Phase != 2 {
		t.Fatalf("phase %d %s, want two processed", g.Phase, g.PhaseID)
	}
	var spring, fall *store.PhaseRecord
	if err := tb.DB.View(func(tx *store.Tx) (err error) {
		if spring, err = tx.Phase("hist", 0); err != nil {
			return err
		}
		fall, err = tx.Phase("hist", 1)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(fall.StateBefore) == 0 || !bytes.Equal(fall.StateBefore, spring.StateAfter) {
		t.Fatalf("Fall 1901's state before is %d bytes, not Spring's state after (%d bytes)", len(fall.StateBefore), len(spring.StateAfter))
	}

	tb.As(eng, "HISTORY F1901M")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), eng.Addr, "Re:").Text, "Fall 1901", "F Nth - Nwy")

	tb.Send(daemontest.GM, gm, "ROLLBACK")
	tb.Outbox()
	var state []byte
	if err := tb.DB.View(func(tx *store.Tx) (err error) { state, err = tx.State("hist"); return err }); err != nil {
		t.Fatal(err)
	}
	if g := tb.Game("hist"); g.PhaseID != "F1901M" || !bytes.Equal(state, spring.StateAfter) {
		t.Fatalf("after ROLLBACK: phase %s, state is Spring's state after: %v", g.PhaseID, bytes.Equal(state, spring.StateAfter))
	}
	tb.As(eng, "F Nth H")
	tb.Send(daemontest.GM, gm, "PROCESS")
	tb.Tick()
	tb.Outbox()
	if g := tb.Game("hist"); g.Phase != 2 {
		t.Fatalf("after ROLLBACK and PROCESS: phase %d %s", g.Phase, g.PhaseID)
	}
}
