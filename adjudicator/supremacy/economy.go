package supremacy

import (
	"fmt"
	"sort"
	"strings"
)

// trigger is the attack a reaction answers.
type trigger struct {
	attacker int   // player index
	areas    []int // the defender's areas attacked
}

// condsHold reports whether an order's conditions hold now for player i.
// An ATTACKED condition holds only for the trigger given.
func (r *run) condsHold(i int, cs []Cond, t *trigger) bool {
	w := r.w
	for _, c := range cs {
		ok := false
		switch c.Kind {
		case CondPrice:
			ok = c.Op.holds(w.price(c.Res), c.N)
		case CondCash:
			ok = c.Op.holds(w.players[i].Cash, c.N)
		case CondControl:
			who := i
			if c.Power != "" {
				who = -1
				if p := w.playerOf(c.Power); p != nil {
					who = w.byPower[p.idx]
				}
			}
			ok = who >= 0 && w.controls(who, c.Area)
		case CondAttacked:
			if t == nil {
				return false
			}
			ok = c.Power == "" || c.Power == w.pid(t.attacker)
			if ok && c.Area >= 0 {
				ok = false
				for _, a := range t.areas {
					ok = ok || a == c.Area
				}
			}
		}
		if c.Not {
			ok = !ok
		}
		if !ok {
			return false
		}
	}
	return true
}

// condText describes why an order did not run.
func (r *run) skipped(i int, o *Order) {
	r.rep.private(r.w.pid(i), "  Not carried out (its condition does not hold): %s", r.sc.format(o))
}

// ---- standing orders ----

// applyStanding updates a player's standing orders from a mail: a mail
// with reactions (or NO REACTIONS) replaces every standing reaction, and
// likewise for contests; permits and the ABM policy change one by one.
func (r *run) applyStanding(i int, ords []*Order) {
	w := r.w
	p := w.players[i]
	var reactions, contests []string
	newReact, newContest := false, false
	for _, o := range ords {
		switch o.Kind {
		case KReaction:
			newReact = true
			reactions = append(reactions, r.sc.format(o))
		case KNoReact:
			newReact, reactions = true, nil
		case KContest:
			newContest = true
			contests = append(contests, r.sc.format(o))
		case KNoContest:
			newContest, contests = true, nil
		case KPermit:
			who, choke := "*", "*"
			if o.Power != "" {
				who = o.Power
			}
			if o.Choke >= 0 {
				choke = r.sc.chokes[o.Choke].ID
			}
			sign := "+"
			if o.Deny {
				sign = "-"
			}
			// a later permit for the same power and choke point, or one
			// for all, makes the earlier ones it covers pointless
			kept := p.Permits[:0]
			for _, e := range p.Permits {
				f := strings.Fields(e)
				if len(f) == 3 && (who == "*" || f[1] == who) && (choke == "*" || f[2] == choke) {
					continue
				}
				kept = append(kept, e)
			}
			p.Permits = append(kept, sign+" "+who+" "+choke)
		case KABM:
			p.ABMPolicy, p.ABMPowers = o.Policy, o.Powers
		case KLosses:
			p.Losses = nil
			for _, a := range o.Losses {
				if a == lossAfloat {
					p.Losses = append(p.Losses, "afloat")
				} else {
					p.Losses = append(p.Losses, r.sc.areas[a].ID)
				}
			}
			if len(p.Losses) == 0 {
				r.rep.private(p.ID, "  Your losses are taken by the default rule (largest group first).")
			} else {
				r.rep.private(p.ID, "  Your attacking pieces are now lost first from: %s.", strings.Join(p.Losses, ", "))
			}
		}
	}
	if newReact {
		p.Reactions = reactions
		if len(reactions) == 0 {
			r.rep.private(p.ID, "  Your standing reactions are cleared.")
		} else {
			r.rep.private(p.ID, "  Your standing reactions are now:\n    %s", strings.Join(reactions, "\n    "))
		}
	}
	if newContest {
		p.Contests = contests
		if len(contests) == 0 {
			r.rep.private(p.ID, "  Your navies contest nothing.")
		} else {
			r.rep.private(p.ID, "  Your standing contests are now:\n    %s", strings.Join(contests, "\n    "))
		}
	}
	_ = w
}

// ---- anytime orders ----

// anytime carries out an order allowed in every phase; it reports
// whether o was one.
func (r *run) anytime(i int, o *Order) bool {
	if !o.anytime() {
		return false
	}
	if o.standing() {
		return true // applied at the start of the phase
	}
	if !r.condsHold(i, o.Conds, nil) {
		r.skipped(i, o)
		return true
	}
	switch o.Kind {
	case KLoan:
		r.loan(i, o.N)
	case KRepay:
		r.repay(i, o.N)
	case KBuyBonds:
		r.buyBonds(i, o.N)
	case KSellBonds:
		r.sellBonds(i, o.N)
	case KSeize:
		r.seize(i, o)
	case KOffer:
		r.makeOffer(i, o)
	case KAccept, KRefuse:
		r.acceptOffer(i, o)
	case KIntercept:
		// read by the confirmation step of a declared launch
	}
	return true
}

func (r *run) unitOK(i, n int, what string) bool {
	if u := r.sc.Rules.LoanUnit; n%u != 0 {
		r.rep.private(r.w.pid(i), "  %s of %s refused: amounts are multiples of %s.", what, money(n), money(u))
		return false
	}
	return true
}

