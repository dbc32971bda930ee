package supremacy

import (
	"strings"
	"testing"
)

// Seed: Conventional Attack — one set of supplies, up to 3 activated areas,
// every piece rolls, 4–6 hits, survivors occupy when the defence is gone.
func TestConventionalAttack(t *testing.T) {
	t.Run("the seed's example: three areas into Ukraine", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.armies("russia", "mos", 2).armies("russia", "vol", 1).armies("russia", "cau", 1).res("russia", 1, 1, 1)
		f.armies("eu", "ukr", 2)
		f.resolve(map[string][]string{"russia": {"ATTACK Ukraine FROM Moscow, Volgograd and the Caucasus"}},
			6, 4, 1, 2, // Russia's four armies: two hits
			1, 5) // the EU's two: one hit
		f.eq("eu in ukr", f.armyIn("eu", "ukr"), 0)
		f.eq("russia in ukr", f.armyIn("russia", "ukr"), 3)
		f.eq("russia left in mos", f.armyIn("russia", "mos"), 0)
		p := f.player("russia")
		f.eq("supplies", p.Oil+p.Minerals+p.Grain, 0)
		f.says("scores 2 hits, the defence 1", "Russian Federation occupies Ukraine with 3 armies")
	})
	t.Run("several targets", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.armies("russia", "stp", 1).armies("russia", "blr", 1).armies("russia", "vol", 1).res("russia", 1, 1, 1)
		f.resolve(map[string][]string{"russia": {"ATTACK Baltic States FROM St Pete AND Poland FROM Belarus AND Ukraine FROM Volgograd"}},
			1, 6, 2, // Baltic States raise 1 (1d6/2 up); Russia hits; the minor misses
			1, 6, 2, // Poland likewise
			2, 3, 6) // Ukraine raises 1; Russia misses, the minor hits
		f.eq("bal", f.armyIn("russia", "bal"), 1)
		f.eq("pol", f.armyIn("russia", "pol"), 1)
		f.eq("ukr", f.armyIn("russia", "ukr"), 0)
		f.eq("vol", f.armyIn("russia", "vol"), 0)
		f.says("Ukraine holds Ukraine")
	})
	t.Run("undefended home area: no combat", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.armies("russia", "blr", 2).armies("russia", "pol", 2).res("russia", 1, 1, 1)
		f.resolve(map[string][]string{"russia": {"ATTACK ger FROM pol"}})
		f.eq("russia in ger", f.armyIn("russia", "ger"), 2)
		f.says("Germany is undefended: no combat")
	})
	t.Run("stay: the attackers do not occupy", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.armies("russia", "pol", 2).res("russia", 1, 1, 1)
		f.resolve(map[string][]string{"russia": {"ATTACK ger FROM pol STAY"}})
		f.eq("russia in ger", f.armyIn("russia", "ger"), 0)
		f.eq("russia in pol", f.armyIn("russia", "pol"), 2)
	})
	t.Run("no supplies, no attack", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.armies("russia", "pol", 2).res("russia", 1, 1, 0)
		f.resolve(map[string][]string{"russia": {"ATTACK ger FROM pol"}})
		f.eq("russia in ger", f.armyIn("russia", "ger"), 0)
		f.says("an attack costs 1 set of supplies")
	})
	t.Run("three activations at most", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.armies("russia", "mos", 2).armies("russia", "vol", 2).res("russia", 1, 1, 1)
		errs, _ := f.check("russia", "ATTACK ukr FROM mos, vol BLITZ 2")
		if len(errs) == 0 || !strings.Contains(errs[0], "at most 3") {
			t.Errorf("Check: %v", errs)
		}
	})
	t.Run("impassable terrain", func(t *testing.T) {
		f := newFixture(t, "china,russia", nil)
		f.armies("russia", "ind", 2)
		errs, _ := f.check("russia", "ATTACK wch FROM ind")
		if len(errs) == 0 || !strings.Contains(errs[0], "impassable") {
			t.Errorf("Check: %v", errs)
		}
	})
	t.Run("attack as often as supplies last; PASS stops", func(t *testing.T) {
		f := newFixture(t, "eu,russia", nil).order("russia", "eu")
		f.armies("russia", "pol", 2).armies("russia", "blr", 2).res("russia", 3, 3, 3)
		f.resolve(map[string][]string{"russia": {"ATTACK ger FROM pol", "ATTACK ukr FROM blr", "PASS", "ATTACK bal FROM blr"}},
			1, 6, 6, 1) // Ukraine raises 1, Russia's two armies: one hit; Ukraine misses
		f.eq("supplies used", f.player("russia").Oil, 1)
		f.eq("ukr", f.armyIn("russia", "ukr"), 2)
		f.eq("bal", f.armyIn("russia", "bal"), 0)
	})
}

