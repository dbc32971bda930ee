package supremacy

import (
	"strings"
	"testing"

	"pbemd/adjudicator"
)

func (f *fixture) waiting() string {
	var ids []string
	for _, i := range f.w.waiting() {
		ids = append(ids, f.w.pid(i))
	}
	return strings.Join(ids, ",")
}

// Seed: Attack, Step Sequence — played step by step (steps=attack): the
// attacker's attack, each defender's counterattack, again until the
// attacker passes; a declared launch may be called off; a player who does
// not answer passes.
func TestAttackSteps(t *testing.T) {
	f := newFixture(t, "eu,russia", map[string]string{"steps": "attack"}).order("russia", "eu")
	f.armies("russia", "mos", 3).res("russia", 2, 2, 2).armies("eu", "ukr", 1).armies("eu", "pol", 2).res("eu", 1, 1, 1)
	f.player("russia").ICBM = 1
	st := f.w.status()
	if st.Kind != adjudicator.PhaseTurn || f.waiting() != "russia" || !strings.Contains(st.Title, "Russian Federation attacks") {
		t.Fatalf("start: %+v", st)
	}
	// 1. Russia attacks; its further attack lines wait for its next step.
	f.resolve(map[string][]string{"russia": {"ATTACK ukr FROM mos", "ATTACK bal FROM mos"}}, 6, 1, 1, 1)
	f.eq("russia in ukr", f.armyIn("russia", "ukr"), 3)
	if f.waiting() != "eu" || !strings.Contains(f.w.phaseTitle(), "European Union may counterattack") {
		t.Fatalf("after the attack: waiting %s, %s", f.waiting(), f.w.phaseTitle())
	}
	if strings.Contains(f.public(), "Baltic") {
		t.Error("a second attack in one step")
	}
	// 2. The EU counterattacks; Russia's orders in this step count only as
	// anytime orders.
	f.resolve(map[string][]string{"eu": {"ATTACK ukr FROM pol"}, "russia": {"LOAN 1000", "ATTACK bal FROM ukr"}},
		1, 1, // EU's two armies miss
		6, 1, 1) // Russia's three defend: one hit
	f.eq("eu in pol", f.armyIn("eu", "pol"), 1)
	f.eq("russia loans", f.player("russia").Loans, 1000)
	if strings.Contains(f.public(), "Baltic") {
		t.Error("Russia attacked out of its step")
	}
	if f.waiting() != "russia" {
		t.Fatalf("back to the attacker: %s", f.waiting())
	}
	// 3. Russia declares a launch: everybody is told before it flies.
	f.resolve(map[string][]string{"russia": {"LAUNCH 1 AT ger"}})
	f.says("DECLARES A LAUNCH: 1 at Germany")
	if f.waiting() != "russia" || f.w.attack.Stage != "confirm" || f.player("russia").ICBM != 1 {
		t.Fatalf("confirm stage: %s %+v", f.waiting(), f.w.attack)
	}
	errs, _ := f.check("russia", "ATTACK bal FROM ukr")
	if len(errs) == 0 {
		t.Error("Check accepts an attack while a launch awaits confirmation")
	}
	// 4. Terms are agreed: Russia calls it off (and is paid).
	f.resolve(map[string][]string{"russia": {"CALL OFF"}, "eu": {"OFFER TO russia: $2000"}})
	f.eq("icbm kept", f.player("russia").ICBM, 1)
	if f.w.dead[f.area("ger")] {
		t.Error("Germany destroyed after the call-off")
	}
	f.says("calls off the launch")
	// 5. No answer: Russia passes; the EU's step.
	f.resolve(nil)
	if f.waiting() != "eu" || f.w.slot != 1 {
		t.Fatalf("next player: %s", f.waiting())
	}
	// 6. The EU passes: the attack phase ends; the move phase is a round.
	f.resolve(map[string][]string{"eu": {"PASS"}})
	if f.w.phase != PhaseMove || f.waiting() != "eu,russia" || f.w.status().Kind != adjudicator.PhaseOrders {
		t.Fatalf("after the attack phase: %s, waiting %s", f.w.phase, f.waiting())
	}
}

// In step play a defender who does not answer falls back on his standing
// counterattack; a confirmed launch flies.
func TestAttackStepsDefaults(t *testing.T) {
	f := newFixture(t, "eu,russia", map[string]string{"steps": "attack"}).order("russia", "eu")
	f.armies("russia", "mos", 3).res("russia", 1, 1, 1).armies("eu", "ukr", 1).armies("eu", "pol", 2).res("eu", 1, 1, 1)
	f.player("eu").Reactions = []string{"IF ATTACKED IN ukr: ATTACK blr FROM pol"}
	f.resolve(map[string][]string{"russia": {"ATTACK ukr FROM mos"}}, 6, 1, 1, 1)
	f.resolve(nil, 2, 6, 6, 1) // Belarus raises 1; the EU hits twice, Belarus misses
	f.says("its standing counterattack order stands")
	f.eq("eu in blr", f.armyIn("eu", "blr"), 2)
	f.player("russia").ICBM = 1
	f.resolve(map[string][]string{"russia": {"LAUNCH 1 AT ita"}})
	f.resolve(map[string][]string{"russia": {"CONFIRM"}})
	if !f.w.dead[f.area("ita")] {
		t.Errorf("the confirmed launch did not fly:\n%s", f.public())
	}
	if f.waiting() != "eu" || f.w.attack.Stage != "counter" {
		t.Errorf("the EU may counterattack the strike: %s %+v", f.waiting(), f.w.attack)
	}
}

