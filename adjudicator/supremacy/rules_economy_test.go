package supremacy

import (
	"strings"
	"testing"
)

// Seed: Set-Up — each player places 9 forces freely: armies in home areas,
// navies in seas next to a home area; the rest is placed by default.
func TestSetUpPlacement(t *testing.T) {
	t.Run("free placement", func(t *testing.T) {
		f := newFixture(t, "usa,russia,china", nil).phase(PhaseSetup, 0)
		f.resolve(map[string][]string{
			"russia": {"PLACE 5 ARMIES IN mos, 1 ARMY IN sib, 3 NAVIES IN blt"},
			"usa":    {"PLACE 4 ARMIES IN tex, 5 NAVIES IN car"},
		})
		f.eq("russia mos", f.armyIn("russia", "mos"), 5)
		f.eq("russia blt", f.navyIn("russia", "blt"), 3)
		f.eq("usa car", f.navyIn("usa", "car"), 5)
		a, n := f.w.forces(f.idx("china"))
		f.eq("china forces (by default)", a+n, 9)
		f.eq("china navies", n, 0)
		if f.w.phase != PhaseSalaries || f.w.turn != 1 {
			t.Errorf("after set-up: turn %d %s", f.w.turn, f.w.phase)
		}
	})
	t.Run("wrong places and too many", func(t *testing.T) {
		f := newFixture(t, "usa,russia,china", nil).phase(PhaseSetup, 0)
		f.resolve(map[string][]string{
			"russia": {"PLACE 3 ARMIES IN ukr, 2 NAVIES IN car, 12 ARMIES IN mos"},
		})
		f.eq("russia in ukr", f.armyIn("russia", "ukr"), 0)
		f.eq("russia in car", f.navyIn("russia", "car"), 0)
		f.eq("russia mos", f.armyIn("russia", "mos"), 9)
		f.says("armies start in a home area, not in Ukraine", "navies start in a sea next to a home area, not in Caribbean", "only 9 forces are placed")
		errs, _ := f.check("russia", "PLACE 3 ARMIES IN ukr")
		if len(errs) == 0 {
			t.Error("Check accepts armies outside the home areas")
		}
	})
	t.Run("cash, cards and market at the start", func(t *testing.T) {
		f := newFixture(t, "usa,russia,china", nil)
		st, _ := engineFor(t, "usa,russia,china").New(nil, 8)
		w, _ := decodeWorld(st)
		for i, p := range w.players {
			f.eq(p.ID+" cash", p.Cash, 7000)
			f.eq(p.ID+" cards", len(w.companies(i)), 3)
			f.eq(p.ID+" reserve cards", p.Cards, 1)
		}
		for r := Resource(0); r < nResources; r++ {
			f.eq(r.String()+" price", w.price(r), 500)
		}
		f.eq("bank", w.bank, -21000)
	})
}

// Seed: Misdeal — once: the hand goes back and new cards are drawn.
func TestMisdeal(t *testing.T) {
	f := newFixture(t, "usa,russia,china", nil).phase(PhaseSetup, 0)
	f.give("russia", "texoil", "ruhr", "congo")
	before := f.w.companies(f.idx("russia"))
	f.resolve(map[string][]string{"russia": {"MISDEAL", "MISDEAL"}})
	after := f.w.companies(f.idx("russia"))
	f.eq("new hand size", len(after), 3)
	for _, c := range before {
		if f.w.cardAt[c] != cardDeck {
			t.Errorf("%s did not go back to the deck", f.w.sc.cards[c].id)
		}
		for _, d := range after {
			if c == d {
				t.Errorf("%s dealt again", f.w.sc.cards[c].id)
			}
		}
	}
	f.says("Russian Federation declares a misdeal", "a misdeal is allowed once only")
	if !f.player("russia").Misdealt {
		t.Error("misdeal not recorded")
	}
	f.phase(PhaseSetup, 0)
	if errs, _ := f.check("russia", "MISDEAL"); len(errs) == 0 {
		t.Error("Check accepts a second misdeal")
	}
}