// Seed: Blitz Attack — the same forces attack the same target round after
// round.
func TestBlitz(t *testing.T) {
	f := newFixture(t, "eu,russia", nil).order("russia", "eu")
	f.armies("russia", "mos", 3).res("russia", 1, 1, 1).armies("eu", "ukr", 3)
	f.resolve(map[string][]string{"russia": {"ATTACK ukr FROM mos BLITZ 3"}},
		1, 1, 1, 1, 1, 1, // round 1: nobody hits
		6, 6, 1, 1, 1, 4, // round 2: two hits each way... one for the EU
		6, 1, 1) // round 3: Russia's two against the EU's one
	f.eq("eu", f.armyIn("eu", "ukr"), 0)
	f.eq("russia", f.armyIn("russia", "ukr"), 2)
	f.says("round 2", "round 3")
}

// Seed: Minor Power Armies — 1d6/2 rounded up, plus armies bought; an
// unplayed superpower's home raises a full 1d6.
func TestMinorPowers(t *testing.T) {
	t.Run("half a die, rounded up, plus bought armies", func(t *testing.T) {
		f := newFixture(t, "china,russia", nil).order("china", "russia")
		f.armies("china", "bei", 1).res("china", 1, 1, 1)
		f.w.minorA[f.area("mon")] = 2
		f.resolve(map[string][]string{"china": {"ATTACK mon FROM bei"}}, 5, 1, 6, 6, 1, 1, 1)
		f.says("Mongolia raises 3 armies (1d6/2, rounded up) besides 2 bought", "Mongolia holds Mongolia")
		f.eq("bought armies after", f.w.minorA[f.area("mon")], 2)
	})
	t.Run("white armies are lost first", func(t *testing.T) {
		f := newFixture(t, "china,russia", nil).order("china", "russia")
		f.armies("china", "bei", 2).res("china", 1, 1, 1)
		f.w.minorA[f.area("mon")] = 1
		f.resolve(map[string][]string{"china": {"ATTACK mon FROM bei"}}, 1, 6, 1, 1, 1)
		f.eq("bought armies left", f.w.minorA[f.area("mon")], 1)
	})
	t.Run("an unplayed superpower's home: a full die", func(t *testing.T) {
		f := newFixture(t, "china,russia", nil).order("china", "russia")
		f.armies("china", "sha", 1).navies("china", "ecs", 1).res("china", 2, 1, 1)
		f.resolve(map[string][]string{"china": {"ATTACK kyu FROM sha VIA ecs"}}, 5, 6, 1, 1, 1, 1, 1)
		f.says("Kyushu, an unplayed superpower's home, raises 5 armies (1d6)", "The invasion fails")
		f.eq("china in sha", f.armyIn("china", "sha"), 0)
	})
	t.Run("a minor held by a player raises none", func(t *testing.T) {
		f := newFixture(t, "china,russia", nil).order("china", "russia")
		f.armies("china", "bei", 2).res("china", 1, 1, 1).armies("russia", "mon", 1)
		f.resolve(map[string][]string{"china": {"ATTACK mon FROM bei"}}, 6, 1, 1)
		f.eq("china in mon", f.armyIn("china", "mon"), 2)
	})
}

