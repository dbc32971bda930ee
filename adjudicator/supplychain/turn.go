package supplychain

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// report collects what happened while orders were carried out.
type report struct {
	pub   []string
	priv  map[int][]string
	marks []Mark
}

// Mark is a card a phase changed, for its picture: what happened to it
// and who did it. A mark is made only where the public report names the
// card (a blind purchase is not marked), so every reader may see it.
type Mark struct {
	Power string `json:"power,omitempty"` // "" for the Listing Agent
	Card  string `json:"card"`            // its code
	What  string `json:"what"`            // one of the mark* words
}

// The words of marks.
const (
	markBought    = "bought"
	markPlaced    = "placed"
	markDiscarded = "discarded"
	markClosed    = "closed"
	markSpun      = "spun"
	markSwapped   = "swapped"
	markTraded    = "got by trade" // the player marked got it by Buy-Sell-Trade
	markDerelict  = "derelict"
	markRevenue   = "revenue"
	markStale     = "to the Stale Sale pile"
)

// mark records that player p (-1: nobody) did what to card c.
func (g *game) mark(p, c int, what string) {
	if g.rep == nil {
		return
	}
	m := Mark{Card: g.card(c).Code, What: what}
	if p >= 0 {
		m.Power = g.players[p].power
	}
	g.rep.marks = append(g.rep.marks, m)
}

func (g *game) say(format string, args ...any) {
	if g.rep == nil {
		return
	}
	g.rep.pub = append(g.rep.pub, fmt.Sprintf(format, args...))
}

func (g *game) tell(p int, format string, args ...any) {
	if g.rep == nil {
		return
	}
	if g.rep.priv == nil {
		g.rep.priv = map[int][]string{}
	}
	g.rep.priv[p] = append(g.rep.priv[p], fmt.Sprintf(format, args...))
}

// try runs f on a copy of the game; when f succeeds the copy becomes the
// game, when it fails nothing changed.
func (g *game) try(f func(c *game) error) error {
	c := g.clone()
	c.rep = &report{}
	if err := f(c); err != nil {
		return err
	}
	rep := g.rep
	*g = *c
	g.rep = rep
	if rep != nil {
		rep.pub = append(rep.pub, c.rep.pub...)
		rep.marks = append(rep.marks, c.rep.marks...)
		for p, xs := range c.rep.priv {
			if rep.priv == nil {
				rep.priv = map[int][]string{}
			}
			rep.priv[p] = append(rep.priv[p], xs...)
		}
	}
	return nil
}

// ---- set-up ----

