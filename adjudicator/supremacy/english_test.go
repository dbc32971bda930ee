package supremacy_test

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
	tb.Create("eng", "supremacy-3", "")
	ps := tb.SignUp("eng", []string{"usa", "russia", "china"})
	tb.Outbox()
	tb.As(ps["usa"], "my army in Texas attacks Mexico")
	m := daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "Re:")
	daemontest.Contains(t, m.Text, "line 1: my army in Texas attacks Mexico", "does not start an order I know", "for example: ATTACK", "MOVE", "BUY", "BUILD")
}