// Seed: High Tech Edge — the player with the most ABMs re-rolls up to 3
// dice in a conventional attack.
func TestHighTechEdge(t *testing.T) {
	t.Run("re-rolls", func(t *testing.T) {
		f := newFixture(t, "china,russia", nil).order("china", "russia")
		f.armies("china", "bei", 2).res("china", 1, 1, 1)
		f.player("china").ABM = 2
		f.resolve(map[string][]string{"china": {"ATTACK mon FROM bei"}},
			2,    // Mongolia raises 1
			1, 1, // China misses twice
			5,    // Mongolia hits
			2,    // re-roll of Mongolia's hit: a miss
			4, 6) // re-rolls of China's misses: two hits
		f.eq("china in mon", f.armyIn("china", "mon"), 2)
		f.says("High tech edge: China (most ABMs) re-rolls 3 dice [5 1 1] → [2 4 6]")
	})
	t.Run("a tie gives no edge", func(t *testing.T) {
		f := newFixture(t, "china,russia", nil).order("china", "russia")
		f.armies("china", "bei", 2).res("china", 1, 1, 1)
		f.player("china").ABM, f.player("russia").ABM = 2, 2
		f.resolve(map[string][]string{"china": {"ATTACK mon FROM bei"}}, 2, 1, 1, 5)
		f.eq("china in bei", f.armyIn("china", "bei"), 1)
		if strings.Contains(f.public(), "High tech") {
			t.Error("an edge on a tie")
		}
	})
}

// Seed: Naval Operations, Naval Combat — fleets coexist; a naval attack is
// fought in one sea; navies sail one move (1 oil) before combat; choke
// points need the controller's permission.
func TestNavalCombat(t *testing.T) {
	t.Run("attack a fleet in its sea", func(t *testing.T) {
		f := newFixture(t, "usa,china", nil).order("usa", "china")
		f.navies("usa", "car", 3).navies("china", "car", 2).res("usa", 1, 1, 1)
		f.resolve(map[string][]string{"usa": {"ATTACK china IN car FROM car"}}, 6, 6, 1, 4, 1)
		f.eq("china navies", f.navyIn("china", "car"), 0)
		f.eq("usa navies", f.navyIn("usa", "car"), 2)
		f.says("United States sinks 2, China sinks 1")
	})
	t.Run("sail in through an open choke point", func(t *testing.T) {
		f := newFixture(t, "usa,china", nil).order("usa", "china")
		f.navies("usa", "epo", 2).navies("china", "car", 1).res("usa", 2, 1, 1)
		f.resolve(map[string][]string{"usa": {"ATTACK car FROM epo"}}, 6, 1, 1)
		f.eq("usa in car", f.navyIn("usa", "car"), 2)
		f.eq("usa oil", f.player("usa").Oil, 0)
		f.eq("china", f.navyIn("china", "car"), 0)
	})
	t.Run("a choke point closed by its controller", func(t *testing.T) {
		f := newFixture(t, "usa,china", nil).order("usa", "china")
		f.navies("usa", "epo", 2).navies("china", "car", 1).res("usa", 2, 1, 1).armies("china", "cam", 1)
		f.resolve(map[string][]string{"usa": {"ATTACK car FROM epo"}})
		f.says("closed choke point")
		f.eq("usa in epo", f.navyIn("usa", "epo"), 2)
		// with China's permission the fleet passes
		f.resolveAgain(map[string][]string{"china": {"PERMIT usa THROUGH panama"}, "usa": {"ATTACK car FROM epo"}}, 6, 6, 1)
		f.eq("usa in car", f.navyIn("usa", "car"), 2)
	})
	t.Run("fleets coexist in the move phase only without fighting", func(t *testing.T) {
		f := newFixture(t, "usa,china", nil).phase(PhaseMove, 1)
		f.navies("usa", "epo", 2).navies("china", "car", 1).res("usa", 1, 0, 0)
		f.resolve(map[string][]string{"usa": {"MOVE epo - car"}})
		f.eq("usa in car", f.navyIn("usa", "car"), 0)
		f.says("navies move only into seas without other navies")
	})
}