// Seed: Salaries (steps 1–5), Company Cards, Armies & Navies, Record New
// Production.
func TestSalaries(t *testing.T) {
	t.Run("all paid by default", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseSalaries, 1)
		f.give("russia", "siboil", "sibmin", "ukrgrain")
		f.armies("russia", "mos", 6).navies("russia", "blt", 2)
		f.resolve(nil)
		p := f.player("russia")
		f.eq("cash", p.Cash, 7000-3*50-8*10)
		f.eq("oil", p.Oil, 3)
		f.eq("minerals", p.Minerals, 2)
		f.eq("grain", p.Grain, 3)
		f.says("Russian Federation opens Siberian Oil, Siberian Minerals, Ukrainian Grain.")
	})
	t.Run("closed companies do not produce", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseSalaries, 1)
		f.give("russia", "siboil", "sibmin")
		f.resolve(map[string][]string{"russia": {"CLOSE siboil"}})
		p := f.player("russia")
		f.eq("cash", p.Cash, 7000-50)
		f.eq("oil", p.Oil, 0)
		f.eq("minerals", p.Minerals, 2)
		if f.w.cardOpn[f.card("siboil")] {
			t.Error("Siberian Oil open")
		}
		f.says("closed: Siberian Oil")
	})
	t.Run("close all, open one", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseSalaries, 1)
		f.give("russia", "siboil", "sibmin")
		f.resolve(map[string][]string{"russia": {"CLOSE ALL", "OPEN sibmin"}})
		f.eq("oil", f.player("russia").Oil, 0)
		f.eq("minerals", f.player("russia").Minerals, 2)
	})
	t.Run("disband by not paying", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseSalaries, 1)
		f.armies("russia", "mos", 6)
		f.resolve(map[string][]string{"russia": {"DISBAND 2 ARMIES IN mos"}})
		f.eq("armies", f.armyIn("russia", "mos"), 4)
		f.eq("cash", f.player("russia").Cash, 7000-40)
		f.says("Russian Federation disbands 2 armies in Moscow.")
	})
	t.Run("forces that cannot be paid are disbanded", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseSalaries, 1)
		f.armies("russia", "mos", 6).armies("russia", "vol", 2).cash("russia", 50)
		f.resolve(nil)
		f.eq("armies left", f.armyIn("russia", "mos")+f.armyIn("russia", "vol"), 5)
		f.eq("cash", f.player("russia").Cash, 0)
		f.says("cannot pay an army in Moscow: it is disbanded")
	})
	t.Run("production beyond the reserve column is lost", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseSalaries, 1)
		f.give("russia", "siboil").res("russia", 11, 0, 0)
		f.resolve(nil)
		f.eq("oil", f.player("russia").Oil, 12)
		f.tells("russia", "Lost for want of room on the Strategic Reserve: 2 oil")
	})
	t.Run("loan interest and bond interest", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseSalaries, 1)
		p := f.player("russia")
		p.Loans, p.LoanPeak, p.Bonds = 5000, 5000, 2000
		f.resolve(nil)
		// seed example: a $5,000 BL loan costs $400 BL a turn
		f.eq("cash", p.Cash, 7000-400+70)
		f.tells("russia", "Loan interest on $5,000 BL: $400 BL", "Bond interest on $2,000 BL: $70 BL received")
	})
}