// loan borrows from the World Bank (seed: Loans & Bonds).
func (r *run) loan(i, n int) {
	w, p := r.w, r.w.players[i]
	if !r.unitOK(i, n, "Loan") {
		return
	}
	if p.Loans+n > w.sc.Loans.Max()*p.Cards {
		r.rep.private(p.ID, "  Loan of %s refused: your loans may total %s at most (now %s).", money(n), money(w.sc.Loans.Max()*p.Cards), money(p.Loans))
		return
	}
	p.Loans += n
	p.LoanPeak = max(p.LoanPeak, p.Loans)
	w.pay(i, -n)
	r.rep.private(p.ID, "  You borrow %s from the World Bank; loans %s, interest %s per turn.", money(n), money(p.Loans), money(w.sc.Loans.Interest(p.Loans)))
}

// repay pays a loan back early; this turn's interest is still owed on the
// highest loan since the last salaries (seed: Loans & Bonds).
func (r *run) repay(i, n int) {
	w, p := r.w, r.w.players[i]
	if !r.unitOK(i, n, "Repayment") {
		return
	}
	switch {
	case n > p.Loans:
		r.rep.private(p.ID, "  Repayment of %s refused: you owe %s.", money(n), money(p.Loans))
		return
	case n > p.Cash:
		r.rep.private(p.ID, "  Repayment of %s refused: you have %s.", money(n), money(p.Cash))
		return
	}
	p.Loans -= n
	w.pay(i, n)
	r.rep.private(p.ID, "  You repay %s; loans %s (interest at the next salaries is still owed on %s).", money(n), money(p.Loans), money(p.LoanPeak))
}

func (r *run) buyBonds(i, n int) {
	w, p := r.w, r.w.players[i]
	if !r.unitOK(i, n, "Bond purchase") {
		return
	}
	switch {
	case p.Bonds+n > w.sc.Bonds.Max()*p.Cards:
		r.rep.private(p.ID, "  Bond purchase of %s refused: bonds may total %s at most (now %s).", money(n), money(w.sc.Bonds.Max()*p.Cards), money(p.Bonds))
		return
	case n > p.Cash:
		r.rep.private(p.ID, "  Bond purchase of %s refused: you have %s.", money(n), money(p.Cash))
		return
	}
	p.Bonds += n
	w.pay(i, n)
	r.rep.private(p.ID, "  You buy %s of bonds; bonds %s, paying %s per turn.", money(n), money(p.Bonds), money(w.sc.Bonds.Interest(p.Bonds)))
}

func (r *run) sellBonds(i, n int) {
	w, p := r.w, r.w.players[i]
	if !r.unitOK(i, n, "Bond sale") {
		return
	}
	if n > p.Bonds {
		r.rep.private(p.ID, "  Bond sale of %s refused: you hold %s.", money(n), money(p.Bonds))
		return
	}
	p.Bonds -= n
	w.pay(i, -n)
	r.rep.private(p.ID, "  You sell %s of bonds back to the bank; bonds %s.", money(n), money(p.Bonds))
}

// seize takes company cards in areas the player controls (seed: Seizure).
func (r *run) seize(i int, o *Order) {
	w := r.w
	var cards []int
	if o.All {
		for c := range r.sc.cards {
			a := w.cardArea(c)
			if a < 0 || w.cardAt[c] == i || w.cardAt[c] == cardDeck || (o.Area >= 0 && a != o.Area) || !w.controls(i, a) {
				continue
			}
			cards = append(cards, c)
		}
		if len(cards) == 0 {
			r.rep.private(w.pid(i), "  SEIZE ALL: there is nothing to seize in the areas you control.")
			return
		}
	} else {
		c := o.Card
		a := w.cardArea(c)
		switch {
		case w.cardAt[c] == i:
			r.rep.private(w.pid(i), "  %s is yours already.", r.sc.cards[c].name)
			return
		case w.cardAt[c] == cardDeck:
			r.rep.private(w.pid(i), "  %s is not in play (it is in the deck).", r.sc.cards[c].name)
			return
		case !w.controls(i, a):
			r.rep.private(w.pid(i), "  You cannot seize %s: you do not control %s.", r.sc.cards[c].name, r.sc.areaName(a))
			return
		}
		cards = []int{c}
	}
	for _, c := range cards {
		from, against := "the table", ""
		if at := w.cardAt[c]; at >= 0 {
			from, against = w.pname(at), w.pid(at)
		}
		w.cardAt[c] = i
		r.rep.public("  %s seizes %s (%s) from %s.", w.pname(i), r.sc.cards[c].name, r.sc.areaName(w.cardArea(c)), from)
		r.rep.mark(mark{Kind: "seize", Power: w.pid(i), Against: against, To: r.sc.areas[w.cardArea(c)].ID, Card: r.sc.cards[c].id, Result: "done"})
	}
}

// ---- private trade, personal loans, arms sales between players ----

func (r *run) makeOffer(i int, o *Order) {
	w := r.w
	to := w.playerOf(o.Power)
	if to == nil || !to.alive() || to.ID == w.pid(i) {
		r.rep.private(w.pid(i), "  Offer to %s refused: not a player in the game.", o.Power)
		return
	}
	line := r.sc.format(o)
	for k := range w.offers {
		if !w.offers[k].Taken && w.offers[k].From == w.pid(i) && w.offers[k].To == o.Power && w.offers[k].N == o.N {
			w.offers[k].Line = line
			r.rep.private(w.pid(i), "  Your offer %d to %s now reads: %s", o.N, to.ID, line)
			return
		}
	}
	w.offers = append(w.offers, offer{From: w.pid(i), To: o.Power, N: o.N, Line: line})
	r.rep.private(w.pid(i), "  Offer recorded: %s", line)
	r.offerMade(i, o) // offers.go
}