// Seed: Naval Invasions, Naval Combat — armies carried by navies (3 each);
// a contesting fleet must be sunk first, carriers cannot fire, losing a
// carrier loses its armies; escorts fire at the coast; invaders who fail
// are lost.
func TestNavalInvasion(t *testing.T) {
	t.Run("the seed's example: Japan into Korea, contested by China", func(t *testing.T) {
		f := newFixture(t, "japan,china", nil).order("japan", "china")
		f.armies("japan", "jap", 3).navies("japan", "soj", 3).res("japan", 2, 1, 1)
		f.navies("china", "soj", 1)
		f.player("china").Contests = []string{"CONTEST ALL"}
		f.resolve(map[string][]string{"japan": {"ATTACK kor FROM jap VIA soj BLITZ 2"}},
			6, 1, // Japan's two navies not carrying fire (the third carries)
			2,             // China's navy misses
			4,             // Korea raises 2
			6, 6, 1, 1, 1, // three landed armies and two escorts
			1, 1) // Korea misses
		f.eq("china navies", f.navyIn("china", "soj"), 0)
		f.eq("japan in kor", f.armyIn("japan", "kor"), 3)
		f.eq("japan navies", f.navyIn("japan", "soj"), 3)
		f.eq("japan oil", f.player("japan").Oil, 0)
		f.says("China contests Sea of Japan: naval combat", "Japan occupies Korea with 3 armies")
	})
	t.Run("carriers sunk with their armies", func(t *testing.T) {
		f := newFixture(t, "japan,china", nil).order("japan", "china")
		f.armies("japan", "jap", 3).navies("japan", "soj", 1).res("japan", 2, 1, 1)
		f.navies("china", "soj", 2)
		f.player("china").Contests = []string{"CONTEST soj ROUNDS 1"}
		f.resolve(map[string][]string{"japan": {"ATTACK kor FROM jap VIA soj"}},
			5, 1) // China's two navies: one hit (Japan's carrier cannot fire)
		f.eq("japan navies", f.navyIn("japan", "soj"), 0)
		f.eq("japan armies anywhere", f.armyIn("japan", "jap")+f.armyIn("japan", "kor"), 0)
		f.says("loses 1 carrying navies with their armies", "No attacker is left to fight for Korea")
	})
	t.Run("failed invasion: the invaders are lost", func(t *testing.T) {
		f := newFixture(t, "japan,china", nil).order("japan", "china")
		f.armies("japan", "jap", 2).navies("japan", "soj", 1).res("japan", 2, 1, 1).armies("china", "kor", 3)
		f.resolve(map[string][]string{"japan": {"ATTACK kor FROM jap VIA soj"}}, 1, 1, 1, 1, 1)
		f.eq("japan armies", f.armyIn("japan", "jap")+f.armyIn("japan", "kor"), 0)
		f.eq("china", f.armyIn("china", "kor"), 3)
		f.eq("japan navy survives", f.navyIn("japan", "soj"), 1)
	})
	t.Run("navies bombard the coast", func(t *testing.T) {
		f := newFixture(t, "japan,china", nil).order("japan", "china")
		f.navies("japan", "ecs", 2).res("japan", 1, 1, 1).armies("china", "kor", 1)
		f.resolve(map[string][]string{"japan": {"ATTACK kor FROM ecs"}}, 6, 1, 1)
		f.eq("china", f.armyIn("china", "kor"), 0)
		f.says("no army is left to occupy it")
	})
	t.Run("capacity: three armies per navy", func(t *testing.T) {
		f := newFixture(t, "japan,china", nil).order("japan", "china")
		f.armies("japan", "jap", 5).navies("japan", "soj", 1).res("japan", 2, 1, 1)
		f.resolve(map[string][]string{"japan": {"ATTACK kor FROM jap VIA soj"}}, 1, 6, 6, 6, 1)
		f.eq("japan in kor", f.armyIn("japan", "kor"), 3)
		f.eq("japan left home", f.armyIn("japan", "jap"), 2)
	})
}

