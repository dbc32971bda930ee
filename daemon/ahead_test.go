package daemon_test

import (
	"strings"
	"testing"

	"pbemd/daemon/daemontest"
	"pbemd/store"
)

// Issue 15 item 16: orders are sent ahead only where the engine declares
// its turn's phases (adjudicator.Aheader: Supremacy). A Diplomacy mail
// with section lines is answered as before: a PHASE line is a line the
// game does not understand, a line the mail reader takes for chatter
// ("Build phase:") is passed over, and every order is an order of the open
// phase; nothing is held.
func TestDiplomacyMailWithPhaseLinesAnsweredAsBefore(t *testing.T) {
	tb, _, pl := standardTable(t, "dipahead")
	tb.As(pl["england"], "PHASE attack:\nF Lon - Nth\nBuild phase:\nA Lvp - Yor")
	ack := daemontest.One(t, tb.Outbox(), pl["england"].Addr, "Re:").Text
	daemontest.Contains(t, ack, "Orders received for England, Spring 1901", "F Lon - Nth", "A Lvp - Yor", "line 1: PHASE attack:")
	daemontest.Lacks(t, ack, "Held for", "line 3", "sent ahead")
	sets := orderSets(t, tb, "dipahead", 0)
	if len(sets) != 1 || strings.Join(sets[0].Lines, "; ") != "F Lon - Nth; A Lvp - Yor" {
		t.Fatalf("stored %+v", sets)
	}
	var held []store.AheadOrders
	if err := tb.DB.View(func(tx *store.Tx) (err error) { held, err = tx.Ahead("dipahead"); return err }); err != nil {
		t.Fatal(err)
	}
	if len(held) != 0 {
		t.Fatalf("held for a Diplomacy game: %+v", held)
	}
	tb.As(pl["england"], "HELP")
	daemontest.Lacks(t, daemontest.One(t, tb.Outbox(), pl["england"].Addr, "Re:").Text, "The same mail may carry", "PHASE")
}
