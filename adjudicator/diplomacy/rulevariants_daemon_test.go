package diplomacy_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"pbemd/adjudicator"
	"pbemd/adjudicator/diplomacy"
	"pbemd/daemon/daemontest"
)

// Whole games of the rule variants by mail (rulevariants.go): each is
// created, signed up, played phase by phase through the real daemon, and
// ended; every player's mails are read: the acknowledgement, the results
// with their picture, the end.

// endPhase lets game's open phase reach its deadline and returns the
// mails it sent.
func endPhase(tb *daemontest.Table, game string) []daemontest.Mail {
	tb.T.Helper()
	tb.Wait(tb.Game(game).Deadline.Sub(tb.Now()) + time.Minute)
	return tb.Outbox()
}

// readResults checks that each player got the results of the phase
// (phaseID, title) with the picture of the position after it, and
// returns the texts by power.
func readResults(t *testing.T, ms []daemontest.Mail, game, phaseID, title string, pl map[string]daemontest.Player) map[string]string {
	t.Helper()
	out := map[string]string{}
	for power, p := range pl {
		m := daemontest.One(t, ms, p.Addr, title+" — results")
		daemontest.OnePicture(t, m, game+"-"+phaseID+".png")
		out[power] = m.Text
	}
	return out
}

// order mails each power's orders and checks every acknowledgement.
func order(t *testing.T, tb *daemontest.Table, pl map[string]daemontest.Player, orders map[string]string) {
	t.Helper()
	for power, text := range orders {
		tb.As(pl[power], text)
		ack := daemontest.One(t, tb.Outbox(), pl[power].Addr, "Re:").Text
		daemontest.Contains(t, ack, "Orders received")
		daemontest.Lacks(t, ack, "Please look again", "could not understand", "illegal")
	}
}

// concede has every player vote to concede the game to winner and checks
// that each reads the end.
func concede(t *testing.T, tb *daemontest.Table, game, winner string, pl map[string]daemontest.Player) {
	t.Helper()
	for _, p := range pl {
		tb.As(p, "CONCEDE "+winner)
	}
	ms := append(tb.Outbox(), endPhase(tb, game)...)
	if g := tb.Game(game); g.Status != "over" && g.Status != "finished" {
		t.Fatalf("the game is %s after every player conceded", g.Status)
	}
	for power, p := range pl {
		found := false
		for _, m := range ms {
			if m.To == p.Addr && strings.Contains(m.Text, "conceded the game to") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s read no end of the game", power)
		}
	}
}

// TestFranceVsAustriaByMail: the two-player game from its start: the
// empty Italian and German home centres are taken unopposed, counted in
// the Winter, and the game ends by concession.
func TestFranceVsAustriaByMail(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("fva1", "fva", "")
	pl := tb.SignUp("fva1", []string{"austria", "france"})
	tb.Outbox()
	tb.As(pl["france"], "RULES")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["france"].Addr, "Re:").Text,
		"France vs Austria", "start neutral and empty", "Victory at 18")

	order(t, tb, pl, map[string]string{
		"austria": "F Tri - Ven\nA Vie - Tyr\nA Bud - Ser",
		"france":  "A Par - Bur\nA Mar - Spa\nF Bre - Mao",
	})
	for _, text := range readResults(t, endPhase(tb, "fva1"), "fva1", "S1901M", "Spring 1901 Movement", pl) {
		daemontest.Contains(t, text, "F Tri - Ven", "A Par - Bur", "Next phase: Fall 1901 Movement")
		daemontest.Lacks(t, text, "England", "Germany", "Italy", "Russia", "Turkey", "bounce")
	}
	order(t, tb, pl, map[string]string{
		"austria": "A Tyr - Mun\nF Ven H\nA Ser H",
		"france":  "A Bur - Bel\nA Spa H\nF Mao - Por",
	})
	for _, text := range readResults(t, endPhase(tb, "fva1"), "fva1", "F1901M", "Fall 1901 Movement", pl) {
		daemontest.Contains(t, text, "Austria: 6 centres", "France: 6 centres", "Next phase: Winter 1901 Adjustments")
	}
	order(t, tb, pl, map[string]string{
		"austria": "Build A Vie\nBuild A Bud\nBuild F Tri",
		"france":  "Build A Par\nBuild A Mar\nBuild F Bre",
	})
	for _, text := range readResults(t, endPhase(tb, "fva1"), "fva1", "W1901A", "Winter 1901 Adjustments", pl) {
		daemontest.Contains(t, text, "Austria: 6 centres", "units: A Bud, A Mun, A Ser, F Tri, F Ven, A Vie")
	}
	concede(t, tb, "fva1", "france", pl)
}

