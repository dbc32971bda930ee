package supplychain

import (
	"fmt"
	"sort"
	"strings"
)

// This file holds the actions of the seed ("Actions", "Extras",
// "Anti-trust and Anti-monopoly Laws", "Special and misc cards"). Every
// function checks before it changes anything, or works on a copy the
// caller throws away on error: a failed action leaves the game as it was.

// ---- small helpers ----

func (g *game) teamOf(p int) *team { return &g.teams[g.players[p].team] }

func (g *game) card(i int) *Card { return &g.d.Cards[i] }

func (g *game) cname(i int) string {
	c := g.card(i)
	return fmt.Sprintf("%s (%s)", c.Name, c.Code)
}

func money(n int) string {
	s := fmt.Sprint(n)
	if n >= 1000 {
		s = fmt.Sprintf("%d,%03d", n/1000, n%1000)
	}
	return "$" + s
}

// gain adds money, capped by law A: the excess goes back to the bank.
func (g *game) gain(p, n int) (kept int) {
	pl := &g.players[p]
	before := pl.money
	pl.money = min(pl.money+n, g.d.Rules.MoneyCap)
	return pl.money - before
}

func insertSorted(xs []int, x int) []int {
	i := sort.SearchInts(xs, x)
	xs = append(xs, 0)
	copy(xs[i+1:], xs[i:])
	xs[i] = x
	return xs
}

func removeInt(xs []int, x int) []int {
	for i, y := range xs {
		if y == x {
			return append(xs[:i], xs[i+1:]...)
		}
	}
	return xs
}

// abandon sends a card that leaves play to where the seed says: contracts
// and vehicles back to their decks, everything else to the Stale Sale pile.
func (g *game) abandon(c int) {
	switch g.card(c).Kind {
	case KindContract:
		g.contracts = insertSorted(g.contracts, c)
	case KindVehicle:
		g.vehicles = insertSorted(g.vehicles, c)
	default:
		g.stale = append(g.stale, c)
	}
}

// refill lays the top card of the Deck into listing slot i (or leaves it
// empty when the Deck is exhausted).
func (g *game) refill(i int) {
	g.listing[i] = slot{card: -1}
	if g.sim {
		return // a trial run does not see the next card
	}
	if len(g.draw) > 0 {
		g.listing[i] = slot{card: g.draw[0]}
		g.draw = g.draw[1:]
	}
}

func (g *game) handIndex(p, c int) int {
	for i, h := range g.players[p].hand {
		if h.card == c {
			return i
		}
	}
	return -1
}

func (g *game) takeFromHand(p, c int) handCard {
	pl := &g.players[p]
	i := g.handIndex(p, c)
	h := pl.hand[i]
	pl.hand = append(pl.hand[:i], pl.hand[i+1:]...)
	return h
}

func placedIndex(t *team, c int) int {
	for i, pl := range t.placed {
		if pl.card == c {
			return i
		}
	}
	return -1
}

func hasThorn(t *team, c int) bool {
	for _, th := range t.thorns {
		if th.target == c {
			return true
		}
	}
	return false
}

// effects sums a placed office effect of a team.
func (g *game) effect(t *team, kind EffectKind, area Area) int {
	n := 0
	for _, pl := range t.placed {
		e := g.card(pl.card).Effect
		if e.Kind == kind && (kind != EffectDiscount || e.Area == area) {
			n += e.Amount
		}
	}
	return n
}

func (g *game) handLimit(p int) int {
	return g.d.Rules.HandLimit + g.effect(g.teamOf(p), EffectHandLimit, AreaNone)
}

// price of a card bought from an area, rounded up to $50 (seed).
func (g *game) price(p int, c int, area Area) int {
	base := g.card(c).Price
	if area == AreaStale {
		base = g.d.ceilStep((base + 1) / 2)
	}
	base -= g.effect(g.teamOf(p), EffectDiscount, area)
	return g.d.ceilStep(max(base, 0))
}

func (g *game) blindPrice(c int) int {
	return g.d.ceilStep(max(g.card(c).Price-g.d.Rules.BlindDiscount, 0))
}