// Seed: Strategic Attack, Resolving an ICBM Attack — ICBMs are used up,
// ABMs fire at them (2–6; −1 over an area the owner does not control) and
// are not; a hit destroys the area's pieces and companies and contaminates
// it; a sea hit sinks the navies and does not count.
func TestStrategicAttack(t *testing.T) {
	t.Run("launch, interception, contamination", func(t *testing.T) {
		f := newFixture(t, "usa,eu,russia", nil).order("usa", "eu", "russia")
		f.player("usa").ICBM = 3
		f.player("russia").ABM = 1
		f.player("eu").ABM = 1
		f.player("eu").ABMPolicy = "all"
		f.armies("russia", "mos", 4).give("russia", "mosmin")
		f.resolve(map[string][]string{"usa": {"LAUNCH 2 AT Moscow"}},
			2, // the EU's ABM over Moscow (not the EU's): 2−1 misses
			2) // Russia's ABM over its own Moscow: 2 kills
		f.eq("usa icbm", f.player("usa").ICBM, 1)
		f.eq("russia abm kept", f.player("russia").ABM, 1)
		f.eq("russia armies", f.armyIn("russia", "mos"), 0)
		if !f.w.dead[f.area("mos")] {
			t.Error("Moscow not contaminated")
		}
		if f.w.cardAt[f.card("mosmin")] != cardDeck || !f.w.cardDed[f.card("mosmin")] {
			t.Error("Moscow Minerals not destroyed into the deck")
		}
		f.eq("detonations", f.w.deton, 1)
		f.says("The ICBM on Moscow is destroyed", "Moscow is contaminated and out of play")
		// a contaminated area is out of play: no army may enter it
		f.phase(PhaseMove, 1).armies("russia", "stp", 2).res("russia", 0, 0, 1)
		f.resolve(map[string][]string{"russia": {"MOVE stp - mos"}})
		f.eq("russia in mos", f.armyIn("russia", "mos"), 0)
	})
	t.Run("two on one area: the second falls on ruins", func(t *testing.T) {
		f := newFixture(t, "usa,eu,russia", nil).order("usa", "eu", "russia")
		f.player("usa").ICBM = 2
		f.resolve(map[string][]string{"usa": {"LAUNCH 2 AT vol"}})
		f.says("Volgograd is contaminated", "An ICBM falls on the ruins of Volgograd (land detonation 2)")
		f.eq("detonations", f.w.deton, 2)
	})
	t.Run("a sea strike", func(t *testing.T) {
		f := newFixture(t, "usa,eu,russia", nil).order("usa", "eu", "russia")
		f.player("usa").ICBM = 1
		f.navies("russia", "blt", 3).navies("eu", "blt", 1)
		f.resolve(map[string][]string{"usa": {"LAUNCH 1 AT Baltic Sea"}})
		f.eq("navies", f.navyIn("russia", "blt")+f.navyIn("eu", "blt"), 0)
		f.eq("detonations", f.w.deton, 0)
		if f.w.dead[f.area("blt")] {
			t.Error("a sea contaminated")
		}
	})
	t.Run("multiple city areas", func(t *testing.T) {
		f := newFixture(t, "usa,japan", nil).order("usa", "japan")
		f.player("usa").ICBM = 2
		f.armies("japan", "jap", 3).give("japan", "tokyomin", "osakagrain")
		f.resolve(map[string][]string{"usa": {"LAUNCH 1 AT Tokyo"}})
		f.eq("armies fight on", f.armyIn("japan", "jap"), 3)
		if f.w.dead[f.area("jap")] || !f.w.cities[f.area("jap")][0] {
			t.Error("Tokyo alone should be destroyed")
		}
		if f.w.cardAt[f.card("tokyomin")] != cardDeck || f.w.cardAt[f.card("osakagrain")] != f.idx("japan") {
			t.Error("the wrong companies were destroyed")
		}
		f.says("the city is destroyed; Japan fights on")
		f.resolveAgain(map[string][]string{"usa": {"LAUNCH 1 AT Osaka"}})
		f.eq("armies", f.armyIn("japan", "jap"), 0)
		if !f.w.dead[f.area("jap")] {
			t.Error("Japan not contaminated after its last city")
		}
		f.eq("detonations", f.w.deton, 2)
		f.phase(PhaseAttack, 1)
		errs, _ := f.check("usa", "LAUNCH 1 AT bra")
		if len(errs) == 0 || !strings.Contains(errs[0], "several cities") {
			t.Errorf("Check: %v", errs)
		}
	})
	t.Run("counterattack with ICBMs", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).order("usa", "russia")
		f.player("usa").ICBM = 1
		f.player("russia").ICBM = 1
		f.player("russia").Reactions = []string{"IF ATTACKED BY usa: LAUNCH 1 AT usw"}
		f.resolve(map[string][]string{"usa": {"LAUNCH 1 AT sib"}})
		if !f.w.dead[f.area("sib")] || !f.w.dead[f.area("usw")] {
			t.Error("strike and counterstrike")
		}
		f.says("Russian Federation launches 1 ICBM (counterattack)")
	})
}

