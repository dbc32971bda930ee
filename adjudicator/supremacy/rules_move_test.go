package supremacy

import (
	"fmt"
	"strings"
	"testing"
)

// Seed: Move, Costs — armies move one area into areas their player
// controls, 1 grain per group (from one area, or into one area); navies up
// to 3 seas into seas without other navies, 1 oil.
func TestMove(t *testing.T) {
	t.Run("a group from one area", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseMove, 1)
		f.armies("russia", "mos", 5).armies("russia", "ukr", 1).res("russia", 0, 0, 1)
		f.resolve(map[string][]string{"russia": {"MOVE 3 mos - ukr, 1 mos - stp"}})
		f.eq("ukr", f.armyIn("russia", "ukr"), 4)
		f.eq("stp (unoccupied home)", f.armyIn("russia", "stp"), 1)
		f.eq("mos", f.armyIn("russia", "mos"), 1)
		f.eq("grain", f.player("russia").Grain, 0)
	})
	t.Run("a group into one area", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseMove, 1)
		f.armies("russia", "mos", 2).armies("russia", "sib", 2).res("russia", 0, 0, 1)
		f.resolve(map[string][]string{"russia": {"MOVE mos - stp, sib - stp"}})
		f.eq("stp", f.armyIn("russia", "stp"), 4)
	})
	t.Run("neither one source nor one destination", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseMove, 1)
		if errs, _ := f.check("russia", "MOVE mos - stp, vol - sib"); len(errs) == 0 || !strings.Contains(errs[0], "group move") {
			t.Errorf("Check: %v", errs)
		}
	})
	t.Run("only into controlled areas; not into another's undefended home", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseMove, 1)
		f.armies("russia", "pol", 2).armies("russia", "blr", 2).res("russia", 0, 0, 3)
		f.resolve(map[string][]string{"russia": {"MOVE pol - ger", "MOVE blr - ukr", "MOVE pol - blr"}})
		f.eq("ger", f.armyIn("russia", "ger"), 0)
		f.eq("ukr", f.armyIn("russia", "ukr"), 0)
		f.eq("blr", f.armyIn("russia", "blr"), 4)
		f.says("you do not control Germany", "you do not control Ukraine")
		f.eq("grain", f.player("russia").Grain, 2)
	})
	t.Run("one area only", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseMove, 1)
		if errs, _ := f.check("russia", "MOVE mos - sib"); len(errs) != 0 {
			t.Errorf("neighbours refused: %v", errs)
		}
		if errs, _ := f.check("russia", "MOVE stp - vol"); len(errs) == 0 {
			t.Error("a two-area army move accepted")
		}
		if errs, _ := f.check("russia", "MOVE ind - wch"); len(errs) == 0 || !strings.Contains(errs[0], "impassable") {
			t.Errorf("impassable: %v", errs)
		}
	})
	t.Run("navies: 3 seas, 1 oil, not into other fleets", func(t *testing.T) {
		f := newFixture(t, "usa,eu", nil).phase(PhaseMove, 1)
		f.navies("usa", "car", 3).navies("eu", "nth", 1).res("usa", 3, 0, 0)
		f.resolve(map[string][]string{"usa": {"MOVE 2 car - sao", "MOVE car - nth", "MOVE car - bob"}})
		f.eq("sao", f.navyIn("usa", "sao"), 2)
		f.eq("car", f.navyIn("usa", "car"), 1)
		f.says("navies move only into seas without other navies", "no route of 3 seas or less")
		f.eq("oil", f.player("usa").Oil, 2)
	})
	t.Run("rail: any distance through controlled land, 1 oil", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseMove, 1)
		f.armies("russia", "sib", 4).res("russia", 2, 0, 0).armies("russia", "ukr", 1)
		f.resolve(map[string][]string{"russia": {"RAIL 3 sib - ukr", "RAIL sib - fra"}})
		f.eq("ukr", f.armyIn("russia", "ukr"), 4)
		f.eq("oil", f.player("russia").Oil, 1)
		f.says("you do not control France")
	})
	t.Run("air lift: 3 armies to any controlled area", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseMove, 1)
		f.armies("russia", "sib", 4).armies("russia", "mex", 1).res("russia", 1, 0, 0)
		f.resolve(map[string][]string{"russia": {"AIRLIFT 3 sib - mex"}})
		f.eq("mex", f.armyIn("russia", "mex"), 4)
		if errs, _ := f.check("russia", "AIRLIFT 4 sib - mex"); len(errs) == 0 {
			t.Error("an air lift of 4 accepted")
		}
	})
	t.Run("naval transport", func(t *testing.T) {
		f := newFixture(t, "japan,china", nil).phase(PhaseMove, 1)
		f.armies("japan", "jap", 5).navies("japan", "soj", 1).armies("japan", "kor", 1).res("japan", 1, 0, 0)
		f.resolve(map[string][]string{"japan": {"TRANSPORT 3 jap - kor VIA soj"}})
		f.eq("kor", f.armyIn("japan", "kor"), 4)
		f.eq("oil", f.player("japan").Oil, 0)
		f.resolveAgain(map[string][]string{"japan": {"TRANSPORT 2 jap - kor VIA soj"}})
		f.says("it costs 1 oil")
		f.res("japan", 1, 0, 0).resolveAgain(map[string][]string{"japan": {"TRANSPORT 2 jap - man VIA soj"}})
		f.says("you do not control Manchuria")
		f.resolveAgain(map[string][]string{"japan": {"TRANSPORT 2 jap - kor VIA soj"}})
		f.eq("kor", f.armyIn("japan", "kor"), 6)
		f.armies("japan", "jap", 5).res("japan", 1, 0, 0).resolveAgain(map[string][]string{"japan": {"TRANSPORT 4 jap - kor VIA soj"}})
		f.says("carry 3 armies at most")
	})
}