// officeCount counts a team's offices, placed and in its members' hands
// (law B).
func (g *game) officeCount(t int) int {
	n := 0
	for _, pl := range g.teams[t].placed {
		if g.card(pl.card).Kind.IsOffice() {
			n++
		}
	}
	for _, s := range g.teams[t].seats {
		for _, h := range g.players[s].hand {
			if g.card(h.card).Kind.IsOffice() {
				n++
			}
		}
	}
	return n
}

// lawB checks that after team t's office count changes by delta it does
// not own OfficeLead more offices than another team (law B). delta2 is the
// change of team t2 (a trade partner).
func (g *game) lawB(t, delta, t2, delta2 int) error {
	if len(g.teams) < 2 || (delta <= 0 && delta2 <= 0) {
		return nil
	}
	counts := make([]int, len(g.teams))
	for i := range g.teams {
		counts[i] = g.officeCount(i)
	}
	counts[t] += delta
	if t2 >= 0 {
		counts[t2] += delta2
	}
	for a := range counts {
		if (a != t || delta <= 0) && (a != t2 || delta2 <= 0) {
			continue
		}
		for b := range counts {
			if b != a && counts[a] >= counts[b]+g.d.Rules.OfficeLead {
				return fmt.Errorf("law B: %s would own %d offices, %d more than %s", g.teamName(a), counts[a], counts[a]-counts[b], g.teamName(b))
			}
		}
	}
	return nil
}

// canHold checks laws C and F for player p taking card c into the hand
// (without the cards in `leaving`, which leave the hand in the same deal).
func (g *game) canHold(p, c int, leaving []int) error {
	card := g.card(c)
	switch card.Kind {
	case KindContract, KindVehicle:
		for _, h := range g.players[p].hand {
			if g.card(h.card).Name == card.Name && !containsCard(leaving, h.card) {
				return fmt.Errorf("law C: %s already holds a %s; no two contracts or vehicles of one kind in a hand", titleCase(g.players[p].power), card.Name)
			}
		}
	case KindDerelict:
		if g.players[p].derelicts > 0 {
			return fmt.Errorf("law F: %s has possessed a derelict already this game (one per game)", titleCase(g.players[p].power))
		}
	}
	return nil
}

