package diplomacy_test

import (
	"testing"

	"pbemd/daemon/daemontest"
)

// Whole games by mail of the small variants: England vs Turkey and Fleet
// Rome (rule variants on the standard board, rulevariants.go). Helpers in
// rulevariants_daemon_test.go.

// listsVariant checks that LIST VARIANTS by mail names the variant.
func listsVariant(t *testing.T, tb *daemontest.Table, name, title string) {
	t.Helper()
	tb.Send("newcomer@example.test", "", "LIST VARIANTS")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), "newcomer@example.test", "").Text, "  "+name+" ", title)
}

// TestEnglandVsTurkeyByMail: the two-player game from its start: England's
// fleets open from the North Sea and the Channel, its empty home centres
// still count, the absent powers' centres fall unopposed, and the game
// ends by concession.
func TestEnglandVsTurkeyByMail(t *testing.T) {
	tb := daemontest.New(t)
	listsVariant(t, tb, "evt", "England vs Turkey")
	tb.Create("evt1", "evt", "")
	pl := tb.SignUp("evt1", []string{"england", "turkey"})
	tb.Outbox()
	tb.As(pl["england"], "RULES")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["england"].Addr, "Re:").Text,
		"England vs Turkey", "F North Sea, F English Channel and A London", "start neutral and empty", "Victory at 18")

	order(t, tb, pl, map[string]string{
		"england": "F Nth - Nwy\nF Eng - Bre\nA Lon - Yor",
		"turkey":  "F Ank - Bla\nA Con - Bul\nA Smy - Arm",
	})
	for _, text := range readResults(t, endPhase(tb, "evt1"), "evt1", "S1901M", "Spring 1901 Movement", pl) {
		daemontest.Contains(t, text, "F Nth - Nwy", "F Eng - Bre", "F Ank - Bla", "Next phase: Fall 1901 Movement")
		daemontest.Lacks(t, text, "Austria", "France", "Germany", "Italy", "Russia", "bounce")
	}
	order(t, tb, pl, map[string]string{
		"england": "F Nwy H\nF Bre H\nA Yor H",
		"turkey":  "F Bla - Rum\nA Bul H\nA Arm - Sev",
	})
	for _, text := range readResults(t, endPhase(tb, "evt1"), "evt1", "F1901M", "Fall 1901 Movement", pl) {
		daemontest.Contains(t, text, "England: 5 centres (Bre Edi Lon Lvp Nwy)", "Turkey: 6 centres (Ank Bul Con Rum Sev Smy)",
			"Next phase: Winter 1901 Adjustments")
	}
	order(t, tb, pl, map[string]string{
		"england": "Build F Edi\nBuild A Lvp",
		"turkey":  "Build F Ank\nBuild A Con\nBuild A Smy",
	})
	for _, text := range readResults(t, endPhase(tb, "evt1"), "evt1", "W1901A", "Winter 1901 Adjustments", pl) {
		daemontest.Contains(t, text, "Build F Edi", "Build A Lvp", "Build A Smy",
			"England: 5 centres (Bre Edi Lon Lvp Nwy); units: F Bre, F Edi, A Lvp, F Nwy, A Yor")
		daemontest.Lacks(t, text, "illegal")
	}
	concede(t, tb, "evt1", "turkey", pl)
}

// TestFleetRomeByMail: Italy's fleet in Rome sails by mail; every player
// reads it in the results and their picture.
func TestFleetRomeByMail(t *testing.T) {
	tb := daemontest.New(t)
	listsVariant(t, tb, "fleetrome", "Fleet Rome")
	tb.Create("fr1", "fleetrome", "")
	powers := []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"}
	pl := tb.SignUp("fr1", powers)
	tb.Outbox()
	tb.As(pl["italy"], "RULES")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["italy"].Addr, "Re:").Text, "Fleet Rome", "rb41", "fleet in Rome")
	tb.As(pl["italy"], "STATUS")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["italy"].Addr, "Re:").Text, "F Nap, F Rom, A Ven")
	order(t, tb, pl, map[string]string{
		"italy":   "F Rom - Tys\nF Nap - Ion\nA Ven H",
		"austria": "A Vie - Tyr\nA Bud - Ser\nF Tri - Alb",
	})
	for _, text := range readResults(t, endPhase(tb, "fr1"), "fr1", "S1901M", "Spring 1901 Movement", pl) {
		daemontest.Contains(t, text, "F Rom - Tys", "F Nap - Ion", "Italy: 3 centres (Nap Rom Ven); units: F Ion, F Tys, A Ven")
	}
	order(t, tb, pl, map[string]string{"italy": "F Tys - Tun\nF Ion S F Tys - Tun\nA Ven H"})
	for _, text := range readResults(t, endPhase(tb, "fr1"), "fr1", "F1901M", "Fall 1901 Movement", pl) {
		daemontest.Contains(t, text, "F Tys - Tun", "Italy: 4 centres (Nap Rom Tun Ven)")
	}
	concede(t, tb, "fr1", "italy", pl)
}