// Seed: Choke Points — navies cross only with the permission of the player
// controlling the control area; neutral means free.
func TestChokePoints(t *testing.T) {
	f := newFixture(t, "usa,eu,russia", nil).phase(PhaseMove, 1)
	f.navies("usa", "ars", 2).res("usa", 3, 0, 0)
	f.resolve(map[string][]string{"usa": {"MOVE ars - emd"}})
	f.eq("free while Egypt is neutral", f.navyIn("usa", "emd"), 2)
	f.armies("eu", "egy", 1)
	f.resolveAgain(map[string][]string{"usa": {"MOVE emd - ars"}})
	f.eq("held by the EU: closed", f.navyIn("usa", "ars"), 0)
	f.resolveAgain(map[string][]string{"eu": {"PERMIT usa THROUGH suez"}, "usa": {"MOVE emd - ars"}})
	f.eq("permitted", f.navyIn("usa", "ars"), 2)
	// permission is standing; a later DENY withdraws it
	f.resolveAgain(map[string][]string{"usa": {"MOVE ars - emd"}})
	f.eq("still permitted", f.navyIn("usa", "emd"), 2)
	f.resolveAgain(map[string][]string{"eu": {"DENY ALL"}, "usa": {"MOVE emd - ars"}})
	f.eq("denied", f.navyIn("usa", "emd"), 2)
}

// Seed: Build, Placement — sets of 3 for $300 and a set of supplies;
// armies in controlled home cities, navies next to a controlled home area
// even among enemy fleets; ICBMs and ABMs need their technology.
func TestBuild(t *testing.T) {
	t.Run("sets of three", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseBuild, 1)
		f.res("russia", 2, 2, 2).navies("eu", "blt", 4)
		f.resolve(map[string][]string{"russia": {"BUILD 2 ARMIES IN mos, 1 NAVY IN blt", "BUILD 3 ARMIES IN stp"}})
		f.eq("mos", f.armyIn("russia", "mos"), 2)
		f.eq("blt (among enemy navies)", f.navyIn("russia", "blt"), 1)
		f.eq("stp", f.armyIn("russia", "stp"), 3)
		f.eq("cash", f.player("russia").Cash, 7000-600)
		f.eq("supplies", f.player("russia").Oil, 0)
		if errs, _ := f.check("russia", "BUILD 2 ARMIES IN mos"); len(errs) == 0 {
			t.Error("a build of two accepted")
		}
	})
	t.Run("placement", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseBuild, 1)
		f.res("russia", 3, 3, 3).armies("eu", "stp", 1)
		f.resolve(map[string][]string{"russia": {"BUILD 3 ARMIES IN ukr", "BUILD 3 ARMIES IN stp", "BUILD 3 NAVIES IN nth", "BUILD 3 NAVIES IN arc"}})
		f.eq("built", f.player("russia").Oil, 2)
		f.eq("arc", f.navyIn("russia", "arc"), 3)
		f.tells("russia", "armies are placed in your home cities, not in Ukraine", "you do not control St Petersburg", "not in North Sea")
	})
	t.Run("weapons need technology", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseBuild, 1)
		f.res("russia", 0, 5, 0)
		f.resolve(map[string][]string{"russia": {"BUILD 1 ICBM"}})
		f.tells("russia", "you must research the ICBM technology first")
		p := f.player("russia")
		p.TechICBM, p.TechABM = true, true
		f.resolveAgain(map[string][]string{"russia": {"BUILD 2 ICBM", "BUILD 1 ABM"}})
		f.eq("icbm", p.ICBM, 2)
		f.eq("abm", p.ABM, 1)
		f.eq("minerals", p.Minerals, 1)
		f.eq("cash", p.Cash, 7000-1000-1000)
	})
}