// newGame deals a game (seed, Set up; 1-player and co-op set-ups).
func newGame(d *Deck, opt Options, powers []string, seed int64) (*game, error) {
	n := opt.Players
	if n < 1 || n > d.Rules.MaxPlayers || n > len(powers) {
		return nil, fmt.Errorf("supplychain: %d players: this deck takes 1 to %d", n, min(d.Rules.MaxPlayers, len(powers)))
	}
	if opt.Short && n > d.Rules.ShortDeckMaxPlayers {
		return nil, fmt.Errorf("supplychain: the Short Deck is for 1 to %d players", d.Rules.ShortDeckMaxPlayers)
	}
	if !opt.Short && n < d.Rules.FullDeckMinPlayers && n > 1 {
		return nil, fmt.Errorf("supplychain: the Full Deck is for %d to %d players; %d players use the Short Deck", d.Rules.FullDeckMinPlayers, d.Rules.MaxPlayers, n)
	}
	if opt.Coop && (n < 2 || n%2 != 0) {
		return nil, fmt.Errorf("supplychain: the co-op game is for partnerships of two: an even number of players")
	}
	if n == 1 {
		opt.Solo = true
	}
	if opt.Solo && (opt.Coop || opt.FireSale) {
		return nil, fmt.Errorf("supplychain: the solo game has no co-op and no Fire Sale")
	}
	if opt.Solo && (n > 2 || !opt.Short) {
		return nil, fmt.Errorf("supplychain: the solitaire game uses the Short Deck, which holds cards for 1 or 2 players side by side")
	}
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(seed)^0x9e3779b97f4a7c15))
	g := &game{d: d, opt: opt, round: 1, phase: phaseTurn}
	byKind := map[Kind][]int{}
	for i := range d.Cards {
		byKind[d.Cards[i].Kind] = append(byKind[d.Cards[i].Kind], i)
	}
	shuffle := func(xs []int) []int {
		out := append([]int(nil), xs...)
		rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		return out
	}
	// The Full Deck, or the Short Deck without codes ending in 2, 3, 4.
	var deck []int
	for _, c := range byKind[KindProperty] {
		code := d.Cards[c].Code
		if opt.Short && strings.ContainsRune(d.Rules.ShortDeckOut, rune(code[len(code)-1])) {
			g.out = append(g.out, c)
			continue
		}
		if opt.Solo && containsCard(d.SoloExclude, c) {
			g.out = append(g.out, c)
			continue
		}
		deck = append(deck, c)
	}
	nTeams := n
	if opt.Coop {
		nTeams = n / 2
	}
	g.teams = make([]team, nTeams)
	for i := 0; i < n; i++ {
		g.players = append(g.players, player{power: powers[i], team: i % nTeams, starter: -1, blind: -1})
	}
	g.linkTeams()
	// Main offices: one per player (per partnership), placed; the rest
	// join the other offices for sale.
	mains := shuffle(byKind[KindMainOffice])
	for t := range g.teams {
		g.teams[t].main = mains[t]
		g.teams[t].placed = []placed{{card: mains[t]}}
	}
	g.offices = append(g.offices, mains[nTeams:]...)
	g.offices = append(g.offices, byKind[KindOffice]...)
	// Business plans: one each, the rest out of play.
	plans := shuffle(byKind[KindPlan])
	for t := range g.teams {
		g.teams[t].plan = plans[t]
	}
	g.out = append(g.out, plans[nTeams:]...)
	if opt.Solo {
		return g.soloSetUp(deck, byKind, shuffle)
	}
	// Special offices: two into each hand (Fire Sale: all into the Deck).
	specials := shuffle(byKind[KindSpecialOffice])
	if opt.FireSale {
		deck = append(deck, specials...)
	} else {
		k := 0
		for p := range g.players {
			for j := 0; j < d.Rules.SpecialOfficesDealt && k < len(specials); j++ {
				g.players[p].hand = append(g.players[p].hand, handCard{card: specials[k]})
				k++
			}
		}
		g.out = append(g.out, specials[k:]...)
	}
	// Starters: one into each hand, the rest into the Deck.
	starters := shuffle(byKind[KindStarter])
	for p := range g.players {
		g.players[p].hand = append(g.players[p].hand, handCard{card: starters[p]})
		g.players[p].starter = starters[p]
	}
	deck = append(deck, starters[n:]...)
	// Derelicts: one per player into the Deck, the rest out of play.
	derelicts := shuffle(byKind[KindDerelict])
	deck = append(deck, derelicts[:min(n, len(derelicts))]...)
	g.out = append(g.out, derelicts[min(n, len(derelicts)):]...)
	sort.Ints(deck)
	g.draw = shuffle(deck)
	for p := range g.players {
		g.players[p].money = d.Rules.StartMoney
	}
	g.contracts = append([]int(nil), byKind[KindContract]...)
	g.vehicles = append([]int(nil), byKind[KindVehicle]...)
	sort.Ints(g.offices)
	sort.Ints(g.out)
	// The Listing Agent lists the top six cards.
	g.listing = make([]slot, d.Rules.Listed)
	for i := range g.listing {
		g.refill(i)
	}
	g.startTurn()
	return g, nil
}