// offerText describes an offer for players.
func (r *run) offerText(o *Order) string {
	give := r.itemsText(o.Give)
	if len(o.Get) == 0 {
		return give + " (a gift or personal loan)"
	}
	return give + " for " + r.itemsText(o.Get)
}

func (r *run) itemsText(items []Item) string {
	if len(items) == 0 {
		return "nothing"
	}
	parts := make([]string, len(items))
	for k, it := range items {
		parts[k] = r.sc.itemText(it, true)
	}
	return strings.Join(parts, ", ")
}

func (w *world) playerIndex(id string) int {
	if p := w.playerOf(id); p != nil {
		return w.byPower[p.idx]
	}
	return -1
}

// trade carries out an accepted offer if both sides can deliver.
func (r *run) trade(from, to int, o *Order, place []string) {
	w := r.w
	if from < 0 || to < 0 || !w.players[from].alive() || !w.players[to].alive() {
		return
	}
	fail := func(why string) {
		r.rep.private(w.pid(from), "  Offer %d to %s fails: %s.", o.N, w.pid(to), why)
		r.rep.private(w.pid(to), "  Offer %d of %s fails: %s.", o.N, w.pid(from), why)
	}
	if why := r.canDeliver(from, to, o.Give, place); why != "" {
		fail(w.pname(from) + " " + why)
		return
	}
	if why := r.canDeliver(to, from, o.Get, nil); why != "" {
		fail(w.pname(to) + " " + why)
		return
	}
	var seen []string
	seen = append(seen, r.deliver(from, to, o.Give, place)...)
	seen = append(seen, r.deliver(to, from, o.Get, nil)...)
	r.rep.private(w.pid(from), "  Offer %d to %s carried out: you give %s and get %s.", o.N, w.pname(to), r.itemsText(o.Give), r.itemsText(o.Get))
	r.rep.private(w.pid(to), "  Offer %d of %s carried out: you get %s and give %s.", o.N, w.pname(from), r.itemsText(o.Give), r.itemsText(o.Get))
	if len(seen) > 0 {
		r.rep.public("  Private trade between %s and %s: %s.", w.pname(from), w.pname(to), strings.Join(seen, "; "))
	}
}

// canDeliver checks that player i holds the items and that what is
// allowed in this phase is traded: resources and companies in the trade
// phase, pieces built this turn in the build phase, cash at any time.
func (r *run) canDeliver(i, to int, items []Item, place []string) string {
	w := r.w
	p := w.players[i]
	cash := 0
	res := [nResources]int{}
	for _, it := range items {
		switch it.Kind {
		case ItemCash:
			cash += it.N
		case ItemResource:
			if w.phase != PhaseTrade {
				return "may trade resources only in the trade phase"
			}
			res[it.Res] += it.N
		case ItemCompany:
			if w.phase != PhaseTrade {
				return "may trade companies only in the trade phase"
			}
			if w.cardAt[it.Card] != i {
				return "does not hold " + r.sc.cards[it.Card].name
			}
		case ItemArmies, ItemNavies:
			if w.phase != PhaseBuild {
				return "may sell forces only in the build phase"
			}
			have, builtN := w.armies(i, it.Area), p.Built.Armies[r.sc.areas[it.Area].ID]
			if it.Kind == ItemNavies {
				have, builtN = w.navies(i, it.Area), p.Built.Navies[r.sc.areas[it.Area].ID]
			}
			if min(have, builtN) < it.N {
				return fmt.Sprintf("has not built %d pieces in %s this turn", it.N, r.sc.areaName(it.Area))
			}
			if r.placeFor(to, it.Kind == ItemNavies, place) < 0 {
				return "'s buyer has no controlled home area to place them in"
			}
		case ItemICBM:
			if w.phase != PhaseBuild || p.Built.ICBM < it.N || p.ICBM < it.N {
				return fmt.Sprintf("has not built %d ICBMs this turn", it.N)
			}
			if w.icbmRoom(to) < it.N {
				return "'s buyer has no room for them on the Strategic Reserve"
			}
		case ItemABM:
			if w.phase != PhaseBuild || p.Built.ABM < it.N || p.ABM < it.N {
				return fmt.Sprintf("has not built %d ABMs this turn", it.N)
			}
			if w.abmRoom(to) < it.N {
				return "'s buyer has no room for them on the Strategic Reserve"
			}
		}
	}
	if cash > p.Cash {
		return "has not the cash"
	}
	for k := range res {
		if res[k] > *p.res(Resource(k)) {
			return "has not the " + Resource(k).String()
		}
		if res[k] > w.room(to, Resource(k)) {
			return "'s partner has no room for the " + Resource(k).String()
		}
	}
	return ""
}

// deliver moves items from i to j; it returns what the board shows.
func (r *run) deliver(i, j int, items []Item, place []string) []string {
	w := r.w
	var seen []string
	for _, it := range items {
		switch it.Kind {
		case ItemCash:
			w.players[i].Cash -= it.N
			w.players[j].Cash += it.N
		case ItemResource:
			*w.players[i].res(it.Res) -= it.N
			*w.players[j].res(it.Res) += it.N
		case ItemCompany:
			w.cardAt[it.Card] = j
			seen = append(seen, fmt.Sprintf("%s goes to %s", r.sc.cards[it.Card].name, w.pname(j)))
		case ItemArmies, ItemNavies:
			navy := it.Kind == ItemNavies
			dest := r.placeFor(j, navy, place)
			id := r.sc.areas[it.Area].ID
			if navy {
				w.addNavies(i, it.Area, -it.N)
				w.addNavies(j, dest, it.N)
				w.players[i].Built.Navies[id] -= it.N
			} else {
				w.addArmies(i, it.Area, -it.N)
				w.addArmies(j, dest, it.N)
				w.players[i].Built.Armies[id] -= it.N
			}
			seen = append(seen, fmt.Sprintf("%s sells %s to %s, placed in %s", w.pname(i), r.sc.itemText(it, true), w.pname(j), r.sc.areaName(dest)))
		case ItemICBM:
			w.players[i].ICBM -= it.N
			w.players[i].Built.ICBM -= it.N
			w.players[j].ICBM += it.N
		case ItemABM:
			w.players[i].ABM -= it.N
			w.players[i].Built.ABM -= it.N
			w.players[j].ABM += it.N
		}
	}
	return seen
}

