package supplychain_test

import (
	"testing"

	"pbemd/daemon/daemontest"
)

// Issue 16 item 5, seen from a game that is not Diplomacy.
//
// The engine declares which endings its players may agree on: Supply
// Chain declares none but the draw of every survivor, so a draw by name
// and a concession are refused there, HELP offers no CONCEDE, and DRAW
// YES still works.
func TestDrawKindsAreTheEnginesToDeclare(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("sc1", "supplychain-3", "")
	pl := tb.SignUp("sc1", []string{"red", "blue", "green"})
	red := pl["red"]
	tb.As(red, "DRAW Red Blue")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), red.Addr, "Re:").Text, "the players cannot agree on a draw of some of the survivors; DRAW YES votes for a draw of every surviving power")
	tb.As(red, "CONCEDE Blue")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), red.Addr, "Re:").Text, "CONCEDE: in sc1 (Supply Chain")
	tb.As(red, "HELP")
	daemontest.Lacks(t, daemontest.One(t, tb.Outbox(), red.Addr, "Re:").Text, "CONCEDE")
	for _, p := range []string{"red", "blue", "green"} {
		tb.As(pl[p], "DRAW YES")
	}
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), "red@example.test", "Game over").Text, "Every surviving power voted for a draw.")
}