// soloSetUp: the solitaire game uses the Short Deck without Starter
// businesses; each player gets fifteen random properties, one Starter, one
// plan, one token (and a main office, dealt before). There is no Deck, no
// listing, no money. Two players side by side share the Short Deck: thirty
// properties, fifteen each.
func (g *game) soloSetUp(deck []int, byKind map[Kind][]int, shuffle func([]int) []int) (*game, error) {
	d := g.d
	g.phase = phaseSolo
	sort.Ints(deck)
	deck = shuffle(deck)
	k := d.Rules.SoloProperties
	if k*len(g.players) > len(deck) {
		return nil, fmt.Errorf("supplychain: the Short Deck holds %d properties: not %d for each of %d players", len(deck), k, len(g.players))
	}
	for p := range g.players {
		for _, c := range deck[p*k : (p+1)*k] {
			g.players[p].hand = append(g.players[p].hand, handCard{card: c})
		}
	}
	g.out = append(g.out, deck[k*len(g.players):]...)
	starters := shuffle(byKind[KindStarter])
	for p := range g.players {
		g.players[p].hand = append(g.players[p].hand, handCard{card: starters[p]})
		g.players[p].starter = starters[p]
	}
	g.out = append(g.out, starters[len(g.players):]...)
	g.out = append(g.out, byKind[KindSpecialOffice]...)
	g.out = append(g.out, byKind[KindDerelict]...)
	g.out = append(g.out, g.offices...)
	g.offices = nil
	g.contracts = append([]int(nil), byKind[KindContract]...)
	g.vehicles = append([]int(nil), byKind[KindVehicle]...)
	sort.Ints(g.out)
	return g, nil
}

// ---- the turn ----

// startTurn opens the turn of the player in g.seat.
func (g *game) startTurn() {
	g.acted = nil
	g.phase = phaseTurn
	g.settleBlind(g.seat)
	for i := range g.players {
		g.players[i].forced = i == g.seat && g.players[i].blind >= 0
	}
}

// result is what became of one order.
type result struct {
	err   error
	canon string
	query bool
}

type step struct {
	key    string // the action ("" for a free order)
	orders []int
	cost   int // actions it uses (2 for the dual Place and Reorganize)
}

// buildSteps groups a turn's orders into actions: all PLACE lines are one
// Place action, all MOVE and REMOVE lines one Reorganize action, all CLOSE
// lines one Close action; a TOKEN line belongs to the Place action when
// there is one, else to the Reorganize action. Place and Reorganize
// together are the dual action (seed, Extras).
func buildSteps(os []Order, res []result) []step {
	var steps []step
	group := map[string]int{}
	hasPlace := false
	for _, o := range os {
		if o.Verb == VerbPlace || o.Verb == VerbAttach {
			hasPlace = true
		}
	}
	for i := range os {
		o := &os[i]
		if res[i].err != nil || o.isQuery() {
			continue
		}
		key := o.actionKey()
		switch o.Verb {
		case VerbToken:
			key = "reorganize"
			if hasPlace {
				key = "place"
			}
		case VerbDiscard:
			// Consecutive discards are one abandonment, checked as a whole.
			if n := len(steps); n > 0 && steps[n-1].key == "" && os[steps[n-1].orders[0]].Verb == VerbDiscard && steps[n-1].orders[len(steps[n-1].orders)-1] == i-1 {
				steps[n-1].orders = append(steps[n-1].orders, i)
				continue
			}
			steps = append(steps, step{orders: []int{i}})
			continue
		case VerbSpin, VerbPass:
			steps = append(steps, step{orders: []int{i}})
			continue
		case VerbAccept, VerbDecline:
			res[i].err = fmt.Errorf("there is no offer for you to answer")
			continue
		case VerbPick, VerbReturn, VerbFinish:
			res[i].err = fmt.Errorf("PICK, RETURN and FINISH are orders of the solo game")
			continue
		}
		switch key {
		case "place", "reorganize", "close":
			if k, ok := group[key]; ok {
				steps[k].orders = append(steps[k].orders, i)
				continue
			}
			group[key] = len(steps)
		}
		steps = append(steps, step{key: key, orders: []int{i}, cost: 1})
	}
	// The dual action: Place and Reorganize become one step.
	if p, ok := group["place"]; ok {
		if r, ok := group["reorganize"]; ok {
			first, second := min(p, r), max(p, r)
			merged := append(append([]int(nil), steps[first].orders...), steps[second].orders...)
			sort.Ints(merged)
			steps[first] = step{key: "place and reorganize", orders: merged, cost: 2}
			steps = append(steps[:second], steps[second+1:]...)
		}
	}
	return steps
}