// placeFor is where forces a player buys are placed: the first of the
// areas it named that is a valid build place, else its first.
func (r *run) placeFor(i int, navy bool, place []string) int {
	for _, id := range place {
		a := r.sc.areaByID[id]
		if r.w.isSea(a) == navy && r.buildPlaceOK(i, a) == "" {
			return a
		}
	}
	for a := range r.sc.areas {
		if r.w.isSea(a) == navy && r.buildPlaceOK(i, a) == "" {
			return a
		}
	}
	return -1
}

// ---- salaries ----

// salaryChoice is what a player ordered for the salaries phase.
type salaryChoice struct {
	explicit bool
	open     map[int]bool
	disband  []*Order
}

// salaries resolves the salaries phase for every player in the drawn
// order, then the blockades (seed: Salaries, Naval Blockade).
func (r *run) salaries(ords [][]*Order) {
	w := r.w
	for c := range w.cardBlk {
		w.cardBlk[c] = false
	}
	produced := map[int]int{}
	blockades := map[int][]int{} // card ⇒ declarers in drawn order
	r.rep.public("Salaries, in the drawn order: %s", r.orderText())
	for _, i := range w.order {
		if !w.players[i].alive() {
			continue
		}
		ch := salaryChoice{open: map[int]bool{}}
		for _, c := range w.companies(i) {
			ch.open[c] = true
		}
		for _, o := range ords[i] {
			if r.anytime(i, o) {
				continue
			}
			if !r.condsHold(i, o.Conds, nil) {
				r.skipped(i, o)
				continue
			}
			switch o.Kind {
			case KOpen, KClose:
				ch.explicit = true
				for _, c := range w.companies(i) {
					if o.All || c == o.Card {
						ch.open[c] = o.Kind == KOpen
					}
				}
			case KDisband:
				ch.disband = append(ch.disband, o)
			case KBlockade:
				blockades[o.Card] = append(blockades[o.Card], i)
			}
		}
		r.paySalaries(i, ch, produced)
	}
	r.blockades(blockades, produced)
	for _, p := range w.players {
		p.LoanPeak = p.Loans
	}
}

// paySalaries carries out the five steps of the salaries phase for one
// player.
func (r *run) paySalaries(i int, ch salaryChoice, produced map[int]int) {
	w := r.w
	p := w.players[i]
	rules := &w.sc.Rules
	// 2. forces disbanded by order (their salary is not paid)
	for _, o := range ch.disband {
		have := w.armies(i, o.Area)
		if o.Unit == UNavy {
			have = w.navies(i, o.Area)
		}
		n := o.N
		if o.All || n > have {
			n = have
		}
		if n == 0 {
			continue
		}
		if o.Unit == UNavy {
			w.addNavies(i, o.Area, -n)
		} else {
			w.addArmies(i, o.Area, -n)
		}
		r.rep.public("  %s disbands %s in %s.", w.pname(i), plural(n, strings.ToLower(o.Unit.word(1)), strings.ToLower(o.Unit.word(2))), r.sc.areaName(o.Area))
	}
	armies, navies := w.forces(i)
	forceCost := (armies + navies) * rules.ForceSalary
	interest := w.sc.Loans.Interest(p.LoanPeak)
	// 1. companies
	var opened, closed []int
	spare := p.Cash
	if !ch.explicit {
		spare = p.Cash - forceCost - max(0, interest-w.sc.Bonds.Interest(p.Bonds))
	}
	for _, c := range w.companies(i) {
		if ch.open[c] && spare >= rules.CompanySalary && p.Cash >= rules.CompanySalary {
			w.pay(i, rules.CompanySalary)
			spare -= rules.CompanySalary
			w.cardOpn[c] = true
			opened = append(opened, c)
		} else {
			w.cardOpn[c] = false
			closed = append(closed, c)
		}
	}
	line := fmt.Sprintf("  %s opens %s", w.pname(i), r.cardList(opened))
	if len(closed) > 0 {
		line += "; closed: " + r.cardList(closed)
	}
	r.rep.public("%s.", line)
	r.rep.private(p.ID, "  Company salaries: %d × %s = %s.", len(opened), money(rules.CompanySalary), money(len(opened)*rules.CompanySalary))
	// 2. forces: what cannot be paid is disbanded
	if unpaid := (armies + navies) - p.Cash/max(1, rules.ForceSalary); rules.ForceSalary > 0 && unpaid > 0 {
		r.disbandUnpaid(i, unpaid)
		armies, navies = w.forces(i)
	}
	w.pay(i, (armies+navies)*rules.ForceSalary)
	r.rep.private(p.ID, "  Force salaries: %d pieces × %s = %s.", armies+navies, money(rules.ForceSalary), money((armies+navies)*rules.ForceSalary))
	// 3. loan interest: bonds are sold and the bank lends before a default
	if interest > 0 {
		for p.Cash < interest && p.Bonds > 0 {
			r.sellBonds(i, rules.LoanUnit)
		}
		for p.Cash < interest && p.Loans+rules.LoanUnit <= w.sc.Loans.Max()*p.Cards {
			r.rep.private(p.ID, "  To pay the interest:")
			r.loan(i, rules.LoanUnit)
		}
		if p.Cash < interest {
			r.rep.public("  %s cannot pay the interest on its loans (%s): it defaults and is bankrupt.", w.pname(i), money(interest))
			r.bankrupt(i)
			return
		}
		w.pay(i, interest)
		r.rep.private(p.ID, "  Loan interest on %s: %s.", money(p.LoanPeak), money(interest))
	}
	// 4. bond interest
	if bi := w.sc.Bonds.Interest(p.Bonds); bi > 0 {
		w.pay(i, -bi)
		r.rep.private(p.ID, "  Bond interest on %s: %s received.", money(p.Bonds), money(bi))
	}
	// 5. production into the Strategic Reserve, up to its columns
	var lost []string
	for _, c := range opened {
		co := r.sc.cards[c].company
		n := min(co.Output, w.room(i, co.res))
		*p.res(co.res) += n
		produced[c] = n
		if n < co.Output {
			lost = append(lost, fmt.Sprintf("%d %s", co.Output-n, co.res))
		}
	}
	r.rep.private(p.ID, "  Production recorded: reserve now %d oil, %d minerals, %d grain.", p.Oil, p.Minerals, p.Grain)
	if len(lost) > 0 {
		r.rep.private(p.ID, "  Lost for want of room on the Strategic Reserve: %s.", strings.Join(lost, ", "))
	}
}

