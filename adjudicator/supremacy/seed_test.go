package supremacy

import (
	"sort"
	"strings"
	"testing"
)

// The tests in this file each quote the line of the seed
// (shared/seeds/supremacy-2020.txt) they enforce, and play it on the
// shipped default scenario.

// Seed, Arms Sales: "If Minors have ICBMs, they will always fire them at
// any player that attacks them." A strike that destroys the minor does not
// disarm it first.
func TestSeedMinorHitByICBMFiresBack(t *testing.T) {
	t.Run("a strike that destroys the minor", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).order("usa", "russia")
		f.player("usa").ICBM = 1
		f.w.minorI[f.area("mex")] = 1
		f.resolve(map[string][]string{"usa": {"LAUNCH 1 AT mex"}})
		if !f.w.dead[f.area("mex")] {
			t.Fatal("Mexico not hit")
		}
		f.says("Mexico fires its 1 ICBM at United States")
		if !f.w.dead[f.area("usw")] {
			t.Errorf("Mexico's ICBM did not reach the United States' first home city:\n%s", f.public())
		}
		f.eq("mexico icbm", f.w.minorI[f.area("mex")], 0)
	})
	t.Run("an ICBM shot down: the minor fires all the same", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).order("usa", "russia")
		f.player("usa").ICBM = 1
		f.w.minorI[f.area("mex")] = 2
		f.w.minorB[f.area("mex")] = 1
		f.resolve(map[string][]string{"usa": {"LAUNCH 1 AT mex"}},
			6) // Mexico's ABM kills the incoming ICBM
		f.says("Mexico fires its 2 ICBMs at United States")
		if f.w.dead[f.area("mex")] {
			t.Error("Mexico destroyed although the ICBM was shot down")
		}
	})
}

// Seed, Naval Blockade: "To control a sea area, you must have at least 1
// Navy in it, while the enemy has none. Several players may collectively
// Blockade a target player." Two blockaders in one sea do not break their
// own blockade.
func TestSeedJointBlockadeSharingASea(t *testing.T) {
	f := newFixture(t, "usa,commonwealth,russia", nil).phase(PhaseSalaries, 1)
	f.give("russia", "paulista")
	f.navies("usa", "car", 1).navies("usa", "moa", 1)
	f.navies("commonwealth", "moa", 2).navies("commonwealth", "drk", 1)
	f.resolve(map[string][]string{"usa": {"BLOCKADE paulista"}, "commonwealth": {"BLOCKADE paulista"}})
	f.eq("russia grain", f.player("russia").Grain, 0)
	if !f.w.cardBlk[f.card("paulista")] {
		t.Errorf("the joint blockade broke itself:\n%s", f.public())
	}
	t.Run("a third player's navy neither helps nor breaks it", func(t *testing.T) {
		f := newFixture(t, "usa,commonwealth,russia,japan", nil).phase(PhaseSalaries, 1)
		f.give("russia", "paulista")
		f.navies("usa", "car", 1).navies("commonwealth", "moa", 1).navies("commonwealth", "drk", 1).navies("japan", "drk", 1)
		f.resolve(map[string][]string{"usa": {"BLOCKADE paulista"}, "commonwealth": {"BLOCKADE paulista"}})
		f.eq("russia grain", f.player("russia").Grain, 0)
	})
}

// Seed, Resolving an ICBM Attack: destroyed company cards "are placed back
// in the deck. If pulled later during research, the money is wasted and
// the research attempt fails" — whatever the card's type.
func TestSeedDestroyedCardEndsResearch(t *testing.T) {
	f := newFixture(t, "eu,russia", nil).phase(PhaseBuild, 1)
	f.smallDeck("texoil", "siboil", "riomin", "plains")
	for _, id := range []string{"texoil", "siboil", "riomin"} {
		f.w.cardDed[f.card(id)] = true
	}
	f.resolve(map[string][]string{"russia": {"RESEARCH GRAIN"}})
	f.says("turns over 1 cards", "destroyed by a nuclear strike: the money is wasted and the attempt fails")
	f.eq("cash: one card turned", f.player("russia").Cash, 7000-200)
	if f.w.cardAt[f.card("plains")] == f.idx("russia") {
		t.Error("the attempt went on past a destroyed card")
	}
}

