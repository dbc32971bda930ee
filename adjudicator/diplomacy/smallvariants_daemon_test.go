package diplomacy_test

import (
	"strings"
	"testing"

	"pbemd/daemon/daemontest"
)

// Whole games by mail of the small variants: England vs Turkey and Fleet
// Rome (rule variants on the standard board, rulevariants.go) and Pure
// (maps/pure.map). Helpers in rulevariants_daemon_test.go.

// sevenPowers are the standard game's powers, who play Fleet Rome and Pure.
var sevenPowers = []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"}

// openGame checks that LIST VARIANTS by mail names the variant with its
// title, then creates game of it and signs up a player for each power.
func openGame(t *testing.T, variant, title, game string, powers []string) (*daemontest.Table, map[string]daemontest.Player) {
	t.Helper()
	tb := daemontest.New(t)
	tb.Send("newcomer@example.test", "", "LIST VARIANTS")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), "newcomer@example.test", "").Text, "  "+variant+" ", title)
	tb.Create(game, variant, "")
	pl := tb.SignUp(game, powers)
	tb.Outbox()
	return tb, pl
}

// asks has p send a command and checks that the answer says each of wants.
func asks(t *testing.T, tb *daemontest.Table, p daemontest.Player, command string, wants ...string) {
	t.Helper()
	tb.As(p, command)
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), p.Addr, "Re:").Text, wants...)
}

// TestEnglandVsTurkeyByMail: the two-player game from its start: England's
// fleets open from the North Sea and the Channel, its empty home centres
// still count, the absent powers' centres fall unopposed, and the game
// ends by concession.
func TestEnglandVsTurkeyByMail(t *testing.T) {
	tb, pl := openGame(t, "evt", "England vs Turkey", "evt1", []string{"england", "turkey"})
	asks(t, tb, pl["england"], "RULES",
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
	tb, pl := openGame(t, "fleetrome", "Fleet Rome", "fr1", sevenPowers)
	asks(t, tb, pl["italy"], "RULES", "Fleet Rome", "rb41", "fleet in Rome")
	asks(t, tb, pl["italy"], "STATUS", "F Nap, F Rom, A Ven")
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

// TestPureByMail: seven players, seven provinces: a supported attack
// across the board dislodges Germany, which has nowhere to retreat; France
// keeps its empty home and builds there, an army (no fleets in Pure); every
// player reads each phase and its picture.
func TestPureByMail(t *testing.T) {
	tb, pl := openGame(t, "pure", "Pure (7 provinces", "pure1", sevenPowers)
	asks(t, tb, pl["russia"], "RULES", "Pure", "Danny Loeb", "bordering every other", "Solo victory at 4 supply centres")

	order(t, tb, pl, map[string]string{
		"france":  "A Par - Ber",
		"england": "A Lon S A Par - Ber",
		"germany": "A Ber H",
		"russia":  "A Mos - Con",
		"turkey":  "A Con - Mos",
	})
	const noRetreat = "Your A Ber was dislodged with no retreat possible: it is disbanded in Spring 1901 Retreats (order A Ber D, or nothing)."
	for power, text := range readResults(t, endPhase(tb, "pure1"), "pure1", "S1901M", "Spring 1901 Movement", pl) {
		daemontest.Contains(t, text, "A Par - Ber", "A Lon S A Par - Ber", "A Mos - Con", "Next phase: Spring 1901 Retreats")
		// Germany alone is told, in one sentence, that its army is lost.
		if power == "germany" {
			daemontest.Contains(t, strings.Join(strings.Fields(text), " "), noRetreat)
		} else {
			daemontest.Lacks(t, text, "Your A Ber")
		}
	}
	order(t, tb, pl, map[string]string{"germany": "A Ber D"})
	for _, text := range readResults(t, endPhase(tb, "pure1"), "pure1", "S1901R", "Spring 1901 Retreats", pl) {
		daemontest.Contains(t, text, "A Ber D", "Next phase: Fall 1901 Movement")
	}
	order(t, tb, pl, map[string]string{"france": "A Ber H", "england": "A Lon H"})
	for _, text := range readResults(t, endPhase(tb, "pure1"), "pure1", "F1901M", "Fall 1901 Movement", pl) {
		daemontest.Contains(t, text, "France: 2 centres (Ber Par)", "Germany is eliminated", "Next phase: Winter 1901 Adjustments")
	}
	asks(t, tb, pl["france"], "Build F Par", "a fleet cannot be built in Par")
	order(t, tb, pl, map[string]string{"france": "Build A Par"})
	for _, text := range readResults(t, endPhase(tb, "pure1"), "pure1", "W1901A", "Winter 1901 Adjustments", pl) {
		daemontest.Contains(t, text, "Build A Par", "France: 2 centres (Ber Par); units: A Ber, A Par")
	}
	delete(pl, "germany") // eliminated: no vote
	concede(t, tb, "pure1", "france", pl)
}