// disbandUnpaid removes n pieces whose salary cannot be paid: from the
// largest stacks first.
func (r *run) disbandUnpaid(i, n int) {
	w := r.w
	pi := w.players[i].idx
	for ; n > 0; n-- {
		best, bestN, navy := -1, 0, false
		for a := range w.sc.areas {
			if w.army[a][pi] > bestN {
				best, bestN, navy = a, w.army[a][pi], false
			}
			if w.navy[a][pi] > bestN {
				best, bestN, navy = a, w.navy[a][pi], true
			}
		}
		if best < 0 {
			return
		}
		if navy {
			w.navy[best][pi]--
			r.rep.public("  %s cannot pay a navy in %s: it is disbanded.", w.pname(i), r.sc.areaName(best))
		} else {
			w.army[best][pi]--
			r.rep.public("  %s cannot pay an army in %s: it is disbanded.", w.pname(i), r.sc.areaName(best))
		}
	}
}

// blockades takes the production of blockaded companies: every sea next to
// the company's area must hold a navy of one of its declarers and none of
// the company's owner (seed: Naval Blockade).
func (r *run) blockades(decl map[int][]int, produced map[int]int) {
	w := r.w
	cards := make([]int, 0, len(decl))
	for c := range decl {
		cards = append(cards, c)
	}
	sort.Ints(cards)
	for _, c := range cards {
		by := decl[c]
		name := r.sc.cards[c].name
		owner := w.cardAt[c]
		a := w.cardArea(c)
		who := make([]string, len(by))
		for k, i := range by {
			who[k] = w.pname(i)
		}
		mk := mark{Kind: "blockade", Power: w.pid(by[0]), To: r.sc.areas[a].ID, Card: r.sc.cards[c].id, Result: "failed"}
		if owner >= 0 {
			mk.Against = w.pid(owner)
		}
		for _, s := range r.sc.areas[a].seas {
			for _, i := range by {
				if w.navies(i, s) > 0 {
					mk.From = append(mk.From, r.sc.areas[s].ID)
					break
				}
			}
		}
		fail := func(why string) {
			r.rep.public("  Blockade of %s by %s fails: %s.", name, strings.Join(who, " and "), why)
			r.rep.mark(mk)
		}
		switch {
		case owner < 0 || !w.players[owner].alive():
			fail("nobody owns it")
			continue
		case !w.cardOpn[c]:
			fail("it is closed and produced nothing")
			continue
		case len(r.sc.areas[a].seas) == 0:
			fail(r.sc.areaName(a) + " has no sea next to it")
			continue
		}
		ownBlock := false
		for _, i := range by {
			ownBlock = ownBlock || i == owner
		}
		if ownBlock {
			fail("a player cannot blockade its own company")
			continue
		}
		// Seed: "To control a sea area, you must have at least 1 Navy in
		// it, while the enemy has none. Several players may collectively
		// Blockade a target player." A sea counts when one of the
		// blockaders has a navy there and the blockaded player has none;
		// blockaders sharing a sea do not break their own blockade, and a
		// third player's navies neither help nor hinder (navies of
		// different players coexist peacefully: Naval Operations).
		held := true
		for _, s := range r.sc.areas[a].seas {
			ours := false
			for _, i := range by {
				ours = ours || w.navies(i, s) > 0
			}
			if !ours || w.navies(owner, s) > 0 {
				held = false
				fail(fmt.Sprintf("%s is not controlled by the blockaders", r.sc.areaName(s)))
				break
			}
		}
		if !held {
			continue
		}
		co := r.sc.cards[c].company
		n := produced[c]
		*w.players[owner].res(co.res) -= n
		w.cardBlk[c] = true
		to := by[0]
		for _, i := range by {
			if w.room(i, co.res) > 0 {
				to = i
				break
			}
		}
		got := min(n, w.room(to, co.res))
		*w.players[to].res(co.res) += got
		verb := "blockades"
		if len(who) > 1 {
			verb = "blockade"
		}
		r.rep.public("  %s %s %s's %s company: %s loses the %d %s it produced, and %s takes %d.", strings.Join(who, " and "), verb, w.pname(owner), name, w.pname(owner), n, co.res, w.pname(to), got)
		mk.Result = "held"
		r.rep.mark(mk)
	}
}