func containsCard(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// addToHand puts c into p's hand (laws already checked).
func (g *game) addToHand(p, c int, stale bool) {
	pl := &g.players[p]
	pl.hand = append(pl.hand, handCard{card: c, stale: stale})
	if g.card(c).Kind == KindDerelict {
		pl.derelicts++
	}
}

// normalizeToken returns the token to its 3VP side when its edge no
// longer lies between two placed cards.
func normalizeToken(t *team) {
	if t.token == nil {
		return
	}
	e := *t.token
	x2, y2 := e.x+1, e.y
	if e.dir == South {
		x2, y2 = e.x, e.y+1
	}
	a, b := false, false
	for _, p := range t.placed {
		a = a || (p.x == e.x && p.y == e.y)
		b = b || (p.x == x2 && p.y == y2)
	}
	if !a || !b {
		t.token = nil
	}
}

// ---- resolving what the player wrote ----

func (g *game) refText(r cardRef) string {
	if r.card >= 0 {
		return g.card(r.card).Code
	}
	return r.text
}

// matches reports whether card c is what r names.
func (g *game) matches(r cardRef, c int) bool {
	if r.card >= 0 {
		return r.card == c
	}
	if r.main {
		for _, t := range g.teams {
			if t.main == c {
				return true
			}
		}
		return false
	}
	if r.name < 0 || r.name >= len(g.d.nameCards) {
		return false
	}
	return containsCard(g.d.nameCards[r.name], c)
}

// inHand resolves r among p's hand cards (the first that matches and that
// ok accepts, else the first that matches).
func (g *game) inHand(p int, r cardRef, ok func(int) bool) (int, error) {
	first := -1
	for _, h := range g.players[p].hand {
		if g.matches(r, h.card) {
			if ok == nil || ok(h.card) {
				return h.card, nil
			}
			if first < 0 {
				first = h.card
			}
		}
	}
	if first >= 0 {
		return first, nil
	}
	return -1, fmt.Errorf("%s is not in %s's hand", g.refText(r), titleCase(g.players[p].power))
}

// inPlaced resolves r among a team's placed cards; a name must be unique.
func (g *game) inPlaced(t *team, r cardRef) (int, error) {
	found := -1
	for _, pl := range t.placed {
		if g.matches(r, pl.card) {
			if found >= 0 {
				return -1, fmt.Errorf("two placed cards are called %s: write the code (%s or %s)", g.card(pl.card).Name, g.card(found).Code, g.card(pl.card).Code)
			}
			found = pl.card
		}
	}
	if found < 0 {
		return -1, fmt.Errorf("%s is not placed", g.refText(r))
	}
	return found, nil
}

// inArea resolves r among the cards of a purchase area.
func (g *game) inArea(area Area, r cardRef) (int, error) {
	var pool []int
	switch area {
	case AreaListing:
		for _, s := range g.listing {
			if s.card >= 0 {
				pool = append(pool, s.card)
			}
		}
	case AreaContracts:
		pool = g.contracts
	case AreaVehicles:
		pool = g.vehicles
	case AreaOffices:
		pool = g.offices
	case AreaStale:
		pool = g.stale
	}
	for _, c := range pool {
		if g.matches(r, c) {
			return c, nil
		}
	}
	return -1, fmt.Errorf("%s is not in the %s", g.refText(r), areaPlace(area))
}

func areaPlace(a Area) string {
	switch a {
	case AreaListing:
		return "listing"
	case AreaContracts:
		return "Contract deck"
	case AreaVehicles:
		return "Vehicle deck"
	case AreaOffices:
		return "Offices area"
	case AreaStale:
		return "Stale Sale pile"
	}
	return "?"
}

// areasOf lists the purchase areas where r is found.
func (g *game) areasOf(r cardRef) []Area {
	var out []Area
	for a := AreaListing; a <= AreaStale; a++ {
		if _, err := g.inArea(a, r); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// ---- Purchase ----

func (g *game) purchase(p int, o *Order) error {
	if g.players[p].blind >= 0 {
		return fmt.Errorf("a Blind Purchase is waiting to be paid for: until then every turn is Revenue")
	}
	if o.Area == AreaNone {
		areas := g.areasOf(o.Card)
		switch len(areas) {
		case 0:
			return fmt.Errorf("%s is for sale nowhere (listing, contracts, vehicles, offices, stale pile)", g.refText(o.Card))
		case 1:
			o.Area = areas[0]
		default:
			var names []string
			for _, a := range areas {
				names = append(names, "FROM "+a.String())
			}
			return fmt.Errorf("%s is in several areas: write %s", g.refText(o.Card), strings.Join(names, " or "))
		}
	}
	c, err := g.inArea(o.Area, o.Card)
	if err != nil {
		return err
	}
	o.Card = codeRef(c)
	if err := g.canHold(p, c, nil); err != nil {
		return err
	}
	if g.card(c).Kind.IsOffice() {
		if err := g.lawB(g.players[p].team, 1, -1, 0); err != nil {
			return err
		}
	}
	cost := g.price(p, c, o.Area)
	if g.players[p].money < cost {
		return fmt.Errorf("%s costs %s; you have %s", g.cname(c), money(cost), money(g.players[p].money))
	}
	g.players[p].money -= cost
	switch o.Area {
	case AreaListing:
		for i, s := range g.listing {
			if s.card == c {
				g.refill(i)
				break
			}
		}
	case AreaContracts:
		g.contracts = removeInt(g.contracts, c)
	case AreaVehicles:
		g.vehicles = removeInt(g.vehicles, c)
	case AreaOffices:
		g.offices = removeInt(g.offices, c)
	case AreaStale:
		g.stale = removeInt(g.stale, c)
	}
	g.addToHand(p, c, o.Area == AreaStale)
	g.say("%s buys %s from the %s for %s.", titleCase(g.players[p].power), g.cname(c), areaPlace(o.Area), money(cost))
	g.mark(p, c, markBought)
	return nil
}

// ---- Blind Purchase ----

func (g *game) blind(p int) error {
	pl := &g.players[p]
	if pl.blind >= 0 {
		return fmt.Errorf("a Blind Purchase is already waiting to be paid for")
	}
	if len(g.draw) == 0 {
		return fmt.Errorf("the Deck is empty")
	}
	who := titleCase(pl.power)
	if g.sim {
		g.say("%s buys the top card of the Deck blind (what it is and costs is seen when the turn is carried out; later purchases may then lack money).", who)
		return nil
	}
	c := g.draw[0]
	g.draw = g.draw[1:]
	cost := g.blindPrice(c)
	if err := g.blindLaws(p, c); err != nil {
		g.stale = append(g.stale, c)
		g.say("%s buys blind: %s, which %s may not own (%v); it goes to the Stale Sale pile, nothing is paid.", who, g.cname(c), who, err)
		return nil
	}
	if pl.money >= cost {
		pl.money -= cost
		g.addToHand(p, c, false)
		g.say("%s buys the top card of the Deck blind for %s.", who, money(cost))
		g.tell(p, "Your blind purchase: %s.", g.cname(c))
		return nil
	}
	pl.blind = c
	g.say("%s buys blind %s for %s but cannot pay: the card is set aside, and %s must take Revenue every turn until it is paid for.", who, g.cname(c), money(cost), who)
	return nil
}

func (g *game) blindLaws(p, c int) error {
	if err := g.canHold(p, c, nil); err != nil {
		return err
	}
	if g.card(c).Kind.IsOffice() {
		return g.lawB(g.players[p].team, 1, -1, 0)
	}
	return nil
}

// settleBlind pays for a card set aside by a Blind Purchase as soon as the
// player can afford it.
func (g *game) settleBlind(p int) {
	pl := &g.players[p]
	c := pl.blind
	if c < 0 {
		return
	}
	cost := g.blindPrice(c)
	if pl.money < cost {
		return
	}
	pl.blind = -1
	if err := g.blindLaws(p, c); err != nil {
		g.stale = append(g.stale, c)
		g.say("%s could now pay for %s but may not own it (%v): it goes to the Stale Sale pile.", titleCase(pl.power), g.cname(c), err)
		return
	}
	pl.money -= cost
	g.addToHand(p, c, false)
	g.say("%s pays %s for the blind purchase %s and takes it.", titleCase(pl.power), money(cost), g.cname(c))
	g.mark(p, c, markBought)
}

// ---- Buy-Sell-Trade ----

// tradeForm checks the four forms of the seed: one card for money, one for
// one, one for two, one for one plus money; there must be compensation.
func tradeForm(gc, hc, gm, hm int) error {
	switch {
	case gm < 0 || hm < 0:
		return fmt.Errorf("money cannot be negative")
	case gc == 1 && hc == 0 && gm == 0 && hm > 0, gc == 0 && hc == 1 && gm > 0 && hm == 0:
		return nil // (a) one card for money
	case gc == 1 && hc == 1 && (gm == 0 || hm == 0):
		return nil // (b) one for one, (d) one for one plus money
	case (gc == 1 && hc == 2 || gc == 2 && hc == 1) && gm == 0 && hm == 0:
		return nil // (c) one for two
	case gc+hc == 0:
		return fmt.Errorf("a trade moves at least one card")
	case gc == 0 || hc == 0:
		if gm+hm == 0 {
			return fmt.Errorf("there must be compensation: cards are never given away")
		}
	}
	return fmt.Errorf("a trade is one card for money, one for one, one for two, or one for one plus money")
}

// owns tells where card c of player p is: "hand", "placed" or "".
func (g *game) owns(p, c int) string {
	if g.handIndex(p, c) >= 0 {
		return "hand"
	}
	if placedIndex(g.teamOf(p), c) >= 0 {
		return "placed"
	}
	return ""
}

// leaveCheck says whether player p may let card c go (sell, swap, discard,
// close): the main office, the dealt starter and a property with a
// derelict attached never leave; the starter is never sold nor abandoned.
func (g *game) mayPart(p, c int, how string) error {
	card := g.card(c)
	t := g.teamOf(p)
	switch {
	case c == t.main:
		return fmt.Errorf("%s: the starting Main Office cannot be sold, swapped, discarded or closed", g.cname(c))
	case c == g.players[p].starter && how != "close":
		return fmt.Errorf("%s is %s's Starter business: it is never sold nor abandoned; place it or keep it", g.cname(c), titleCase(g.players[p].power))
	case hasThorn(t, c):
		return fmt.Errorf("%s has a derelict attached: it cannot be sold, closed nor abandoned", g.cname(c))
	case card.Kind == KindPlan:
		return fmt.Errorf("a business plan stays with its owner")
	}
	return nil
}

// resolveTrade resolves the cards of a trade order and checks it. It
// returns the offer.
func (g *game) resolveTrade(p int, o *Order) (*offer, error) {
	q := g.playerIndex(o.Power)
	if q < 0 || q == p {
		return nil, fmt.Errorf("trade with whom? %q is not another player", o.Power)
	}
	if err := tradeForm(len(o.Give), len(o.Get), o.GiveM, o.GetM); err != nil {
		return nil, err
	}
	of := &offer{from: p, to: q, giveMoney: o.GiveM, getMoney: o.GetM}
	resolve := func(who int, refs []cardRef) ([]int, error) {
		var out []int
		for k, r := range refs {
			c := -1
			if pc, err := g.inPlaced(g.teamOf(who), r); err == nil {
				c = pc
			} else if who != p && g.sim {
				// The partner's hand is not the actor's to see: the
				// card is looked for when the offer is made.
				if r.card < 0 && r.name < 0 {
					return nil, fmt.Errorf("name the card you want by its name or code")
				}
				of.hidden = append(of.hidden, r)
				continue
			} else if h, err := g.inHand(who, r, nil); err == nil {
				c = h
			} else if who != p {
				return nil, &noCardError{fmt.Sprintf("%s has no %s", titleCase(g.players[who].power), g.refText(r))}
			} else {
				return nil, fmt.Errorf("%s has no %s", titleCase(g.players[who].power), g.refText(r))
			}
			if containsCard(out, c) {
				return nil, fmt.Errorf("%s named twice", g.cname(c))
			}
			if err := g.mayPart(who, c, "sell"); err != nil {
				if who != p && placedIndex(g.teamOf(who), c) < 0 {
					return nil, &noCardError{err.Error()} // about a hidden card
				}
				return nil, err
			}
			refs[k] = codeRef(c)
			out = append(out, c)
		}
		return out, nil
	}
	var err error
	if of.give, err = resolve(p, o.Give); err != nil {
		return nil, err
	}
	if of.get, err = resolve(q, o.Get); err != nil {
		return nil, err
	}
	return of, g.checkTrade(of)
}

// noCardError: the trade fails for a reason hidden in the partner's hand
// (a card it lacks, its Starter, law C or F): only the partner is told
// why.
type noCardError struct{ msg string }

func (e *noCardError) Error() string { return e.msg }

// representative is a card standing for what r names (for the laws
// about kinds), or -1.
func (g *game) representative(r cardRef) int {
	switch {
	case r.card >= 0:
		return r.card
	case r.name >= 0 && r.name < len(g.d.nameCards):
		return g.d.nameCards[r.name][0]
	}
	return -1
}

// checkTrade checks an offer against the position (at the offer and again
// at the answer).
func (g *game) checkTrade(of *offer) error {
	p, q := of.from, of.to
	if g.players[p].blind >= 0 && of.giveMoney > 0 {
		return fmt.Errorf("a Blind Purchase is waiting to be paid for: %s may not spend money", titleCase(g.players[p].power))
	}
	if g.players[p].money < of.giveMoney {
		return fmt.Errorf("%s has only %s", titleCase(g.players[p].power), money(g.players[p].money))
	}
	if g.players[q].money < of.getMoney {
		return fmt.Errorf("%s has only %s", titleCase(g.players[q].power), money(g.players[q].money))
	}
	for _, c := range of.give {
		if g.owns(p, c) == "" {
			return fmt.Errorf("%s no longer has %s", titleCase(g.players[p].power), g.cname(c))
		}
	}
	for _, c := range of.get {
		if g.owns(q, c) == "" {
			return fmt.Errorf("%s no longer has %s", titleCase(g.players[q].power), g.cname(c))
		}
	}
	if g.opt.Coop {
		// Co-op: a card is never sold for less than its listed price.
		if len(of.give) == 1 && len(of.get) == 0 && of.getMoney < g.card(of.give[0]).Price {
			return fmt.Errorf("co-op: %s may not be sold for less than its price %s", g.cname(of.give[0]), money(g.card(of.give[0]).Price))
		}
		if len(of.get) == 1 && len(of.give) == 0 && of.giveMoney < g.card(of.get[0]).Price {
			return fmt.Errorf("co-op: %s may not be sold for less than its price %s", g.cname(of.get[0]), money(g.card(of.get[0]).Price))
		}
	}
	// Laws C and F for what each receives (a trial run does not look
	// into the partner's hand).
	if !g.sim {
		for _, c := range of.give {
			if err := g.canHold(q, c, of.get); err != nil {
				return &noCardError{err.Error()} // about the partner's hidden hand
			}
		}
	}
	for _, c := range of.get {
		if err := g.canHold(p, c, of.give); err != nil {
			return err
		}
	}
	for _, r := range of.hidden {
		if c := g.representative(r); c >= 0 {
			if err := g.canHold(p, c, of.give); err != nil {
				return err
			}
		}
	}
	for i, a := range of.give {
		for _, b := range of.give[i+1:] {
			if g.card(a).Kind == g.card(b).Kind && (g.card(a).Kind == KindContract || g.card(a).Kind == KindVehicle) && g.card(a).Name == g.card(b).Name {
				return fmt.Errorf("law C: two %s in one hand", g.card(a).Name)
			}
		}
	}
	// Law B: offices change hands.
	offices := func(cs []int) int {
		n := 0
		for _, c := range cs {
			if g.card(c).Kind.IsOffice() {
				n++
			}
		}
		return n
	}
	tp, tq := g.players[p].team, g.players[q].team
	if tp != tq && !g.sim {
		dp := offices(of.get) - offices(of.give)
		if err := g.lawB(tp, dp, tq, -dp); err != nil {
			return err
		}
	}
	// Placed cards that leave must not ruin a block.
	for _, side := range []struct {
		who   int
		cards []int
	}{{p, of.give}, {q, of.get}} {
		t := g.teamOf(side.who)
		var gone []int
		for _, c := range side.cards {
			if placedIndex(t, c) >= 0 {
				gone = append(gone, c)
			}
		}
		if len(gone) > 0 {
			trial := *t
			trial.placed = nil
			for _, pl := range t.placed {
				if !containsCard(gone, pl.card) {
					trial.placed = append(trial.placed, pl)
				}
			}
			normalizeToken(&trial)
			if prob := analyze(g.d, &trial, g.opt.Laissez).problem(); prob != "" {
				return fmt.Errorf("taking %s out of %s's placed cards would ruin a block: %s", g.cname(gone[0]), titleCase(g.players[side.who].power), prob)
			}
		}
	}
	return nil
}

// doTrade carries out a checked offer.
func (g *game) doTrade(of *offer) {
	p, q := of.from, of.to
	move := func(from, to int, c int) {
		t := g.teamOf(from)
		if i := placedIndex(t, c); i >= 0 {
			t.placed = append(t.placed[:i], t.placed[i+1:]...)
			normalizeToken(t)
		} else {
			g.takeFromHand(from, c)
		}
		g.players[to].hand = append(g.players[to].hand, handCard{card: c})
		if g.card(c).Kind == KindDerelict {
			g.players[to].derelicts++
		}
	}
	for _, c := range of.give {
		move(p, q, c)
	}
	for _, c := range of.get {
		move(q, p, c)
	}
	g.players[p].money -= of.giveMoney
	g.players[q].money -= of.getMoney
	g.gain(q, of.giveMoney)
	g.gain(p, of.getMoney)
}

func (g *game) describeOffer(of *offer) string {
	items := func(cs []int, m int) string {
		var xs []string
		for _, c := range cs {
			xs = append(xs, g.cname(c))
		}
		if m > 0 {
			xs = append(xs, money(m))
		}
		return joinAnd(xs)
	}
	get := items(of.get, of.getMoney)
	for _, r := range of.hidden {
		get = joinAnd([]string{get, g.refText(r)})
	}
	return fmt.Sprintf("%s gives %s to %s for %s", titleCase(g.players[of.from].power), items(of.give, of.giveMoney),
		titleCase(g.players[of.to].power), strings.TrimPrefix(get, " and "))
}

// ---- Swap ----

func (g *game) swap(p int, o *Order) error {
	pl := &g.players[p]
	h, err := g.inHand(p, o.Card, func(c int) bool {
		for _, hc := range pl.hand {
			if hc.card == c {
				return !hc.stale
			}
		}
		return false
	})
	if err != nil {
		return err
	}
	l, err := g.inArea(AreaListing, o.Give[0])
	if err != nil {
		return err
	}
	o.Card, o.Give[0] = codeRef(h), codeRef(l)
	hc := pl.hand[g.handIndex(p, h)]
	card := g.card(h)
	switch {
	case hc.stale:
		return fmt.Errorf("%s was bought from the Stale Sale pile: it may not be swapped", g.cname(h))
	case card.Kind == KindContract || card.Kind == KindVehicle:
		return fmt.Errorf("contracts and vehicles belong to their own decks: they are not swapped for listed cards")
	}
	if err := g.mayPart(p, h, "swap"); err != nil {
		return err
	}
	// Special offices may be swapped for any listed property (seed,
	// Offices); otherwise the listed card must cost less.
	if card.Kind != KindSpecialOffice && g.card(l).Price >= card.Price {
		return fmt.Errorf("%s (%s) is not cheaper than %s (%s): a Swap takes a listed card of lesser price", g.cname(l), money(g.card(l).Price), g.cname(h), money(card.Price))
	}
	if err := g.canHold(p, l, nil); err != nil {
		return err
	}
	delta := 0
	if g.card(l).Kind.IsOffice() {
		delta++
	}
	if card.Kind.IsOffice() {
		delta--
	}
	if err := g.lawB(pl.team, delta, -1, 0); err != nil {
		return err
	}
	g.takeFromHand(p, h)
	for i, s := range g.listing {
		if s.card == l {
			g.listing[i] = slot{card: h}
		}
	}
	g.addToHand(p, l, false)
	g.say("%s swaps %s from the hand for the listed %s.", titleCase(pl.power), g.cname(h), g.cname(l))
	g.mark(p, l, markSwapped)
	g.mark(p, h, markSwapped)
	return nil
}

// ---- Revenue ----

func (g *game) revenue(p int, o *Order) error {
	t := g.teamOf(p)
	a := analyze(g.d, t, g.opt.Laissez)
	from := -1
	if o != nil && o.From != nil {
		c, err := g.inPlaced(t, *o.From)
		if err != nil {
			return err
		}
		if !g.card(c).Kind.IsOffice() {
			return fmt.Errorf("a Revenue Route starts at an office; %s is not one", g.cname(c))
		}
		o.From = &cardRef{card: c, name: -1}
		from = placedIndex(t, c)
	}
	r := a.bestRoute(from)
	kept := g.gain(p, r.value)
	var names []string
	for _, i := range r.path {
		names = append(names, g.card(t.placed[i].card).Code)
		g.mark(p, t.placed[i].card, markRevenue)
	}
	msg := fmt.Sprintf("%s collects revenue: %s along %s", titleCase(g.players[p].power), money(r.value), strings.Join(names, " → "))
	if kept < r.value {
		msg += fmt.Sprintf(" (keeps %s: law A caps money at %s)", money(kept), money(g.d.Rules.MoneyCap))
	}
	g.say("%s.", msg)
	g.settleBlind(p)
	return nil
}

// ---- Discard (free) ----

func (g *game) discard(p int, os []*Order) error {
	t := g.teamOf(p)
	fromTableau := false
	var names []string
	for _, o := range os {
		c, err := g.inHand(p, o.Card, func(c int) bool { return c != g.players[p].starter })
		where := "hand"
		if err != nil {
			c, err = g.inPlaced(t, o.Card)
			where = "placed"
			if err != nil {
				return fmt.Errorf("%s is neither in your hand nor placed", g.refText(o.Card))
			}
		}
		o.Card = codeRef(c)
		if err := g.mayPart(p, c, "discard"); err != nil {
			return err
		}
		if where == "hand" {
			g.takeFromHand(p, c)
		} else {
			i := placedIndex(t, c)
			t.placed = append(t.placed[:i], t.placed[i+1:]...)
			fromTableau = true
		}
		g.abandon(c)
		g.mark(p, c, markDiscarded)
		names = append(names, fmt.Sprintf("%s (%s)", g.cname(c), where))
	}
	if fromTableau {
		normalizeToken(t)
		if prob := analyze(g.d, t, g.opt.Laissez).problem(); prob != "" {
			return fmt.Errorf("abandoning that would ruin a block: %s", prob)
		}
	}
	g.say("%s abandons %s.", titleCase(g.players[p].power), joinAnd(names))
	return nil
}

// ---- Close ----

func (g *game) closeCards(p int, os []*Order) error {
	t := g.teamOf(p)
	var taken []int
	for _, o := range os {
		c, err := g.inPlaced(t, o.Card)
		if err != nil {
			return err
		}
		o.Card = codeRef(c)
		if err := g.mayPart(p, c, "close"); err != nil {
			return err
		}
		if err := g.canHold(p, c, nil); err != nil {
			return err
		}
		i := placedIndex(t, c)
		stale := t.placed[i].stale
		t.placed = append(t.placed[:i], t.placed[i+1:]...)
		g.players[p].hand = append(g.players[p].hand, handCard{card: c, stale: stale})
		taken = append(taken, c)
	}
	normalizeToken(t)
	if prob := analyze(g.d, t, g.opt.Laissez).problem(); prob != "" {
		return fmt.Errorf("closing would ruin a block: %s", prob)
	}
	var names []string
	for _, c := range taken {
		names = append(names, g.cname(c))
		g.mark(p, c, markClosed)
	}
	g.say("%s closes %s (back into the hand).", titleCase(g.players[p].power), joinAnd(names))
	return nil
}

// ---- Spin (free) ----

// turnThorns moves the derelicts attached to a card with it: they keep
// their place relative to it.
func turnThorns(t *team, c int, from, to placed) {
	turns := (to.rot - from.rot) & 3
	for i := range t.thorns {
		th := &t.thorns[i]
		if th.target != c {
			continue
		}
		dx, dy := th.x-from.x, th.y-from.y
		for k := 0; k < turns; k++ {
			dx, dy = -dy, dx
		}
		th.x, th.y = to.x+dx, to.y+dy
		th.rot = (th.rot + turns) & 3
	}
}

func (g *game) spin(p int, o *Order) error {
	t := g.teamOf(p)
	c, err := g.inPlaced(t, o.Card)
	if err != nil {
		return err
	}
	o.Card = codeRef(c)
	i := placedIndex(t, c)
	before := t.placed[i]
	t.placed[i].rot = (t.placed[i].rot + o.N) & 3
	turnThorns(t, c, before, t.placed[i])
	normalizeToken(t)
	if prob := analyze(g.d, t, g.opt.Laissez).problem(); prob != "" {
		return fmt.Errorf("spinning %s breaks the tableau: %s", g.cname(c), prob)
	}
	g.say("%s spins %s.", titleCase(g.players[p].power), g.cname(c))
	g.mark(p, c, markSpun)
	return nil
}

// ---- hand limit ----

// enforceHandLimit discards the cheapest cards (latest first on equal
// price) beyond the hand limit at the end of a player's turn.
func (g *game) enforceHandLimit(p int) {
	pl := &g.players[p]
	limit := g.handLimit(p)
	for len(pl.hand) > limit {
		best := -1
		for i, h := range pl.hand {
			if h.card == pl.starter {
				continue
			}
			if best < 0 || g.card(h.card).Price <= g.card(pl.hand[best].card).Price {
				best = i
			}
		}
		if best < 0 {
			return
		}
		c := pl.hand[best].card
		pl.hand = append(pl.hand[:best], pl.hand[best+1:]...)
		g.abandon(c)
		g.say("%s is over the hand limit of %d: %s is discarded.", titleCase(pl.power), limit, g.cname(c))
		g.mark(p, c, markDiscarded)
	}
}