// runTurn carries out player p's orders for the current turn. With check
// set (Check), a Buy-Sell-Trade is taken as accepted so the rest of the
// turn can be tried; otherwise it becomes an offer and the turn stops
// until the partner answers. It fills one result per order.
func (g *game) runTurn(p int, os []Order, check bool) []result {
	res := make([]result, len(os))
	for i := range os {
		res[i].query = os[i].isQuery()
	}
	steps := buildSteps(os, res)
	// A pending Blind Purchase: every turn is Revenue until it is paid.
	if g.players[p].forced && !contains(g.acted, "revenue") {
		has := false
		for _, o := range os {
			has = has || o.Verb == VerbRevenue
		}
		if !has {
			g.say("%s must collect revenue (a Blind Purchase waits to be paid for).", titleCase(g.players[p].power))
			if err := g.try(func(c *game) error { return c.revenue(p, nil) }); err == nil {
				g.acted = append(g.acted, "revenue")
			}
		}
	}
	deferred := false // check: orders after a trade that depends on the partner's hand
	for si, st := range steps {
		if deferred {
			for _, i := range st.orders {
				res[i].canon = os[i].format(g.d)
			}
			continue
		}
		if g.phase != phaseTurn {
			for _, i := range st.orders {
				res[i].err = fmt.Errorf("the game is over")
			}
			continue
		}
		var err error
		if st.key == "" {
			var ptrs []*Order
			for _, i := range st.orders {
				ptrs = append(ptrs, &os[i])
			}
			err = g.try(func(c *game) error { return c.free(p, ptrs) })
		} else if len(g.acted)+st.cost > 2 {
			err = fmt.Errorf("a turn has two actions; this would be a third (%s already)", strings.Join(g.acted, ", "))
		} else if st.key == "buy-sell-trade" {
			o := &os[st.orders[0]]
			var of *offer
			err = g.try(func(c *game) error {
				if contains(c.acted, "buy-sell-trade") {
					return fmt.Errorf("one Buy-Sell-Trade a turn: two actions of a turn must differ")
				}
				var e error
				of, e = c.resolveTrade(p, o)
				if e != nil {
					return e
				}
				if check {
					c.doTrade(of)
					c.say("%s (if %s accepts).", c.describeOffer(of), titleCase(c.players[of.to].power))
					c.acted = append(c.acted, "buy-sell-trade")
				}
				return nil
			})
			if err == nil && check && len(of.hidden) > 0 && si < len(steps)-1 {
				deferred = true
				g.say("The orders after the trade are checked when they are carried out, after %s's answer.", titleCase(g.players[of.to].power))
			}
			var nc *noCardError
			if err != nil && !check && errors.As(err, &nc) {
				// The partner lacks the card: the offer is made and
				// fails, which uses the action.
				g.acted = append(g.acted, "buy-sell-trade")
				g.say("%s offers %s a trade that %s cannot accept: the Buy-Sell-Trade fails.", titleCase(g.players[p].power), titleCase(o.Power), titleCase(o.Power))
				if q := g.playerIndex(o.Power); q >= 0 {
					g.tell(q, "%s's offer could not be accepted: %s.", titleCase(g.players[p].power), nc.msg)
				}
				res[st.orders[0]].err = err
				continue
			}
			if err == nil && !check {
				res[st.orders[0]].canon = o.format(g.d)
				for _, later := range steps[si+1:] {
					for _, i := range later.orders {
						of.rest = append(of.rest, os[i].format(g.d))
					}
				}
				g.offer = of
				g.phase = phaseOffer
				g.say("%s offers: %s. %s may ACCEPT or DECLINE until the deadline.", titleCase(g.players[p].power), g.describeOffer(of), titleCase(g.players[of.to].power))
				return res
			}
		} else {
			err = g.try(func(c *game) error {
				if err := c.action(p, os, st); err != nil {
					return err
				}
				key := st.key
				if os[st.orders[0]].Verb == VerbBuy {
					key = os[st.orders[0]].actionKey() // the area is known now
				}
				if st.key != "place and reorganize" && contains(c.acted, key) {
					return fmt.Errorf("two actions of a turn must differ: %s twice", key)
				}
				if st.key == "place and reorganize" && (contains(c.acted, "place") || contains(c.acted, "reorganize")) {
					return fmt.Errorf("two actions of a turn must differ")
				}
				if st.key == "place and reorganize" {
					c.acted = append(c.acted, "place", "reorganize")
				} else {
					c.acted = append(c.acted, key)
				}
				return nil
			})
		}
		for _, i := range st.orders {
			if err != nil {
				res[i].err = err
			} else {
				res[i].canon = os[i].format(g.d)
			}
		}
		if err == nil && g.hook != nil && !g.sim {
			g.hook(g)
		}
		if err != nil && !check {
			g.say("%s: %s — %v.", titleCase(g.players[p].power), os[st.orders[0]].format(g.d), err)
		}
	}
	return res
}