// bankrupt removes a player who defaulted (seed: Bankruptcy): pieces off
// the board, cash back to the bank, the Strategic Reserve out of play, the
// company cards face up and open to seizure.
func (r *run) bankrupt(i int) {
	w := r.w
	p := w.players[i]
	r.removePieces(i)
	w.pay(i, p.Cash)
	p.Cash, p.Loans, p.LoanPeak, p.Bonds = 0, 0, 0, 0
	p.Oil, p.Minerals, p.Grain, p.ICBM, p.ABM = 0, 0, 0, 0, 0
	for _, c := range w.companies(i) {
		w.cardAt[c] = cardLoose
		w.cardOpn[c] = true
	}
	p.Status = statusBankrupt
	p.OutTurn = w.turn
}

func (r *run) removePieces(i int) {
	w := r.w
	pi := w.players[i].idx
	for a := range w.sc.areas {
		w.army[a][pi], w.navy[a][pi] = 0, 0
	}
}

// ---- trade ----

// market carries out one market trade (seed: Commodities Market).
func (r *run) market(i int, o *Order) {
	w := r.w
	p := w.players[i]
	res := o.Res
	bit := 1 << res
	name := res.String()
	refuse := func(why string) {
		r.rep.private(p.ID, "  %s refused: %s.", r.sc.format(o), why)
	}
	if p.Trades >= w.sc.Rules.TradesPerTurn {
		refuse(fmt.Sprintf("you have made your %d trades this turn", w.sc.Rules.TradesPerTurn))
		return
	}
	price := w.price(res)
	last := len(w.sc.Market.Track) - 1
	if o.Kind == KBuy {
		switch {
		case p.Sold&bit != 0:
			refuse("you sold " + name + " this turn and cannot buy it too")
			return
		case o.N > w.room(i, res):
			refuse(fmt.Sprintf("your Strategic Reserve has room for %d more %s", w.room(i, res), name))
			return
		case o.N*price > p.Cash:
			refuse(fmt.Sprintf("%d at %s costs %s; you have %s", o.N, money(price), money(o.N*price), money(p.Cash)))
			return
		}
		w.pay(i, o.N*price)
		*p.res(res) += o.N
		p.Bought |= bit
		w.market[res] = min(last, w.market[res]+o.N)
	} else {
		switch {
		case p.Bought&bit != 0:
			refuse("you bought " + name + " this turn and cannot sell it too")
			return
		case o.N > *p.res(res):
			refuse(fmt.Sprintf("you have %d %s", *p.res(res), name))
			return
		}
		w.pay(i, -o.N*price)
		*p.res(res) -= o.N
		p.Sold |= bit
		w.market[res] = max(0, w.market[res]-o.N)
	}
	p.Trades++
	verb := "buys"
	if o.Kind == KSell {
		verb = "sells"
	}
	r.rep.public("  %s %s %d %s at %s (%s); %s now %s.", w.pname(i), verb, o.N, name, money(price), money(o.N*price), name, money(w.price(res)))
}

// ---- build, research, arms sales ----

// buildPlaceOK says why player i may not place new pieces in area a (""
// when it may): armies in a controlled home area with a city left, navies
// in a sea next to a controlled home area (seed: Placement).
func (r *run) buildPlaceOK(i, a int) string {
	w := r.w
	sp := w.sc.powers[w.players[i].idx]
	if w.isSea(a) {
		for _, h := range sp.homes {
			if w.sc.adjacent(h, a) && w.controls(i, h) {
				return ""
			}
		}
		return fmt.Sprintf("navies are placed in a sea next to a home area you control, not in %s", r.sc.areaName(a))
	}
	switch {
	case w.sc.areas[a].home != w.players[i].idx:
		return fmt.Sprintf("armies are placed in your home cities, not in %s", r.sc.areaName(a))
	case w.dead[a]:
		return fmt.Sprintf("%s is destroyed", r.sc.areaName(a))
	case !w.controls(i, a):
		return fmt.Sprintf("you do not control %s", r.sc.areaName(a))
	}
	return ""
}

func (r *run) setsOK(i, sets int) string {
	p := r.w.players[i]
	cost := sets * r.sc.Costs.Forces.Cash
	switch {
	case p.Cash < cost:
		return fmt.Sprintf("it costs %s; you have %s", money(cost), money(p.Cash))
	case p.Oil < sets || p.Minerals < sets || p.Grain < sets:
		return fmt.Sprintf("it takes %d sets (oil, minerals, grain); you have %d oil, %d minerals, %d grain", sets, p.Oil, p.Minerals, p.Grain)
	}
	return ""
}