// Seed: Nuclear Winter — from the 12th land detonation a die: 6 ends the
// game, +1 for each later one; the player who triggered it is last.
func TestNuclearWinter(t *testing.T) {
	t.Run("rolled and missed, then triggered", func(t *testing.T) {
		f := newFixture(t, "usa,eu,russia", nil).order("usa", "eu", "russia")
		f.player("usa").ICBM = 2
		f.w.deton = 11
		f.resolve(map[string][]string{"usa": {"LAUNCH 1 AT ukr, 1 AT pol"}},
			5, // 12th: 5 + 0, no winter
			5) // 13th: 5 + 1 = 6: winter
		if !f.w.over || !f.w.winter || f.w.winBy != "usa" {
			t.Fatalf("over %v winter %v by %q", f.w.over, f.w.winter, f.w.winBy)
		}
		if last := f.w.ranking[len(f.w.ranking)-1]; last != "usa" {
			t.Errorf("ranking %v: the trigger-puller must be last", f.w.ranking)
		}
		f.says("No nuclear winter (5 + 0)", "NUCLEAR WINTER (5 + 1)")
	})
}

// Seed: Attack step sequence — defender reinforces, attacker reinforces,
// then each defender may counterattack once (random order); a counterattack
// draws none in turn.
func TestCounterattack(t *testing.T) {
	f := newFixture(t, "eu,russia", nil).order("russia", "eu")
	f.armies("russia", "blr", 3).armies("russia", "mos", 2).res("russia", 1, 1, 2)
	f.armies("eu", "ukr", 1).armies("eu", "pol", 2).armies("eu", "ger", 3).res("eu", 1, 1, 2)
	f.player("eu").Reactions = []string{
		"IF ATTACKED BY russia IN ukr: MOVE 1 ger - pol",
		"IF ATTACKED BY russia IN ukr: ATTACK blr FROM pol",
	}
	f.player("russia").Reactions = []string{"IF ATTACKED: ATTACK pol FROM blr"}
	f.resolve(map[string][]string{"russia": {"ATTACK ukr FROM blr STAY", "REINFORCE MOVE mos - blr"}},
		6, 1, 1, // Russia: one hit
		1, // EU misses
		// EU reinforces Poland (3 armies), Russia reinforces Belarus (5)
		1, 1, 1, // EU's counterattack from Poland: no hits
		6, 6, 1, 1, 1) // Belarus defends: two hits
	f.eq("russia in ukr (stay)", f.armyIn("russia", "ukr"), 0)
	f.eq("eu in ukr", f.armyIn("eu", "ukr"), 0)
	f.eq("eu in pol", f.armyIn("eu", "pol"), 1)
	f.eq("russia in blr", f.armyIn("russia", "blr"), 5)
	f.eq("eu grain", f.player("eu").Grain, 0)
	out := f.public()
	iReinf, iAtt, iCounter := strings.Index(out, "European Union reinforces"), strings.Index(out, "Russian Federation reinforces"), strings.Index(out, "counterattacks")
	if !(iReinf >= 0 && iReinf < iAtt && iAtt < iCounter) {
		t.Errorf("wrong sequence:\n%s", out)
	}
	if strings.Count(out, "counterattacks") != 1 {
		t.Errorf("a counterattack drew a counterattack:\n%s", out)
	}
}