// Seed: Loans & Bonds, Default, Bankruptcy.
func TestLoansAndBonds(t *testing.T) {
	t.Run("loan, repay early, interest still owed", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseTrade, 1)
		f.resolve(map[string][]string{"russia": {"LOAN 5000", "REPAY 5000"}})
		p := f.player("russia")
		f.eq("cash", p.Cash, 7000)
		f.eq("loans", p.Loans, 0)
		f.eq("peak", p.LoanPeak, 5000)
		f.phase(PhaseSalaries, 2).resolve(nil)
		f.eq("cash after salaries", p.Cash, 6600)
		f.eq("peak after salaries", p.LoanPeak, 0)
	})
	t.Run("limits and units", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseTrade, 1)
		f.resolve(map[string][]string{"russia": {"LOAN 9000", "LOAN 2000", "LOAN 500", "REPAY 20000", "BUY BONDS 8000", "BUY BONDS 9000", "SELL BONDS 3000"}})
		p := f.player("russia")
		f.eq("loans", p.Loans, 9000)
		f.eq("bonds", p.Bonds, 5000)
		f.eq("cash", p.Cash, 7000+9000-8000+3000)
		f.tells("russia", "your loans may total $10,000 BL at most", "amounts are multiples of $1,000 BL", "you owe $9,000 BL", "bonds may total $10,000 BL at most")
		if errs, _ := f.check("russia", "LOAN 1500"); len(errs) == 0 {
			t.Error("Check accepts a loan of $1,500")
		}
	})
	t.Run("bonds sold and loans taken before a default", func(t *testing.T) {
		f := newFixture(t, "usa,russia", nil).phase(PhaseSalaries, 1)
		f.cash("russia", 100)
		p := f.player("russia")
		p.Loans, p.LoanPeak, p.Bonds = 5000, 5000, 1000
		f.resolve(nil)
		f.eq("bonds", p.Bonds, 0)
		// 100 + 1000 (bonds) = 1100 ≥ 400: no loan needed
		f.eq("loans", p.Loans, 5000)
		f.eq("cash", p.Cash, 1100-400)
	})
	t.Run("default is bankruptcy", func(t *testing.T) {
		f := newFixture(t, "usa,russia,china", nil).phase(PhaseSalaries, 1)
		f.cash("russia", 0).give("russia", "siboil").armies("russia", "mos", 3)
		p := f.player("russia")
		p.Loans, p.LoanPeak = 10000, 10000
		f.resolve(nil)
		if p.Status != statusBankrupt {
			t.Fatalf("status %s", p.Status)
		}
		f.eq("armies", f.armyIn("russia", "mos"), 0)
		f.eq("cash", p.Cash, 0)
		if f.w.cardAt[f.card("siboil")] != cardLoose {
			t.Error("the bankrupt's company is not open to seizure")
		}
		f.says("defaults and is bankrupt")
		// the company may now be seized by whoever controls Siberia
		f.phase(PhaseTrade, 1).armies("china", "sib", 1).resolve(map[string][]string{"china": {"SEIZE siboil"}})
		if f.w.cardAt[f.card("siboil")] != f.idx("china") {
			t.Error("China could not seize the bankrupt's company")
		}
	})
}

// Seed: Seizure — a player who controls an area may seize its companies;
// players control their unoccupied home areas.
func TestSeizure(t *testing.T) {
	f := newFixture(t, "usa,russia,china", nil).phase(PhaseMove, 1)
	f.give("usa", "siboil", "ukrgrain", "mangrain")
	f.armies("china", "man", 2)
	f.resolve(map[string][]string{"russia": {"SEIZE siboil", "SEIZE ukrgrain"}, "usa": {"SEIZE mangrain"}})
	if f.w.cardAt[f.card("siboil")] != f.idx("russia") {
		t.Error("Russia did not seize Siberian Oil from its unoccupied home")
	}
	if f.w.cardAt[f.card("ukrgrain")] != f.idx("usa") {
		t.Error("Russia seized in Ukraine, which it does not control")
	}
	f.tells("russia", "you do not control Ukraine")
	f.armies("russia", "ukr", 1).resolveAgain(map[string][]string{"russia": {"SEIZE ALL"}})
	if f.w.cardAt[f.card("ukrgrain")] != f.idx("russia") {
		t.Error("SEIZE ALL missed Ukrainian Grain")
	}
	if f.w.cardAt[f.card("mangrain")] != f.idx("usa") {
		t.Error("Russia seized in Manchuria")
	}
}

// resolveAgain resolves the phase of the last resolve once more.
func (f *fixture) resolveAgain(ords map[string][]string, dice ...int) *fixture {
	f.phase(f.lastPhase, f.lastTurn)
	return f.resolve(ords, dice...)
}