// Seed: Strategic Attack, step 2 — in step play the defenders designate
// each ABM's target while the launch awaits confirmation; several may aim
// at one ICBM; a designation overrides the standing policy.
func TestDesignatedABMs(t *testing.T) {
	f := newFixture(t, "eu,russia,china", map[string]string{"steps": "attack"}).order("russia", "eu", "china")
	f.player("russia").ICBM = 2
	f.player("eu").ABM, f.player("eu").ABMPolicy = 2, "off"
	f.player("china").ABM = 1
	f.w.attack = &attackJSON{Stage: "confirm", Launch: "LAUNCH 2 AT ger"}
	if errs, warns := f.check("eu", "ABM 2 AT ger"); len(errs)+len(warns) != 0 {
		t.Errorf("Check: %v %v", errs, warns)
	}
	f.resolve(map[string][]string{"russia": {"CONFIRM"}, "eu": {"ABM 2 AT ger"}, "china": {"ABM 1 AT Germany"}},
		2, 1, // the EU's two ABMs, one on each ICBM: the first is destroyed
		3) // China's, over an area it does not control (3 − 1), at the first again
	if !f.w.dead[f.area("ger")] {
		t.Errorf("the second ICBM should get through:\n%s", f.public())
	}
	if n := strings.Count(f.public(), "is destroyed."); n != 1 {
		t.Errorf("%d ICBMs destroyed:\n%s", n, f.public())
	}
	f.eq("ABMs are not used up", f.player("eu").ABM, 2)
	f.phase(PhaseAttack, 1)
	if _, warns := f.check("eu", "ABM 2 AT ger"); len(warns) == 0 {
		t.Error("no warning for a designation without a declared launch")
	}
}

// steps=all: trade, attack, move and build are one player's step at a
// time; the other players' phase orders are refused by Check.
func TestAllSteps(t *testing.T) {
	f := newFixture(t, "eu,russia,china", map[string]string{"steps": "all"}).phase(PhaseTrade, 1).order("china", "russia", "eu")
	if f.waiting() != "china" || f.w.status().Kind != adjudicator.PhaseTurn || f.w.phaseID() != "T01-2-000" {
		t.Fatalf("waiting %s id %s", f.waiting(), f.w.phaseID())
	}
	errs, _ := f.check("russia", "BUY 1 OIL")
	if len(errs) == 0 || !strings.Contains(errs[0], "not your step") {
		t.Errorf("Check: %v", errs)
	}
	if errs, _ := f.check("russia", "OFFER TO china: $500 FOR 1 OIL"); len(errs) != 0 {
		t.Errorf("anytime order refused: %v", errs)
	}
	f.res("china", 1, 0, 0).resolve(map[string][]string{"china": {"BUY 1 OIL", "ACCEPT russia"}, "russia": {"OFFER TO china: $500 FOR 1 OIL"}})
	if f.waiting() != "russia" || f.w.phaseID() != "T01-2-001" {
		t.Fatalf("waiting %s id %s", f.waiting(), f.w.phaseID())
	}
	f.eq("the offer waits for the end of the phase", f.player("russia").Oil, 0)
	f.resolve(nil)
	f.resolve(nil)
	if f.w.phase != PhaseAttack {
		t.Fatalf("phase %s", f.w.phase)
	}
	f.eq("private trade after all market trades", f.player("russia").Oil, 1)
	f.eq("china cash", f.player("china").Cash, 7000-500+500)
}

// Check: orders of another phase are refused with the reason.
func TestCheckPhases(t *testing.T) {
	f := newFixture(t, "eu,russia", nil).phase(PhaseTrade, 1)
	cases := map[string]string{
		"BUILD 3 ARMIES IN mos": "BUILD is an order of the Build phase; this is the Trade phase",
		"ATTACK ukr FROM mos":   "ATTACK is an order of the Attack phase",
		"PLACE 3 ARMIES IN mos": "Set-up phase",
		"CONFIRM":               "Attack phase",
	}
	for line, want := range cases {
		errs, _ := f.check("russia", line)
		if len(errs) == 0 || !strings.Contains(errs[0], want) {
			t.Errorf("%s: %v, want %q", line, errs, want)
		}
	}
	for _, line := range []string{"LOAN 1000", "IF ATTACKED IN ukr: ATTACK ukr FROM blr", "CONTEST ALL", "BUY 3 OIL"} {
		if errs, _ := f.check("russia", line); len(errs) != 0 {
			t.Errorf("%s refused: %v", line, errs)
		}
	}
	// an attack that may fail as things stand is stored, with a warning
	f.phase(PhaseAttack, 1)
	errs, warns := f.check("russia", "ATTACK ukr FROM mos")
	if len(errs) != 0 || len(warns) == 0 || !strings.Contains(warns[0], "you have no armies in Moscow") {
		t.Errorf("errs %v warns %v", errs, warns)
	}
}