// Seed: Arms Sales — minors buy at twice the cash cost, sell back at twice
// what they paid, and fire their ICBMs at whoever attacks them.
func TestArmsSales(t *testing.T) {
	t.Run("sell and buy back", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseBuild, 1)
		p := f.player("usa")
		p.TechICBM = true
		f.res("usa", 1, 3, 1)
		f.resolve(map[string][]string{"usa": {"BUILD 3 ARMIES IN tex", "BUILD 1 ICBM", "SELL 1 ICBM TO mex", "SELL 2 ARMIES IN tex TO mex", "SELL 1 ARMY IN usw TO mex"}})
		f.eq("mexico icbm", f.w.minorI[f.area("mex")], 1)
		f.eq("mexico armies", f.w.minorA[f.area("mex")], 2)
		f.eq("usa armies", f.armyIn("usa", "tex"), 1)
		f.eq("usa cash", p.Cash, 7000-300-500+1000+400)
		f.says("United States sells 1 ICBM to Mexico for $1,000 BL")
		f.tells("usa", "you have not built 1 armies in Western United States this turn")
		f.phase(PhaseBuild, 2).resolve(map[string][]string{"russia": {"BUY BACK 1 ICBM FROM mex"}})
		f.eq("mexico icbm", f.w.minorI[f.area("mex")], 0)
		f.eq("russia cash (seed: twice what the minor paid)", f.player("russia").Cash, 7000-2000)
	})
	t.Run("a minor fires its ICBMs at its attacker", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).order("usa", "russia")
		f.armies("usa", "tex", 3).res("usa", 1, 1, 1)
		f.w.minorI[f.area("mex")] = 1
		f.resolve(map[string][]string{"usa": {"ATTACK mex FROM tex"}}, 2, 6, 6, 6, 1)
		f.eq("usa in mex", f.armyIn("usa", "mex"), 3)
		f.eq("mexico icbm", f.w.minorI[f.area("mex")], 0)
		if !f.w.dead[f.area("usw")] {
			t.Error("Mexico's ICBM missed the United States' first home city")
		}
		f.says("Mexico fires its 1 ICBM at United States")
	})
	t.Run("arms sold to another player", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseBuild, 1).order("usa", "russia")
		f.res("usa", 1, 1, 1)
		f.resolve(map[string][]string{
			"usa":    {"BUILD 3 ARMIES IN tex", "OFFER TO russia: 3 ARMIES IN tex FOR $600"},
			"russia": {"ACCEPT usa PLACE vol"},
		})
		f.eq("russia in vol", f.armyIn("russia", "vol"), 3)
		f.eq("usa in tex", f.armyIn("usa", "tex"), 0)
		f.eq("usa cash", f.player("usa").Cash, 7000-300+600)
		f.says("United States sells 3 armies in Texas to Russian Federation, placed in Volgograd")
	})
}