// TestGermanyVsItalyByMail: the other two-player game, to its end.
func TestGermanyVsItalyByMail(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("gvi1", "gvi", "")
	pl := tb.SignUp("gvi1", []string{"germany", "italy"})
	tb.Outbox()
	order(t, tb, pl, map[string]string{
		"germany": "A Mun - Tyr\nA Ber - Sil\nF Kie - Den",
		"italy":   "A Ven - Tyr\nA Rom - Apu\nF Nap - Ion",
	})
	for _, text := range readResults(t, endPhase(tb, "gvi1"), "gvi1", "S1901M", "Spring 1901 Movement", pl) {
		daemontest.Contains(t, text, "A Mun - Tyr", "A Ven - Tyr", "Next phase: Fall 1901 Movement")
		daemontest.Lacks(t, text, "England", "France", "Austria", "Russia", "Turkey")
	}
	order(t, tb, pl, map[string]string{
		"germany": "A Sil - War\nF Den H\nA Mun H",
		"italy":   "A Apu - Nap\nF Ion - Tun\nA Ven - Tri",
	})
	for _, text := range readResults(t, endPhase(tb, "gvi1"), "gvi1", "F1901M", "Fall 1901 Movement", pl) {
		daemontest.Contains(t, text, "Germany: 5 centres (Ber Den Kie Mun War)", "Italy: 5 centres (Nap Rom Tri Tun Ven)")
	}
	concede(t, tb, "gvi1", "germany", pl)
}

// TestBuildAnywhereByMail: a power builds by mail in centres it took
// that are not home centres; every player reads the builds and their
// picture.
func TestBuildAnywhereByMail(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("ba1", "buildanywhere", "")
	powers := []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"}
	pl := tb.SignUp("ba1", powers)
	tb.Outbox()
	tb.As(pl["germany"], "RULES")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["germany"].Addr, "Re:").Text, "Build Anywhere", "any vacant supply centre it owns")
	germany := func(text string) { order(t, tb, pl, map[string]string{"germany": text}) }
	germany("F Kie - Den\nA Mun - Ruh\nA Ber - Kie")
	readResults(t, endPhase(tb, "ba1"), "ba1", "S1901M", "Spring 1901 Movement", pl)
	germany("F Den H\nA Ruh - Hol\nA Kie H")
	readResults(t, endPhase(tb, "ba1"), "ba1", "F1901M", "Fall 1901 Movement", pl)
	germany("Build A Mun\nBuild A Ber")
	readResults(t, endPhase(tb, "ba1"), "ba1", "W1901A", "Winter 1901 Adjustments", pl)
	germany("A Hol - Bel\nF Den - Swe")
	readResults(t, endPhase(tb, "ba1"), "ba1", "S1902M", "Spring 1902 Movement", pl)
	germany("A Bel H\nF Swe H")
	fall := readResults(t, endPhase(tb, "ba1"), "ba1", "F1902M", "Fall 1902 Movement", pl)
	daemontest.Contains(t, fall["germany"], "Germany: 7 (Bel Ber Den Hol Kie Mun Swe), 5 units: builds 2",
		"You may build 2 units in Den or Hol")
	// Denmark and Holland, left empty, are Germany's still: it builds
	// there, as HELP's example says.
	tb.As(pl["germany"], "HELP")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["germany"].Addr, "Re:").Text, "Build Anywhere", "Build A Den")
	germany("Build F Den\nBuild A Hol")
	for _, text := range readResults(t, endPhase(tb, "ba1"), "ba1", "W1902A", "Winter 1902 Adjustments", pl) {
		daemontest.Contains(t, text, "Build F Den", "Build A Hol", "Germany: 7 centres (Bel Ber Den Hol Kie Mun Swe); units: A Bel, A Ber, F Den, A Hol, A Kie, A Mun, F Swe")
		daemontest.Lacks(t, text, "illegal")
	}
	concede(t, tb, "ba1", "germany", pl)
}

