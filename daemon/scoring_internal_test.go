package daemon

import "testing"

// A game whose engine declares no scoring refuses scoring= at CREATE.
func TestScoringRefusedWhereTheEngineHasNone(t *testing.T) {
	h := newHarness(t)
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE g1 toy scoring=sos")
	mustContain(t, h.only(h.outbox(), harnessGM).Text, "option scoring: games of Toy game have no scores", "Nothing was created")
}

// A game whose engine has no steady play refuses autopilot=on and the
// GM's AUTOPILOT ON.
func TestAutopilotRefusedWhereTheEngineHasNone(t *testing.T) {
	h := newHarness(t)
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE g1 toy autopilot=on")
	mustContain(t, h.only(h.outbox(), harnessGM).Text, "option autopilot: Toy game has no autopilot", "Nothing was created")
}