// Seed: Personal Loans and Private Trade — offers carried out when
// accepted, never enforced; resources only in the trade phase.
func TestPrivateTrade(t *testing.T) {
	t.Run("trade accepted", func(t *testing.T) {
		f := newFixture(t, "usa,russia,china", nil).phase(PhaseTrade, 1)
		f.res("russia", 5, 0, 0).give("usa", "texoil")
		f.resolve(map[string][]string{
			"usa":    {"ACCEPT russia 1"},
			"russia": {"OFFER 1 TO usa: 3 OIL FOR $1500, Texas Oil"},
		})
		f.eq("russia oil", f.player("russia").Oil, 2)
		f.eq("usa oil", f.player("usa").Oil, 3)
		f.eq("russia cash", f.player("russia").Cash, 8500)
		f.eq("usa cash", f.player("usa").Cash, 5500)
		if f.w.cardAt[f.card("texoil")] != f.idx("russia") {
			t.Error("Texas Oil did not change hands")
		}
		f.says("Private trade between Russian Federation and United States: Texas Oil goes to Russian Federation")
		if strings.Contains(f.public(), "1500") || strings.Contains(f.public(), "3 oil") {
			t.Error("the public report shows the private terms")
		}
	})
	t.Run("not accepted", func(t *testing.T) {
		f := newFixture(t, "usa,russia,china", nil).phase(PhaseTrade, 1)
		f.resolve(map[string][]string{"russia": {"OFFER TO usa: $1000"}, "china": {"ACCEPT russia"}})
		f.eq("russia cash", f.player("russia").Cash, 7000)
		f.tells("russia", "was not accepted")
		f.tells("china", "no such offer stands")
	})
	t.Run("personal loan and its unenforced repayment", func(t *testing.T) {
		f := newFixture(t, "usa,russia,china", nil).phase(PhaseAttack, 1)
		f.resolve(map[string][]string{"russia": {"OFFER TO china: $3000"}, "china": {"ACCEPT russia"}})
		f.eq("china cash", f.player("china").Cash, 10000)
		f.phase(PhaseAttack, 2).resolve(map[string][]string{"china": {"OFFER TO russia: $3000"}})
		f.eq("china keeps the money", f.player("china").Cash, 10000)
		if f.player("china").Status != statusPlaying {
			t.Error("a personal loan default has consequences")
		}
	})
	t.Run("cannot deliver", func(t *testing.T) {
		f := newFixture(t, "usa,russia,china", nil).phase(PhaseTrade, 1)
		f.resolve(map[string][]string{"russia": {"OFFER TO usa: 3 GRAIN FOR $100"}, "usa": {"ACCEPT russia"}})
		f.eq("usa cash", f.player("usa").Cash, 7000)
		f.tells("usa", "fails: Russian Federation has not the grain")
	})
	t.Run("resources only in the trade phase", func(t *testing.T) {
		f := newFixture(t, "usa,russia,china", nil).phase(PhaseBuild, 1)
		errs, _ := f.check("russia", "OFFER TO usa: 3 GRAIN FOR $100")
		if len(errs) == 0 || !strings.Contains(errs[0], "trade phase") {
			t.Errorf("Check: %v", errs)
		}
	})
}

// Seed: Naval Blockade — control every sea next to the company's area;
// several players may blockade together; one navy of the owner's side
// breaks it.
func TestBlockade(t *testing.T) {
	setup := func(t *testing.T) *fixture {
		f := newFixture(t, "usa,commonwealth,russia", nil).phase(PhaseSalaries, 1)
		f.give("russia", "paulista") // Brazil: seas car, moa and drk
		return f
	}
	t.Run("joint blockade", func(t *testing.T) {
		f := setup(t)
		f.navies("usa", "car", 1).navies("commonwealth", "moa", 2).navies("commonwealth", "drk", 1)
		f.resolve(map[string][]string{"usa": {"BLOCKADE paulista"}, "commonwealth": {"BLOCKADE paulista"}})
		f.eq("russia grain", f.player("russia").Grain, 0)
		f.eq("usa grain", f.player("usa").Grain, 2)
		f.eq("russia cash (salary not returned)", f.player("russia").Cash, 7000-50)
		if !f.w.cardBlk[f.card("paulista")] {
			t.Error("not marked blockaded")
		}
		// net worth counts a blockaded company at $600 (seed: Net Worth)
		f.eq("russia net worth", f.w.netWorth(f.idx("russia")), 6950+600)
	})
	t.Run("one blockader alone cannot", func(t *testing.T) {
		f := setup(t)
		f.navies("usa", "car", 1).navies("commonwealth", "moa", 2).navies("commonwealth", "drk", 1)
		f.resolve(map[string][]string{"usa": {"BLOCKADE paulista"}})
		f.eq("russia grain", f.player("russia").Grain, 2)
		f.says("Mouth of the Amazon is not controlled by the blockaders")
	})
	t.Run("disrupted by one navy", func(t *testing.T) {
		f := setup(t)
		f.navies("usa", "car", 1).navies("commonwealth", "moa", 2).navies("commonwealth", "drk", 1).navies("russia", "drk", 1)
		f.resolve(map[string][]string{"usa": {"BLOCKADE paulista"}, "commonwealth": {"BLOCKADE paulista"}})
		f.eq("russia grain", f.player("russia").Grain, 2)
	})
	t.Run("no sea, no blockade", func(t *testing.T) {
		f := setup(t)
		f.give("russia", "plains")
		if errs, _ := f.check("usa", "BLOCKADE plains"); len(errs) == 0 {
			t.Error("Check accepts a blockade of a landlocked area")
		}
	})
}

