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
		f.says("United States and Commonwealth blockade Russian Federation's Paulista Grain company: Russian Federation loses the 2 grain it produced")
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
	t.Run("Choke Points: The map designates several key choke points ... For example: the Panama Canal, Suez, Gibraltar", func(t *testing.T) {
		sc, _ := ScenarioByName("default")
		names := map[string]bool{}
		for _, c := range sc.chokes {
			names[c.Name] = true
		}
		for _, n := range []string{"Panama Canal", "Suez", "Gibraltar"} {
			if !names[n] {
				t.Errorf("no choke point %s", n)
			}
		}
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

// Seed, High Tech Edge: "The player with the most ABMs has a technological
// advantage in a Conventional Attack: he may re-roll any 3 dice." A contest
// at sea is a round of the conventional attack, so the edge applies there
// too.
func TestSeedHighTechEdgeInContestRounds(t *testing.T) {
	f := newFixture(t, "japan,china", nil).order("japan", "china")
	f.armies("japan", "jap", 3).navies("japan", "soj", 3).res("japan", 2, 1, 1)
	f.player("japan").ABM = 1 // the most ABMs
	f.navies("china", "soj", 1)
	f.player("china").Contests = []string{"CONTEST soj ROUNDS 1"}
	f.resolve(map[string][]string{"japan": {"ATTACK kor FROM jap VIA soj"}},
		1, 1, // Japan's two escorts miss
		6,       // China's navy hits
		1, 6, 1, // the edge: China's hit re-rolled (1), then Japan's two misses (6, 1)
		2,             // Korea raises 1
		6, 1, 1, 1, 1, // three landed armies and two escorts
		1) // Korea misses
	f.says("China contests Sea of Japan", "High tech edge: Japan (most ABMs) re-rolls 3 dice [6 1 1] → [1 6 1]")
	f.eq("china navies", f.navyIn("china", "soj"), 0)
	f.eq("japan navies", f.navyIn("japan", "soj"), 3)
	f.eq("japan in kor", f.armyIn("japan", "kor"), 3)
}

// Seed, Conventional Attack: "4. Occupy: If all defending armies are
// destroyed, attacking Armies may immediately occupy the defender's area":
// may, so some may stay where they attacked from.
func TestSeedOccupyLeavingArmiesBehind(t *testing.T) {
	f := newFixture(t, "eu,russia", nil).order("russia", "eu")
	f.armies("russia", "mos", 3).armies("russia", "vol", 2).res("russia", 1, 1, 1)
	f.resolve(map[string][]string{"russia": {"ATTACK ukr FROM Moscow, Volgograd LEAVE 1 IN Moscow, 1 IN Volgograd"}},
		2,             // Ukraine raises 1
		6, 1, 1, 1, 1, // Russia's five armies: one hit
		1) // Ukraine misses
	f.eq("russia in ukr", f.armyIn("russia", "ukr"), 3)
	f.eq("russia left in mos", f.armyIn("russia", "mos"), 1)
	f.eq("russia left in vol", f.armyIn("russia", "vol"), 1)
	f.says("Russian Federation occupies Ukraine with 3 armies; 1 in Moscow, 1 in Volgograd stay behind")
	f.phase(PhaseAttack, 1)
	if errs, _ := f.check("russia", "ATTACK ukr FROM mos LEAVE 1 IN stp"); len(errs) == 0 || !strings.Contains(errs[0], "LEAVE names an area") {
		t.Errorf("Check accepts LEAVE in an area that does not attack: %v", errs)
	}
}

// Seed, Naval Combat: "players select their own pieces to remove for
// losses" (and Conventional Attack: "remove 1 participating enemy piece
// for every 4-6 result"). A standing LOSSES order says which of the
// attacker's places lose first.
func TestSeedLossesChosenByTheirOwner(t *testing.T) {
	play := func(t *testing.T, lines ...string) *fixture {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.armies("russia", "mos", 2).armies("russia", "vol", 3).res("russia", 1, 1, 1)
		f.armies("eu", "ukr", 3)
		f.resolve(map[string][]string{"russia": append(lines, "ATTACK ukr FROM mos, vol")},
			1, 1, 1, 1, 1, // Russia misses
			6, 6, 1) // the EU hits twice
		return f
	}
	t.Run("by default the largest group", func(t *testing.T) {
		f := play(t)
		f.eq("russia in vol", f.armyIn("russia", "vol"), 2)
		f.eq("russia in mos", f.armyIn("russia", "mos")+f.armyIn("russia", "vol"), 3)
	})
	t.Run("LOSSES mos: Moscow's armies first", func(t *testing.T) {
		f := play(t, "LOSSES mos")
		f.eq("russia in mos", f.armyIn("russia", "mos"), 0)
		f.eq("russia in vol", f.armyIn("russia", "vol"), 3)
		f.tells("russia", "Your attacking pieces are now lost first from: mos")
		if got := strings.Join(f.player("russia").Losses, ","); got != "mos" {
			t.Errorf("standing losses %q", got)
		}
	})
	t.Run("the order stands for later attacks", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.player("russia").Losses = []string{"mos"}
		f.armies("russia", "mos", 2).armies("russia", "vol", 3).res("russia", 1, 1, 1).armies("eu", "ukr", 3)
		f.resolve(map[string][]string{"russia": {"ATTACK ukr FROM mos, vol"}}, 1, 1, 1, 1, 1, 6, 1, 1)
		f.eq("russia in mos", f.armyIn("russia", "mos"), 1)
		f.eq("russia in vol", f.armyIn("russia", "vol"), 3)
	})
}

// Seed, Costs: "Players do not spend 1 resource for each piece moved.
// Instead, they spend 1 resource to move a whole group" — "Any units can
// move, as long as they end their move in the same designated area". Navies
// of two seas sailing into one sea before combat pay one oil.
func TestSeedGroupMovePaysOnce(t *testing.T) {
	f := newFixture(t, "japan,china", nil).order("japan", "china")
	f.navies("japan", "npo", 1).navies("japan", "okh", 1).res("japan", 2, 1, 1)
	f.resolve(map[string][]string{"japan": {"ATTACK kor FROM npo TO soj, okh TO soj"}},
		2,    // Korea raises 1
		6, 1, // the two navies fire at the coast
		1) // Korea misses
	f.says("(1 set of supplies, 1 oil for navy moves)")
	f.eq("japan oil", f.player("japan").Oil, 0)
	f.eq("japan navies in soj", f.navyIn("japan", "soj"), 2)
}

// Seed, Arms Sales: "he may sell some or all of them to other players ...
// He may also sell them to any Minor Power for profit" and "Minors will
// pay twice the build cost in cash to buy weapons": navies too.
func TestSeedMinorsBuyNavies(t *testing.T) {
	f := newFixture(t, "usa,russia", nil).phase(PhaseBuild, 1)
	f.res("usa", 1, 1, 1)
	f.resolve(map[string][]string{"usa": {"BUILD 3 NAVIES IN car", "SELL 3 NAVIES IN car TO Mexico"}})
	f.eq("mexico navies", f.w.minorN[f.area("mex")], 3)
	f.eq("usa navies", f.navyIn("usa", "car"), 0)
	f.eq("usa cash: $300 for the set, twice $100 a navy back", f.player("usa").Cash, 7000-300+600)
	f.says("United States sells 3 NAVIES to Mexico for $600 BL")
	f.phase(PhaseBuild, 1)
	if errs, _ := f.check("usa", "SELL 3 NAVIES IN car TO kaz"); len(errs) == 0 || !strings.Contains(errs[0], "no coast") {
		t.Errorf("Check: a landlocked minor buys navies: %v", errs)
	}
	// "Minors will sell their weapons for twice what they paid."
	f.phase(PhaseBuild, 2).resolve(map[string][]string{"russia": {"BUY BACK 1 NAVY FROM mex"}})
	f.eq("mexico navies", f.w.minorN[f.area("mex")], 2)
	f.eq("russia cash", f.player("russia").Cash, 7000-400)
	// "Navies can fire at Armies in adjacent areas": the minor's navies
	// fire in its defence; it loses its raised armies first, then navies.
	f.phase(PhaseAttack, 3).armies("usa", "tex", 3).res("usa", 1, 1, 1)
	f.resolve(map[string][]string{"usa": {"ATTACK mex FROM tex"}},
		2,       // Mexico raises 1
		6, 6, 1, // the United States hits twice
		1, 1, 1) // Mexico's army and two navies miss
	f.says("Mexico's 2 navies off its coast fire in its defence", "dice (Mexico defending with 3)")
	f.eq("mexico navies left", f.w.minorN[f.area("mex")], 1)
	f.eq("usa in mex", f.armyIn("usa", "mex"), 3)
	// the state keeps them
	w2, err := decodeWorld(f.w.encode())
	if err != nil || w2.minorN[f.area("mex")] != 1 {
		t.Errorf("minor navies lost in the state: %v", err)
	}
}
