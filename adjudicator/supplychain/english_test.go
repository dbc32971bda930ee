package supplychain_test

import (
	"testing"

	"pbemd/daemon/daemontest"
)

// TestAnEnglishSentenceGetsTheOrderForms: issue 16 item 8 asks the
// Diplomacy grammar for a hint of the order form when an order is written
// as a sentence; this game's grammar answers a sentence with the forms of
// its orders, and must keep doing so (mail in, mail out).
func TestAnEnglishSentenceGetsTheOrderForms(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("eng", "supplychain-2", "")
	ps := tb.SignUp("eng", []string{"red", "blue"})
	tb.Outbox()
	tb.As(ps["red"], "I would like to buy a card")
	m := daemontest.One(t, tb.Outbox(), ps["red"].Addr, "Re:")
	daemontest.Contains(t, m.Text, "line 1: I would like to buy a card", "does not start an order (for example: BUY <card> FROM LISTING", "PLACE <card> AT x,y")
}