// TestChaosByMail: 34 players, one centre each: the Winter 1900 builds
// by mail (army or fleet, each in its own centre), a Spring in which
// powers bounce and support one another, and the end by concession.
func TestChaosByMail(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("chaos1", "chaos", "")
	e, _ := adjudicator.Lookup("chaos")
	pl := tb.SignUp("chaos1", e.Info().Powers)
	tb.Outbox()
	byID := map[string]daemontest.Player{}
	std, _ := diplomacy.MapByName("chaos")
	for key, p := range pl {
		id, ok := std.PowerID(key)
		if !ok {
			t.Fatalf("a player is %q, no power of chaos", key)
		}
		byID[id] = p
	}
	tb.As(byID["paris"], "RULES")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), byID["paris"].Addr, "Re:").Text,
		"Chaos", "34 powers", "Victory at 18", "The game starts in Winter 1900")

	builds := map[string]string{}
	fleets := map[string]string{"london": "F Lon", "brest": "F Bre", "kiel": "F Kie", "naples": "F Nap",
		"stpetersburg": "F StP/nc", "trieste": "F Tri", "ankara": "F Ank", "sevastopol": "F Sev"}
	for _, sc := range std.SupplyCentres() {
		p, _ := std.Province(sc)
		id := p.Home
		builds[id] = "Build A " + p.Abbrev
		if f, ok := fleets[id]; ok {
			builds[id] = "Build " + f
		}
	}
	order(t, tb, byID, builds)
	for power, text := range readResults(t, endPhase(tb, "chaos1"), "chaos1", "W1900A", "Winter 1900 Adjustments", byID) {
		daemontest.Contains(t, text, "Build F StP/nc", "Build A Par", "Next phase: Spring 1901 Movement")
		if !strings.Contains(text, "units: "+strings.TrimPrefix(builds[power], "Build ")) {
			t.Errorf("%s does not read its unit %s in the position:\n%s", power, builds[power], text)
		}
	}
	order(t, tb, byID, map[string]string{
		"paris":      "A Par - Bur",
		"munich":     "A Mun - Bur",
		"marseilles": "A Mar - Bur",
		"belgium":    "A Bel S A Mar - Bur",
		"london":     "F Lon - Nth",
	})
	for _, text := range readResults(t, endPhase(tb, "chaos1"), "chaos1", "S1901M", "Spring 1901 Movement", byID) {
		daemontest.Contains(t, text, "Marseilles: 1 centre (Mar); units: A Bur", "London: 1 centre (Lon); units: F Nth")
	}
	concede(t, tb, "chaos1", "marseilles", byID)
}