// Seed, Conventional Attack, steps "5. Defender Reinforce: may make 1
// move" and "6. Attacker Reinforce: may make 1 move" are steps of the
// conventional attack; a Strategic Attack is "1. Identify 2. ABMs 3.
// Resolve Combat" and has no reinforcing moves.
func TestSeedNoReinforcementAfterStrategicAttack(t *testing.T) {
	t.Run("the defender's standing reinforcement does not move", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.player("russia").ICBM = 1
		f.navies("eu", "nth", 2).armies("eu", "fra", 2).res("eu", 0, 0, 1)
		f.player("eu").Reactions = []string{"IF ATTACKED: MOVE 1 fra - ger"}
		f.resolve(map[string][]string{"russia": {"LAUNCH 1 AT nth"}})
		f.eq("eu navies sunk", f.navyIn("eu", "nth"), 0)
		f.eq("eu armies still in France", f.armyIn("eu", "fra"), 2)
		if strings.Contains(f.public(), "reinforces") {
			t.Errorf("a reinforcement after a strategic attack:\n%s", f.public())
		}
	})
	t.Run("the same reaction after a conventional attack moves", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.armies("russia", "pol", 1).res("russia", 1, 1, 1)
		f.armies("eu", "ger", 1).armies("eu", "fra", 2).res("eu", 0, 0, 1)
		f.player("eu").Reactions = []string{"IF ATTACKED: MOVE 1 fra - ger"}
		f.resolve(map[string][]string{"russia": {"ATTACK ger FROM pol"}},
			1, 1) // both miss
		f.says("European Union reinforces")
		f.eq("eu armies in Germany", f.armyIn("eu", "ger"), 2)
	})
	t.Run("Check refuses a REINFORCE after a LAUNCH", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.player("russia").ICBM = 1
		f.armies("russia", "mos", 2)
		errs, _ := f.check("russia", "LAUNCH 1 AT nth\nREINFORCE MOVE mos - blr")
		if len(errs) != 1 || !strings.Contains(errs[0], "no reinforcing move follows a strategic attack") {
			t.Errorf("Check: %q", errs)
		}
		errs, _ = f.check("russia", "ATTACK ukr FROM mos\nREINFORCE MOVE mos - blr")
		for _, e := range errs {
			if strings.Contains(e, "REINFORCE") || strings.Contains(e, "reinforc") {
				t.Errorf("Check refuses a reinforcement after a conventional attack: %q", errs)
			}
		}
	})
}