// Seed: Commodities Market — buy or sell at the marker's price, which then
// moves one space per unit; three trades; never buy and sell one resource
// in a turn; limited by the reserve; the track's ends hold.
func TestMarket(t *testing.T) {
	t.Run("the seed's example", func(t *testing.T) {
		f := newFixture(t, "usa,japan", nil).phase(PhaseTrade, 1)
		f.resolve(map[string][]string{"japan": {"BUY 5 OIL"}})
		f.eq("japan cash", f.player("japan").Cash, 7000-2500)
		f.eq("japan oil", f.player("japan").Oil, 5)
		f.eq("oil price", f.w.price(Oil), 800)
		f.says("Japan buys 5 oil at $500 BL ($2,500 BL); oil now $800 BL.")
	})
	t.Run("selling lowers the price", func(t *testing.T) {
		f := newFixture(t, "usa,japan", nil).phase(PhaseTrade, 1)
		f.res("japan", 0, 0, 6)
		f.resolve(map[string][]string{"japan": {"SELL 4 GRAIN"}})
		f.eq("cash", f.player("japan").Cash, 9000)
		f.eq("grain price", f.w.price(Grain), 300)
	})
	t.Run("three trades, no buy and sell of one resource", func(t *testing.T) {
		f := newFixture(t, "usa,japan", nil).phase(PhaseTrade, 1)
		f.res("japan", 0, 4, 0)
		f.resolve(map[string][]string{"japan": {"BUY 1 OIL", "SELL 1 OIL", "SELL 1 MINERALS", "BUY 1 GRAIN", "BUY 1 OIL"}})
		p := f.player("japan")
		f.eq("trades", p.Trades, 3)
		f.eq("oil", p.Oil, 1)
		f.tells("japan", "you bought oil this turn and cannot sell it too", "you have made your 3 trades this turn")
	})
	t.Run("the reserve limits buying", func(t *testing.T) {
		f := newFixture(t, "usa,japan", nil).phase(PhaseTrade, 1)
		f.res("japan", 10, 0, 0)
		f.resolve(map[string][]string{"japan": {"BUY 3 OIL"}})
		f.eq("oil", f.player("japan").Oil, 10)
		f.tells("japan", "room for 2 more oil")
	})
	t.Run("the ends of the track", func(t *testing.T) {
		f := newFixture(t, "usa,japan", nil).phase(PhaseTrade, 1)
		f.cash("japan", 100000)
		f.w.market[Oil] = len(f.w.sc.Market.Track) - 2
		f.resolve(map[string][]string{"japan": {"BUY 5 OIL", "SELL 2 GRAIN"}})
		f.eq("oil price", f.w.price(Oil), 1000)
		f.eq("oil marker", f.w.market[Oil], len(f.w.sc.Market.Track)-1)
	})
	t.Run("conditional on the price, in the drawn order", func(t *testing.T) {
		f := newFixture(t, "usa,japan", nil).phase(PhaseTrade, 1).order("usa", "japan")
		f.resolve(map[string][]string{
			"usa":   {"BUY 6 OIL"},
			"japan": {"IF OIL PRICE AT MOST 600: BUY 3 OIL", "IF OIL PRICE ABOVE 600: BUY 1 GRAIN"},
		})
		f.eq("japan oil", f.player("japan").Oil, 0)
		f.eq("japan grain", f.player("japan").Grain, 1)
		f.tells("japan", "Not carried out (its condition does not hold): IF OIL PRICE AT MOST 600: BUY 3 OIL")
	})
}