// build buys forces in sets of three (seed: Build, Placement).
func (r *run) build(i int, o *Order) {
	w := r.w
	p := w.players[i]
	per := r.sc.Costs.Forces.Count
	total := 0
	for _, part := range o.Parts {
		total += part.N
	}
	refuse := func(why string) { r.rep.private(p.ID, "  %s refused: %s.", r.sc.format(o), why) }
	if total%per != 0 {
		refuse(fmt.Sprintf("armies and navies are built in sets of %d", per))
		return
	}
	for _, part := range o.Parts {
		if why := r.buildPlaceOK(i, part.To); why != "" {
			refuse(why)
			return
		}
	}
	sets := total / per
	if why := r.setsOK(i, sets); why != "" {
		refuse(why)
		return
	}
	w.pay(i, sets*r.sc.Costs.Forces.Cash)
	p.Oil -= sets
	p.Minerals -= sets
	p.Grain -= sets
	var done []string
	for _, part := range o.Parts {
		id := r.sc.areas[part.To].ID
		if w.isSea(part.To) {
			w.addNavies(i, part.To, part.N)
			if p.Built.Navies == nil {
				p.Built.Navies = map[string]int{}
			}
			p.Built.Navies[id] += part.N
			done = append(done, plural(part.N, "navy", "navies")+" in "+r.sc.areaName(part.To))
		} else {
			w.addArmies(i, part.To, part.N)
			if p.Built.Armies == nil {
				p.Built.Armies = map[string]int{}
			}
			p.Built.Armies[id] += part.N
			done = append(done, plural(part.N, "army", "armies")+" in "+r.sc.areaName(part.To))
		}
	}
	r.rep.public("  %s builds %s.", w.pname(i), strings.Join(done, ", "))
}

// buildWeapon buys ICBMs or ABMs (seed: Build, Technology).
func (r *run) buildWeapon(i int, o *Order) {
	w := r.w
	p := w.players[i]
	refuse := func(why string) { r.rep.private(p.ID, "  %s refused: %s.", r.sc.format(o), why) }
	cost := r.sc.Costs.ICBM
	tech, fresh, room, builtN := p.TechICBM, p.NewICBM, w.icbmRoom(i), p.Built.ICBM
	if o.Unit == UABM {
		cost = r.sc.Costs.ABM
		tech, fresh, room, builtN = p.TechABM, p.NewABM, w.abmRoom(i), p.Built.ABM
	}
	name := o.Unit.word(1)
	cash := o.N * cost.Cash
	switch {
	case !tech:
		refuse("you must research the " + name + " technology first")
		return
	case fresh && builtN+o.N > 1:
		refuse("in the turn you research a technology you may build only one " + name)
		return
	case o.N > room:
		refuse(fmt.Sprintf("your Strategic Reserve has room for %d more", room))
		return
	}
	if fresh {
		cash = 0 // the research paid the cash cost
	}
	switch {
	case p.Cash < cash:
		refuse(fmt.Sprintf("it costs %s; you have %s", money(cash), money(p.Cash)))
		return
	case p.Minerals < o.N*cost.Minerals:
		refuse(fmt.Sprintf("it takes %d minerals; you have %d", o.N*cost.Minerals, p.Minerals))
		return
	}
	w.pay(i, cash)
	p.Minerals -= o.N * cost.Minerals
	if o.Unit == UICBM {
		p.ICBM += o.N
		p.Built.ICBM += o.N
	} else {
		p.ABM += o.N
		p.Built.ABM += o.N
	}
	r.rep.private(p.ID, "  You build %d %s for %s and %d minerals (now %d ICBM, %d ABM).", o.N, name, money(cash), o.N*cost.Minerals, p.ICBM, p.ABM)
}

// research turns over cards until the announced type comes up (seed:
// Research, Technology).
func (r *run) research(i int, o *Order) {
	w := r.w
	p := w.players[i]
	rules := &r.sc.Rules
	what := o.Res.String()
	switch o.Tech {
	case TechICBM:
		what = "ICBM"
	case TechABM:
		what = "ABM"
	}
	refuse := func(why string) { r.rep.private(p.ID, "  %s refused: %s.", r.sc.format(o), why) }
	switch {
	case p.Research >= rules.ResearchAttempts:
		refuse(fmt.Sprintf("%d research attempts per build phase", rules.ResearchAttempts))
		return
	case o.Tech == TechICBM && p.TechICBM, o.Tech == TechABM && p.TechABM:
		refuse("you have that technology already")
		return
	case o.Tech != 0 && w.opt.Slow && w.turn < rules.SlowTechTurn:
		refuse(fmt.Sprintf("slow game: no ICBM or ABM research before turn %d", rules.SlowTechTurn))
		return
	case p.Cash < rules.ResearchCardCost:
		refuse("you cannot pay for a single card")
		return
	}
	p.Research++
	var deck []int
	for c, at := range w.cardAt {
		if at == cardDeck {
			deck = append(deck, c)
		}
	}
	deck = r.shuffle(deck)
	turned := 0
	var shown []string
	result := "stops"
	found := -1
	for _, c := range deck {
		if o.N > 0 && turned >= o.N {
			result = fmt.Sprintf("halts after %d cards", turned)
			break
		}
		if p.Cash < rules.ResearchCardCost {
			result = "runs out of cash"
			break
		}
		w.pay(i, rules.ResearchCardCost)
		turned++
		cd := r.sc.cards[c]
		shown = append(shown, cd.name)
		// Seed: Resolving an ICBM Attack — a destroyed card "pulled later
		// during research, the money is wasted and the research attempt
		// fails", whatever its type.
		if w.cardDed[c] {
			result = "turns up " + cd.name + ", destroyed by a nuclear strike: the money is wasted and the attempt fails"
			break
		}
		match := (o.Tech != 0 && cd.tech == o.Tech) || (o.Tech == 0 && cd.company != nil && cd.company.res == o.Res)
		if !match {
			continue
		}
		found = c
		break
	}
	if found < 0 && result == "stops" {
		result = "finds no card of that type in the deck"
	}
	cost := money(turned * rules.ResearchCardCost)
	if found < 0 {
		r.rep.public("  %s researches %s: turns over %d cards (%s) for %s and %s.", w.pname(i), what, turned, strings.Join(shown, ", "), cost, result)
		return
	}
	cd := r.sc.cards[found]
	if cd.tech != 0 {
		if cd.tech == TechICBM {
			p.TechICBM, p.NewICBM = true, true
		} else {
			p.TechABM, p.NewABM = true, true
		}
		r.rep.public("  %s researches %s: turns over %d cards (%s) for %s and gains the %s technology; the card goes back to the deck.", w.pname(i), what, turned, strings.Join(shown, ", "), cost, what)
		r.rep.private(p.ID, "  This turn you may build one %s for its minerals only.", what)
		return
	}
	w.cardAt[found] = i
	w.cardOpn[found] = false
	r.rep.public("  %s researches %s: turns over %d cards (%s) for %s and gains %s (%s).", w.pname(i), what, turned, strings.Join(shown, ", "), cost, cd.name, r.sc.areaName(cd.company.area))
}