// TestSeedWorkedExamples plays every worked example of the seed on the
// shipped map, one subtest per example, named by its words.
func TestSeedWorkedExamples(t *testing.T) {
	t.Run("Loans: A $5,000 BL loan costs $400 BL in interest each turn", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseTrade, 1)
		f.resolve(map[string][]string{"russia": {"LOAN 5000"}})
		f.eq("cash after the loan", f.player("russia").Cash, 12000)
		f.phase(PhaseSalaries, 2).resolve(nil)
		f.eq("cash after salaries", f.player("russia").Cash, 12000-400)
		f.tells("russia", "Loan interest on $5,000 BL: $400 BL")
	})

	blockade := func(t *testing.T) *fixture {
		f := newFixture(t, "usa,commonwealth,russia", nil).phase(PhaseSalaries, 1)
		f.give("russia", "paulista") // a Russian grain company in Brazil
		f.navies("usa", "car", 1)
		f.navies("commonwealth", "moa", 1).navies("commonwealth", "drk", 1)
		return f
	}
	jointly := map[string][]string{"usa": {"BLOCKADE paulista"}, "commonwealth": {"BLOCKADE paulista"}}
	t.Run("Naval Blockade: The US has Navies in the Caribbean. The Commonwealth has Navies in the Mouth of the Amazon and the Drake Passage. They could jointly declare a blockade of a Russian grain company in Brazil", func(t *testing.T) {
		sc, _ := ScenarioByName("default")
		var seas []string
		for _, s := range sc.areas[sc.areaByID["bra"]].seas {
			seas = append(seas, sc.areas[s].ID)
		}
		sort.Strings(seas)
		if strings.Join(seas, " ") != "car drk moa" {
			t.Errorf("Brazil's seas are %v: the example needs exactly the Caribbean, the Mouth of the Amazon and the Drake Passage", seas)
		}
		if co := sc.cards[sc.cardByID["paulista"]].company; co == nil || co.res != Grain || sc.areas[co.area].ID != "bra" {
			t.Fatal("no grain company in Brazil")
		}
		f := blockade(t)
		f.resolve(jointly)
		f.eq("russia grain", f.player("russia").Grain, 0)
		if !f.w.cardBlk[f.card("paulista")] {
			t.Errorf("not blockaded:\n%s", f.public())
		}
		f.says("United States and Commonwealth blockade Paulista Grain of Russian Federation")
	})
	for _, sea := range []string{"moa", "drk"} {
		t.Run("Naval Blockade: The Russians could disrupt this blockade with one Navy in either of those sea areas ("+sea+")", func(t *testing.T) {
			f := blockade(t)
			f.navies("russia", sea, 1)
			f.resolve(jointly)
			f.eq("russia grain", f.player("russia").Grain, 2)
			f.says("is not controlled by the blockaders")
		})
	}

	t.Run("Commodities Market: Japan ... purchase 5 oils ... at the high $500 BL. They pay the bank $2,500 BL ... Oil is now the lower $800 BL price", func(t *testing.T) {
		f := newFixture(t, "usa,japan", nil).phase(PhaseTrade, 1)
		f.resolve(map[string][]string{"japan": {"BUY 5 OIL"}})
		f.eq("japan cash", f.player("japan").Cash, 7000-2500)
		f.eq("japan oil", f.player("japan").Oil, 5)
		f.eq("oil price", f.w.price(Oil), 800)
	})

	t.Run("Conventional Attack: Russia attacks into the Ukraine from Moscow, Volgograd and the Caucasus", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.armies("russia", "mos", 2).armies("russia", "vol", 1).armies("russia", "cau", 1).res("russia", 1, 1, 1)
		f.armies("eu", "ukr", 2)
		f.resolve(map[string][]string{"russia": {"ATTACK Ukraine FROM Moscow, Volgograd and the Caucasus"}},
			6, 4, 1, 2, // Russia's four armies: two hits
			1, 5) // the EU's two: one hit
		f.eq("russia in ukr", f.armyIn("russia", "ukr"), 3)
		f.eq("supplies: one set", f.player("russia").Oil+f.player("russia").Minerals+f.player("russia").Grain, 0)
	})
	t.Run("Conventional Attack: St. Pete. attacks Baltic States, Belarus attacks Poland and Volgograd attacks Ukraine", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.armies("russia", "stp", 1).armies("russia", "blr", 1).armies("russia", "vol", 1).res("russia", 1, 1, 1)
		f.resolve(map[string][]string{"russia": {"ATTACK Baltic States FROM St Pete AND Poland FROM Belarus AND Ukraine FROM Volgograd"}},
			1, 6, 2, // Baltic States raise 1; Russia hits; the minor misses
			1, 6, 2, // Poland likewise
			1, 6, 2) // Ukraine likewise
		for _, a := range []string{"bal", "pol", "ukr"} {
			f.eq("russia in "+a, f.armyIn("russia", a), 1)
		}
	})
	t.Run("Blitz Attack: Russia attacks into the Ukraine from Moscow 3 times", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.armies("russia", "mos", 3).res("russia", 1, 1, 1).armies("eu", "ukr", 3)
		f.resolve(map[string][]string{"russia": {"ATTACK ukr FROM mos BLITZ 3"}},
			1, 1, 1, 1, 1, 1, // round 1: nobody hits
			6, 6, 1, 1, 1, 4, // round 2: two hits for Russia, one for the EU
			6, 1, 1) // round 3: Russia's two against the EU's one
		f.eq("russia in ukr", f.armyIn("russia", "ukr"), 2)
		f.says("round 3")
	})
	t.Run("Blitz Attack: Moscow attacks Ukraine for 2 rounds and Belarus attacks Poland", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.armies("russia", "mos", 2).armies("russia", "blr", 1).res("russia", 1, 1, 1)
		f.resolve(map[string][]string{"russia": {"ATTACK ukr FROM mos FOR 2 ROUNDS AND pol FROM blr"}},
			2,    // Ukraine raises 1
			1, 1, // round 1: Russia misses twice
			6,    // Ukraine hits: Moscow loses one
			6, 1, // round 2: Russia hits, Ukraine misses
			1,    // Poland raises 1
			6, 1) // Belarus hits, Poland misses
		f.eq("russia in ukr", f.armyIn("russia", "ukr"), 1)
		f.eq("russia in pol", f.armyIn("russia", "pol"), 1)
		f.says("round 2")
	})
	t.Run("Naval Invasions: Japan invades Korea ... blitz in Korea for 2 rounds ... 1 set and 1 extra oil ... China has 2 Navies in the Sea of Japan ... contest", func(t *testing.T) {
		f := newFixture(t, "japan,china", nil).order("japan", "china")
		f.armies("japan", "jap", 3).navies("japan", "soj", 3).res("japan", 2, 1, 1)
		f.navies("china", "soj", 2)
		f.player("china").Contests = []string{"CONTEST ALL"}
		f.resolve(map[string][]string{"japan": {"ATTACK kor FROM jap VIA soj BLITZ 2"}},
			6, 6, // Japan's two navies not carrying fire (the third carries)
			1, 2, // China's two navies miss
			4,             // Korea raises 2
			6, 6, 1, 1, 1, // three landed armies and two escorts
			1, 1) // Korea misses
		f.eq("china navies", f.navyIn("china", "soj"), 0)
		f.eq("japan in kor", f.armyIn("japan", "kor"), 3)
		f.eq("japan oil: 1 for the set, 1 for the navies", f.player("japan").Oil, 0)
		f.says("China contests Sea of Japan: naval combat", "1 oil for navy moves")
	})
	t.Run("Naval Invasions: They can allow the invasion", func(t *testing.T) {
		f := newFixture(t, "japan,china", nil).order("japan", "china")
		f.armies("japan", "jap", 3).navies("japan", "soj", 3).res("japan", 2, 1, 1)
		f.navies("china", "soj", 2)
		f.resolve(map[string][]string{"japan": {"ATTACK kor FROM jap VIA soj BLITZ 2"}},
			4,             // Korea raises 2
			6, 6, 1, 1, 1, // three landed armies and two escorts
			1, 1) // Korea misses
		f.eq("china navies untouched", f.navyIn("china", "soj"), 2)
		f.eq("japan in kor", f.armyIn("japan", "kor"), 3)
	})
	t.Run("Choke Points: Egypt controls naval movement from the Arabian Sea to the Eastern Med", func(t *testing.T) {
		f := newFixture(t, "usa,eu,russia", nil).phase(PhaseMove, 1)
		f.navies("usa", "ars", 2).res("usa", 3, 0, 0).armies("eu", "egy", 1)
		f.resolve(map[string][]string{"usa": {"MOVE ars - emd"}})
		f.eq("closed while the EU holds Egypt", f.navyIn("usa", "emd"), 0)
		f.resolveAgain(map[string][]string{"eu": {"PERMIT usa THROUGH suez"}, "usa": {"MOVE ars - emd"}})
		f.eq("with the EU's permission", f.navyIn("usa", "emd"), 2)
		f.armies("eu", "egy", 0).resolveAgain(map[string][]string{"eu": {"DENY ALL"}, "usa": {"MOVE emd - ars"}})
		f.eq("If this area is neutral, all players can freely move through", f.navyIn("usa", "ars"), 2)
	})
	t.Run("Arms Sales: A Minor will buy an ICBM for $1,000 BL. To buy it back, a player must pay $2,000 BL", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseBuild, 1)
		p := f.player("usa")
		p.TechICBM = true
		f.res("usa", 0, 1, 0)
		f.resolve(map[string][]string{"usa": {"BUILD 1 ICBM", "SELL 1 ICBM TO mex"}})
		f.eq("usa cash", p.Cash, 7000-500+1000)
		f.phase(PhaseBuild, 2).resolve(map[string][]string{"russia": {"BUY BACK 1 ICBM FROM mex"}})
		f.eq("russia cash", f.player("russia").Cash, 7000-2000)
		f.eq("mexico icbm", f.w.minorI[f.area("mex")], 0)
	})
	t.Run("Multiple City Areas: Some areas have multiple Cities (Japan and Brazil) ... designate a specific city", func(t *testing.T) {
		f := newFixture(t, "usa,japan", nil).order("usa", "japan")
		f.player("usa").ICBM = 1
		f.armies("japan", "jap", 3)
		for _, a := range []string{"jap", "bra"} {
			if errs, _ := f.check("usa", "LAUNCH 1 AT "+a); len(errs) == 0 || !strings.Contains(errs[0], "several cities") {
				t.Errorf("LAUNCH AT %s: %v", a, errs)
			}
		}
		f.resolve(map[string][]string{"usa": {"LAUNCH 1 AT Tokyo"}})
		f.eq("Areas are still in play (and defending Armies) until all cities in them are destroyed", f.armyIn("japan", "jap"), 3)
	})
}
