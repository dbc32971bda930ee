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

// Issue 16 item 2 in a game of one player per power: a resigned player's
// power is an open seat; JOIN as <power> asks the GM, who gives it with
// REPLACE (there is no ACCEPT of juniors here), and the new player's mail
// carries the phase, the position and their own hand.
func TestOpenSeatWithOnePlayerPerPower(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("sc2", "supplychain-3", "")
	pl := tb.SignUp("sc2", []string{"red", "blue", "green"})
	tb.As(pl["blue"], "RESIGN")
	tb.Outbox()
	tb.Send("new@example.test", "", "JOIN sc2 as Blue")
	ms := tb.Outbox()
	ask := daemontest.One(t, ms, daemontest.GM, "new@example.test asks to take over Blue")
	daemontest.Contains(t, ask.Text, "REPLACE Blue WITH new@example.test", "To decline, do nothing")
	daemontest.Lacks(t, ask.Text, "ACCEPT")
	tb.Send(daemontest.GM, gm, "REPLACE Blue WITH new@example.test")
	ms = tb.Outbox()
	welcome := daemontest.One(t, ms, "new@example.test", "You are Blue")
	daemontest.Contains(t, welcome.Text, "--- for you only ---", "The position now:", "orders are due by")
	daemontest.Contains(t, daemontest.One(t, ms, "red@example.test", "New player").Text, "Blue has a new player.")
}
