package empire_test

import (
	"testing"

	"pbemd/daemon/daemontest"
)

// TestAnEnglishSentenceGetsTheOrderForm: issue 16 item 8 asks the
// Diplomacy grammar for a hint of the order form when an order is written
// as a sentence; this game's grammar answers a sentence with an example
// order, and must keep doing so (mail in, mail out).
func TestAnEnglishSentenceGetsTheOrderForm(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("eng", "empire2", "")
	ps := tb.SignUp("eng", []string{"red", "blue"})
	tb.Outbox()
	tb.As(ps["red"], "my army attacks the blue city")
	m := daemontest.One(t, tb.Outbox(), ps["red"].Addr, "Re:")
	daemontest.Contains(t, m.Text, "line 1: my army attacks the blue city", "is not a unit I know (for example: ")
}