// smallDeck leaves only these cards in the research deck.
func (f *fixture) smallDeck(ids ...string) {
	for c := range f.w.cardAt {
		if f.w.cardAt[c] == cardDeck {
			f.w.cardAt[c] = cardLoose
		}
	}
	for _, id := range ids {
		f.w.cardAt[f.card(id)] = cardDeck
	}
}

// Seed: Research, Technology.
func TestResearch(t *testing.T) {
	t.Run("turn cards until the type", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseBuild, 1)
		f.smallDeck("texoil", "siboil", "plains", "ruhr")
		f.resolve(map[string][]string{"russia": {"RESEARCH GRAIN"}})
		f.eq("card won", f.w.cardAt[f.card("plains")], f.idx("russia"))
		var n int
		out := f.public()
		i := strings.Index(out, "turns over ")
		if i < 0 {
			t.Fatalf("no research report:\n%s", out)
		}
		fmt.Sscanf(out[i+len("turns over "):], "%d", &n)
		if n < 1 || n > 4 {
			t.Fatalf("turned %d cards", n)
		}
		f.eq("cash", f.player("russia").Cash, 7000-200*n)
		if !strings.Contains(out, "Great Plains Grain) for") {
			t.Errorf("the grain card is not the last turned:\n%s", out)
		}
	})
	t.Run("halt before finding", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseBuild, 1)
		f.smallDeck("texoil", "siboil", "calioil", "plains")
		f.resolve(map[string][]string{"russia": {"RESEARCH MINERALS MAX 2"}})
		f.eq("cash", f.player("russia").Cash, 6600)
		f.says("halts after 2 cards")
	})
	t.Run("a destroyed card of the type fails", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseBuild, 1)
		f.smallDeck("texoil")
		f.w.cardDed[f.card("texoil")] = true
		f.resolve(map[string][]string{"russia": {"RESEARCH OIL"}})
		f.eq("cash", f.player("russia").Cash, 6800)
		f.says("destroyed by a nuclear strike: the money is wasted and the attempt fails")
	})
	t.Run("three attempts", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseBuild, 1)
		f.smallDeck("texoil", "siboil", "calioil", "alaoil")
		f.resolve(map[string][]string{"russia": {"RESEARCH OIL", "RESEARCH OIL", "RESEARCH OIL", "RESEARCH OIL"}})
		f.eq("companies", len(f.w.companies(f.idx("russia"))), 3)
		f.tells("russia", "3 research attempts per build phase")
	})
	t.Run("technology: card back, one piece for minerals", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).phase(PhaseBuild, 1)
		f.smallDeck("icbm1")
		f.res("russia", 0, 3, 0)
		f.resolve(map[string][]string{"russia": {"RESEARCH ICBM", "BUILD 2 ICBM", "BUILD 1 ICBM"}})
		p := f.player("russia")
		f.eq("card back in the deck", f.w.cardAt[f.card("icbm1")], cardDeck)
		if !p.TechICBM {
			t.Fatal("no technology")
		}
		f.eq("icbm", p.ICBM, 1)
		f.eq("cash (the research paid the build)", p.Cash, 6800)
		f.eq("minerals", p.Minerals, 2)
		f.tells("russia", "only one ICBM")
		// next turn, as many as resources and cash pay for
		f.phase(PhaseBuild, 2)
		p.NewICBM = false
		f.resolve(map[string][]string{"russia": {"BUILD 2 ICBM"}})
		f.eq("icbm", p.ICBM, 3)
	})
	t.Run("slow game: no weapons research before turn 3", func(t *testing.T) {
		f := newFixture(t, "eu,russia", map[string]string{"slow": "yes"}).phase(PhaseBuild, 2)
		if errs, _ := f.check("russia", "RESEARCH ABM"); len(errs) == 0 {
			t.Error("turn 2 accepted")
		}
		f.phase(PhaseBuild, 3)
		if errs, _ := f.check("russia", "RESEARCH ABM"); len(errs) != 0 {
			t.Errorf("turn 3: %v", errs)
		}
	})
}