// free carries out an order that is no action.
func (g *game) free(p int, os []*Order) error {
	o := os[0]
	switch o.Verb {
	case VerbDiscard:
		return g.discard(p, os)
	case VerbSpin:
		return g.spin(p, o)
	case VerbPass:
		g.say("%s passes.", titleCase(g.players[p].power))
		return nil
	}
	return fmt.Errorf("not a free order")
}

// action carries out one action step.
func (g *game) action(p int, os []Order, st step) error {
	o := &os[st.orders[0]]
	switch o.Verb {
	case VerbBuy:
		return g.purchase(p, o)
	case VerbBlind:
		if g.players[p].blind >= 0 {
			return fmt.Errorf("a Blind Purchase is already waiting to be paid for")
		}
		return g.blind(p)
	case VerbSwap:
		return g.swap(p, o)
	case VerbRevenue:
		return g.revenue(p, o)
	case VerbClose:
		var ptrs []*Order
		for _, i := range st.orders {
			ptrs = append(ptrs, &os[i])
		}
		return g.closeCards(p, ptrs)
	case VerbPlace, VerbAttach, VerbMove, VerbRemove, VerbToken:
		var ptrs []*Order
		for _, i := range st.orders {
			ptrs = append(ptrs, &os[i])
		}
		return g.placeGroup(p, ptrs, g.phase == phaseSolo)
	}
	return fmt.Errorf("not an action")
}

// finishTurn ends the active player's turn: the hand limit, then the next
// player (and at the end of a round the listing taps, or the game ends).
func (g *game) finishTurn() {
	g.enforceHandLimit(g.seat)
	g.seat++
	if g.seat < len(g.players) {
		g.startTurn()
		return
	}
	// End of the round.
	empty := true
	for _, s := range g.listing {
		if s.card >= 0 {
			empty = false
		}
	}
	if empty {
		g.seat = len(g.players) - 1
		g.endGame()
		return
	}
	g.seat = 0
	g.round++
	g.tap()
	g.startTurn()
}

// tap: before the Listing Agent's turn (not the first), every listed card
// turns a quarter; at its fourth tap it goes to the Stale Sale pile and the
// top card of the Deck takes its place (seed, Listing Agent).
func (g *game) tap() {
	var gone []string
	for i := range g.listing {
		if g.listing[i].card < 0 {
			continue
		}
		g.listing[i].age++
		if g.listing[i].age >= g.d.Rules.ListingRounds {
			c := g.listing[i].card
			g.stale = append(g.stale, c)
			gone = append(gone, g.cname(c))
			g.mark(-1, c, markStale)
			g.refill(i)
		}
	}
	if len(gone) > 0 {
		g.say("The Listing Agent taps the listed cards: %s go%s to the Stale Sale pile.", joinAnd(gone), plural1(len(gone)))
	} else {
		g.say("The Listing Agent taps the listed cards.")
	}
}