// minorOpen reports whether a minor power can trade arms: a minor area
// not destroyed and not occupied by a player.
func (w *world) minorOpen(a int) bool {
	return w.minor(a) && !w.dead[a] && w.armiesIn(a) < 0
}

// unitCash is the cash cost of building one piece.
func (sc *Scenario) unitCash(u Unit) int {
	switch u {
	case UICBM:
		return sc.Costs.ICBM.Cash
	case UABM:
		return sc.Costs.ABM.Cash
	}
	return sc.Costs.Forces.Cash / sc.Costs.Forces.Count
}

// sellMinor sells pieces built this turn to a minor power for twice the
// cash cost (seed: Arms Sales).
func (r *run) sellMinor(i int, o *Order) {
	w := r.w
	p := w.players[i]
	refuse := func(why string) { r.rep.private(p.ID, "  %s refused: %s.", r.sc.format(o), why) }
	if !w.minorOpen(o.Minor) {
		refuse(r.sc.areaName(o.Minor) + " is not a free minor power")
		return
	}
	switch o.Unit {
	case UArmy:
		id := r.sc.areas[o.Area].ID
		if min(w.armies(i, o.Area), p.Built.Armies[id]) < o.N {
			refuse(fmt.Sprintf("you have not built %d armies in %s this turn", o.N, r.sc.areaName(o.Area)))
			return
		}
		w.addArmies(i, o.Area, -o.N)
		p.Built.Armies[id] -= o.N
		w.minorA[o.Minor] += o.N
	case UNavy:
		// Seed: Arms Sales — "He may also sell them to any Minor Power":
		// navies too. The minor needs a coast; its navies are kept with it.
		id := r.sc.areas[o.Area].ID
		if len(r.sc.areas[o.Minor].seas) == 0 {
			refuse(r.sc.areaName(o.Minor) + " has no coast: it cannot keep navies")
			return
		}
		if min(w.navies(i, o.Area), p.Built.Navies[id]) < o.N {
			refuse(fmt.Sprintf("you have not built %d navies in %s this turn", o.N, r.sc.areaName(o.Area)))
			return
		}
		w.addNavies(i, o.Area, -o.N)
		p.Built.Navies[id] -= o.N
		w.minorN[o.Minor] += o.N
	case UICBM:
		if min(p.ICBM, p.Built.ICBM) < o.N {
			refuse(fmt.Sprintf("you have not built %d ICBMs this turn", o.N))
			return
		}
		p.ICBM -= o.N
		p.Built.ICBM -= o.N
		w.minorI[o.Minor] += o.N
	case UABM:
		if min(p.ABM, p.Built.ABM) < o.N {
			refuse(fmt.Sprintf("you have not built %d ABMs this turn", o.N))
			return
		}
		p.ABM -= o.N
		p.Built.ABM -= o.N
		w.minorB[o.Minor] += o.N
	}
	got := o.N * r.sc.unitCash(o.Unit) * r.sc.Rules.MinorBuyFactor
	w.pay(i, -got)
	r.rep.public("  %s sells %d %s to %s for %s.", w.pname(i), o.N, o.Unit.word(o.N), r.sc.areaName(o.Minor), money(got))
}

// buyBack buys weapons back from a minor power to disarm it, for twice
// what the minor paid (seed: Arms Sales).
func (r *run) buyBack(i int, o *Order) {
	w := r.w
	p := w.players[i]
	refuse := func(why string) { r.rep.private(p.ID, "  %s refused: %s.", r.sc.format(o), why) }
	if !w.minorOpen(o.Minor) {
		refuse(r.sc.areaName(o.Minor) + " is not a free minor power")
		return
	}
	have := map[Unit]*int{UArmy: &w.minorA[o.Minor], UNavy: &w.minorN[o.Minor], UICBM: &w.minorI[o.Minor], UABM: &w.minorB[o.Minor]}[o.Unit]
	if *have < o.N {
		refuse(fmt.Sprintf("%s has %d", r.sc.areaName(o.Minor), *have))
		return
	}
	cost := o.N * r.sc.unitCash(o.Unit) * r.sc.Rules.MinorBuyFactor * r.sc.Rules.MinorSellFactor
	if p.Cash < cost {
		refuse(fmt.Sprintf("it costs %s; you have %s", money(cost), money(p.Cash)))
		return
	}
	w.pay(i, cost)
	*have -= o.N
	r.rep.public("  %s buys back %d %s from %s for %s: they are disarmed.", w.pname(i), o.N, o.Unit.word(o.N), r.sc.areaName(o.Minor), money(cost))
}
