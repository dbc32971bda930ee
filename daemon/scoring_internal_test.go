package daemon

import "testing"

// A game whose engine declares no scoring refuses scoring= at CREATE.
func TestScoringRefusedWhereTheEngineHasNone(t *testing.T) {
	h := newHarness(t)
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE g1 toy scoring=sos")
	mustContain(t, h.only(h.outbox(), harnessGM).Text, "option scoring: games of Toy game have no scores", "Nothing was created")
}