func plural1(n int) string {
	if n == 1 {
		return "es"
	}
	return ""
}

// answerOffer settles a Buy-Sell-Trade offer and finishes the actor's
// turn with the orders written after it.
func (g *game) answerOffer(accept bool, answered bool) {
	of := g.offer
	g.offer = nil
	g.phase = phaseTurn
	from, to := titleCase(g.players[of.from].power), titleCase(g.players[of.to].power)
	g.acted = append(g.acted, "buy-sell-trade") // made, whatever the answer
	switch {
	case accept:
		if err := g.checkTrade(of); err != nil {
			var nc *noCardError
			if errors.As(err, &nc) {
				g.say("%s accepts, but the trade cannot be made now: the action fails.", to)
				g.tell(of.to, "The trade could not be made: %s.", nc.msg)
			} else {
				g.say("%s accepts, but the trade cannot be made now (%v): the action fails.", to, err)
			}
		} else {
			g.doTrade(of)
			g.say("%s accepts: %s.", to, g.describeOffer(of))
			for _, c := range of.give {
				g.mark(of.to, c, markTraded)
			}
			for _, c := range of.get {
				g.mark(of.from, c, markTraded)
			}
		}
	case answered:
		g.say("%s declines the offer: %s's Buy-Sell-Trade fails.", to, from)
	default:
		g.say("%s did not answer by the deadline: %s's Buy-Sell-Trade fails.", to, from)
	}
	if len(of.rest) > 0 {
		os, errs := g.parseCanonical(of.rest)
		for _, e := range errs {
			g.say("%s", e)
		}
		g.runTurn(of.from, os, false)
	}
	if g.phase == phaseTurn {
		g.finishTurn()
	}
}

// ---- end of the game ----

// vp counts a team's victory points: placed cards, attached derelicts,
// the unused link/3VP token, special offices, and at the end the business
// plan (seed, End Game and Winner).
func (g *game) vp(t int, final bool) int {
	tm := &g.teams[t]
	n := 0
	streets := map[int]int{}
	for _, pl := range tm.placed {
		c := g.card(pl.card)
		n += c.VP
		if c.isProperty() && c.Street >= 0 {
			streets[c.Street]++
		}
	}
	for _, th := range tm.thorns {
		n += g.card(th.card).VP
	}
	if tm.token == nil {
		n += g.d.Rules.TokenVP
	}
	for _, pl := range tm.placed {
		if e := g.card(pl.card).Effect; e.Kind == EffectStreetVP {
			n += e.Amount * streets[e.Street]
		}
	}
	if final && tm.plan >= 0 {
		pc := g.card(tm.plan)
		n += g.d.Rules.PlanVP * (streets[pc.Plan[0]] + streets[pc.Plan[1]])
	}
	return n
}

// routeValue is a team's best Revenue Route now (the tie-break).
func (g *game) routeValue(t int) int {
	return analyze(g.d, &g.teams[t], g.opt.Laissez).bestRoute(-1).value
}

func (g *game) endGame() {
	g.phase = phaseOver
	best, bestRoute := -1<<31, -1
	var win []int
	for t := range g.teams {
		v, r := g.vp(t, true), g.routeValue(t)
		switch {
		case v > best || v == best && r > bestRoute:
			best, bestRoute, win = v, r, []int{t}
		case v == best && r == bestRoute:
			win = append(win, t)
		}
	}
	g.winners = nil
	for _, t := range win {
		for _, s := range g.teams[t].seats {
			g.winners = append(g.winners, g.players[s].power)
		}
	}
	sort.Strings(g.winners)
	g.say("The game is over: no listed cards remain at the end of the round.")
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