// TestFogOfWarByMail: every mail a player of a fog game gets (the
// acknowledgements, the results, STATUS, HISTORY, MAP, WHATIF, HELP) names no unit of
// another power outside what the player's units and centres border, and
// each player's picture is its own; the observer's shows the whole board.
func TestFogOfWarByMail(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("fog1", "fog", "")
	tb.Send("watcher@example.test", "", "OBSERVE fog1")
	watcher := daemontest.One(t, tb.Outbox(), "watcher@example.test", "Re:").Token
	powers := []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"}
	pl := tb.SignUp("fog1", powers)
	mails := map[string][]string{} // power → every text it got
	keep := func(ms []daemontest.Mail) {
		for _, m := range ms {
			for p, who := range pl {
				if m.To == who.Addr {
					mails[p] = append(mails[p], m.Text)
				}
			}
		}
	}
	keep(tb.Outbox())
	e, _ := adjudicator.Lookup("fog")
	fe := e.(interface {
		Position([]byte) (*diplomacy.Position, error)
	})
	var positions []*diplomacy.Position
	pos := func() {
		p, err := fe.Position(tb.State("fog1"))
		if err != nil {
			t.Fatal(err)
		}
		positions = append(positions, p)
	}
	pos()
	opening := map[string]string{
		"england": "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
		"france":  "F Bre - Mao\nA Par - Bur\nA Mar - Spa",
		"germany": "F Kie - Den\nA Ber - Kie\nA Mun - Ruh",
		"italy":   "F Nap - Ion\nA Rom - Apu\nA Ven H",
		"austria": "F Tri - Alb\nA Vie - Gal\nA Bud - Ser",
		"russia":  "F StP/sc - Bot\nA Mos - Ukr\nA War - Gal\nF Sev - Bla",
		"turkey":  "F Ank - Bla\nA Con - Bul\nA Smy - Arm",
	}
	for p, text := range opening {
		tb.As(pl[p], text)
	}
	keep(tb.Outbox())
	ms := endPhase(tb, "fog1")
	keep(ms)
	pos()
	rec := tb.Phase("fog1", 0)
	for p, who := range pl {
		m := daemontest.One(t, ms, who.Addr, "Spring 1901 Movement — results")
		got := daemontest.OnePicture(t, m, "fog1-S1901M.png")
		if !bytes.Equal(got, daemontest.Drawn(t, "fog", rec.StateAfter, rec.Data, p)) {
			t.Errorf("%s's picture is not its own view", p)
		}
		daemontest.Contains(t, m.Text, "the position you see")
	}
	obs := daemontest.OnePicture(t, daemontest.One(t, ms, "watcher@example.test", "results"), "fog1-S1901M.png")
	if !bytes.Equal(obs, daemontest.Drawn(t, "fog", rec.StateAfter, rec.Data, "")) {
		t.Error("the observer's picture is not the whole board")
	}
	// HISTORY gives a player its own part of the phase's results again
	// (the board as it saw it), the GM every power's.
	tb.As(pl["england"], "HISTORY S1901M")
	hist := daemontest.One(t, tb.Outbox(), pl["england"].Addr, "Re:").Text
	daemontest.Contains(t, hist, "--- for you only ---", strings.TrimSpace(strings.SplitN(rec.Private["england"], "\n", 2)[0]))
	tb.Send(daemontest.GM, gm, "HISTORY S1901M")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), daemontest.GM, "Re:").Text, "--- for England only ---", "--- for Turkey only ---")
	tb.Send("watcher@example.test", watcher, "HISTORY S1901M")
	watched := daemontest.One(t, tb.Outbox(), "watcher@example.test", "Re:").Text
	daemontest.Contains(t, watched, "=== Spring 1901 Movement ===")
	daemontest.Lacks(t, watched, "only ---", "F Nth")
	for _, who := range pl {
		for _, cmd := range []string{"STATUS", "HISTORY S1901M", "MAP", "WHATIF", "HELP"} {
			tb.As(who, cmd)
		}
	}
	keep(tb.Outbox())
	daemontest.Contains(t, strings.Join(mails["england"], "\n"), "England: 3 centres (Edi Lon Lvp); units: F Nth, F Nwg, A Yor", "Germany: 0 centres (); units: F Den")
	// An order for a unit England does not see (Germany's A Ruh): the
	// answer does not say whose it is, or that there is one.
	tb.As(pl["england"], "A Ruh - Bel")
	ack := daemontest.One(t, tb.Outbox(), pl["england"].Addr, "Re:").Text
	daemontest.Contains(t, ack, "there is no unit in Ruh")
	daemontest.Lacks(t, ack, "Germany", "German", "belongs")

	// What each power may see: the provinces of its units and centres and
	// their neighbours, in any position of the game so far.
	for _, p := range powers {
		seen := map[string]bool{}
		for _, ps := range positions {
			m := ps.Map
			mark := func(prov string) {
				seen[prov] = true
				for _, q := range m.Provinces {
					if m.Adjacent(prov, q.ID) {
						seen[q.ID] = true
					}
				}
			}
			for _, u := range ps.Units {
				if u.Power == p {
					mark(u.Loc.Province)
				}
			}
			for prov, owner := range ps.Owners {
				if owner == p {
					mark(prov)
				}
			}
		}
		var hidden []string
		for _, ps := range positions {
			for _, u := range ps.Units {
				if u.Power != p && !seen[u.Loc.Province] {
					hidden = append(hidden, ps.Map.UnitName(u))
				}
			}
		}
		if len(hidden) < 5 {
			t.Fatalf("%s may not see only %v: the test sees too little hidden", p, hidden)
		}
		text := strings.Join(mails[p], "\n")
		for _, u := range hidden {
			if strings.Contains(text, u+" ") || strings.Contains(text, u+"\n") || strings.Contains(text, u+",") {
				t.Errorf("%s's mails name %s, which it may not see", p, u)
			}
		}
	}
}
