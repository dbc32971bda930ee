package supremacy

import (
	"strings"
	"testing"
)

// Seed: Conquest — a player whose undestroyed home cities are all held by
// others at the end of the attack phase is out; the taker of the last city
// gets his cash, bonds and Strategic Reserve (a second card: twice the
// room); his loans are erased; his companies must be seized.
func TestConquest(t *testing.T) {
	f := newFixture(t, "usa,eu,russia", nil).order("russia", "usa", "eu")
	// The United States took Germany and Italy, Russia Iberia; France is
	// the EU's last city, undefended.
	f.armies("usa", "ger", 1).armies("usa", "ita", 1).armies("russia", "ibe", 2)
	f.w.capBy[f.area("ger")], f.w.capAt[f.area("ger")] = f.idx("usa"), 1
	f.w.capBy[f.area("ita")], f.w.capAt[f.area("ita")] = f.idx("usa"), 2
	f.w.capBy[f.area("ibe")], f.w.capAt[f.area("ibe")] = f.idx("russia"), 3
	f.w.seq = 3
	eu := f.player("eu")
	eu.Loans, eu.LoanPeak, eu.Bonds = 4000, 4000, 2000
	eu.Oil, eu.Minerals, eu.Grain, eu.ICBM = 5, 6, 7, 2
	f.cash("eu", 3000).give("eu", "fragrain", "congo").navies("eu", "wmd", 2)
	f.armies("russia", "mag", 2).navies("russia", "wmd", 1).res("russia", 2, 1, 1)
	f.resolve(nil)
	// France still free: not conquered
	if eu.Status != statusPlaying {
		t.Fatalf("conquered with France free: %s\n%s", eu.Status, f.public())
	}
	f.resolveAgain(map[string][]string{"russia": {"ATTACK fra FROM mag VIA wmd"}})
	if eu.Status != statusConquered {
		t.Fatalf("not conquered: %s\n%s", eu.Status, f.public())
	}
	ru := f.player("russia")
	f.eq("russia cash", ru.Cash, 7000+3000)
	f.eq("russia oil (5 taken, 2 spent)", ru.Oil, 5)
	f.eq("russia bonds", ru.Bonds, 2000)
	f.eq("russia icbm", ru.ICBM, 2)
	f.eq("russia reserve cards", ru.Cards, 2)
	f.eq("russia loans (the EU's are erased)", ru.Loans, 0)
	f.eq("eu cash", eu.Cash, 0)
	a, n := f.w.forces(f.idx("eu"))
	f.eq("eu forces", a+n, 0)
	if f.w.cardAt[f.card("fragrain")] != cardLoose || f.w.cardAt[f.card("congo")] != cardLoose {
		t.Error("the conquered player's companies are not open to seizure")
	}
	f.says("EUROPEAN UNION IS CONQUERED by Russian Federation")
	// twice the room
	f.eq("room", f.w.room(f.idx("russia"), Grain), 24-7)
	// the conquered player leaves the order of play
	for _, i := range f.w.order {
		if i == f.idx("eu") {
			t.Error("the conquered player is still in the cup")
		}
	}
}

// Seed: Conquest — a player whose cities are all destroyed by ICBMs may
// still win: his net worth is written down at the end of the attack phase.
func TestNuclearDestruction(t *testing.T) {
	f := newFixture(t, "usa,japan,china", map[string]string{"turns": "1"}).order("usa", "japan", "china")
	f.player("usa").ICBM = 4
	jp := f.player("japan")
	jp.Bonds = 1000
	f.cash("japan", 30000).give("japan", "kormin")
	f.resolve(map[string][]string{"usa": {"LAUNCH 1 AT tokyo, 1 AT osaka, 1 AT hok, 1 AT kyu"}})
	if jp.Status != statusDestroyed {
		t.Fatalf("japan %s\n%s", jp.Status, f.public())
	}
	f.eq("saved net worth", jp.SavedNW, 30000+1000+1200)
	f.eq("japan cash (back to the bank)", jp.Cash, 0)
	if f.w.cardAt[f.card("kormin")] != cardLoose {
		t.Error("Japan's company is not open to seizure")
	}
	// the last turn ends: Japan's written-down net worth beats the others
	f.phase(PhaseBuild, 1).resolve(nil)
	if !f.w.over || strings.Join(f.w.winners, ",") != "japan" {
		t.Fatalf("over %v, winners %v\n%s", f.w.over, f.w.winners, f.public())
	}
	f.says("Japan: $32,200 BL (written down when its cities were destroyed)")
}

// Seed: Ending the Game, Net Worth — the game ends after the last turn or
// with one player left; the highest net worth wins.
func TestEndOfGame(t *testing.T) {
	t.Run("turn limit and net worth", func(t *testing.T) {
		f := newFixture(t, "usa,russia", map[string]string{"turns": "2"}).phase(PhaseBuild, 2)
		ru := f.player("russia")
		ru.Loans, ru.Bonds, ru.ICBM, ru.ABM = 3000, 1000, 1, 1
		f.armies("russia", "mos", 4).navies("russia", "blt", 1).give("russia", "siboil", "sibmin")
		f.w.cardBlk[f.card("sibmin")] = true
		// 7000 − 3000 + 1000 + 1200 + 600 + 5×200 + 1000 + 2000
		f.eq("net worth", f.w.netWorth(f.idx("russia")), 10800)
		f.resolve(nil)
		if !f.w.over || strings.Join(f.w.winners, ",") != "russia" {
			t.Fatalf("over %v winners %v", f.w.over, f.w.winners)
		}
		f.says("Turn 2 was the last", "1. Russian Federation: $10,800 BL", "2. United States: $7,000 BL")
		st := f.w.status()
		if !st.Over || st.Scores["russia"] != 10800 {
			t.Errorf("status %+v", st)
		}
	})
	t.Run("last player standing", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseSalaries, 3)
		f.cash("usa", 0)
		f.player("usa").Loans, f.player("usa").LoanPeak = 10000, 10000
		f.resolve(nil)
		if !f.w.over || strings.Join(f.w.winners, ",") != "russia" {
			t.Fatalf("over %v winners %v\n%s", f.w.over, f.w.winners, f.public())
		}
		f.says("Only one player is left")
	})
	t.Run("public scores until the end", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil)
		f.armies("russia", "mos", 2).give("russia", "siboil")
		st := f.w.status()
		// companies and forces, not the (private) cash
		f.eq("public score", st.Scores["russia"], 1200+400)
	})
}
