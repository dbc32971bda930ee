package supplychain

import (
	"fmt"
	"sort"
	"strings"
)

// describe is one line about a card: what it is, does and costs.
func (g *game) describe(c int) string {
	card := g.card(c)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s — %s", card.Code, card.Name, card.Role())
	if card.Street >= 0 {
		fmt.Fprintf(&b, ", %s", g.d.Streets[card.Street].Name)
	}
	if card.Makes != 0 {
		fmt.Fprintf(&b, ", makes %s", joinAnd(g.d.goodNames(card.Makes)))
	}
	if card.Needs != 0 {
		fmt.Fprintf(&b, ", needs %s", joinAnd(g.d.goodNames(card.Needs)))
	}
	if card.Revenue > 0 {
		fmt.Fprintf(&b, ", earns %s", money(card.Revenue))
	}
	if card.Kind == KindPlan {
		fmt.Fprintf(&b, ": +%d VP per property on %s and on %s", g.d.Rules.PlanVP, g.d.Streets[card.Plan[0]].Name, g.d.Streets[card.Plan[1]].Name)
		return b.String()
	}
	switch e := card.Effect; e.Kind {
	case EffectHandLimit:
		fmt.Fprintf(&b, ", hand limit +%d while placed", e.Amount)
	case EffectRouteBonus:
		fmt.Fprintf(&b, ", +%s per business on a route starting here", money(e.Amount))
	case EffectStreetVP:
		fmt.Fprintf(&b, ", +%d VP per placed property on %s", e.Amount, g.d.Streets[e.Street].Name)
	case EffectDiscount:
		fmt.Fprintf(&b, ", purchases from the %s cost %s less while placed", areaPlace(e.Area), money(e.Amount))
	}
	fmt.Fprintf(&b, ", %s, %d VP, links %s", money(card.Price), card.VP, linkLetters(card.Links))
	return b.String()
}

// count writes "1 card", "2 cards".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func linkLetters(l uint8) string {
	var s []string
	for k := 0; k < 4; k++ {
		if l&dirBits[k] != 0 {
			s = append(s, dirName(dirBits[k]))
		}
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, " ")
}

// grid draws a tableau: each card a box with its code, a chain link "o"
// on a linked edge, the link/3VP token "*", an attached derelict "!".
func (g *game) grid(t *team) string {
	if len(t.placed) == 0 && len(t.thorns) == 0 {
		return "    (nothing placed)\n"
	}
	type cell struct {
		code  string
		links uint8
		thorn bool
	}
	cells := map[[2]int]cell{}
	minX, maxX, minY, maxY := 1<<30, -1<<30, 1<<30, -1<<30
	add := func(x, y int, c cell) {
		cells[[2]int{x, y}] = c
		minX, maxX, minY, maxY = min(minX, x), max(maxX, x), min(minY, y), max(maxY, y)
	}
	for _, p := range t.placed {
		add(p.x, p.y, cell{code: g.card(p.card).Code, links: rotLinks(g.card(p.card).Links, p.rot)})
	}
	for _, th := range t.thorns {
		add(th.x, th.y, cell{code: "!" + g.card(th.card).Code, links: rotLinks(g.card(th.card).Links, th.rot), thorn: true})
	}
	token := func(x, y, k int) bool {
		return t.token != nil && *t.token == edgeOf(x, y, k)
	}
	mark := func(c cell, x, y, k int, plain string) string {
		switch {
		case token(x, y, k):
			return "*"
		case c.links&dirBits[k] != 0:
			return "o"
		}
		return plain
	}
	var b strings.Builder
	b.WriteString("     ")
	for x := minX; x <= maxX; x++ {
		fmt.Fprintf(&b, "%-10s", center(fmt.Sprint(x), 9))
	}
	b.WriteString("\n")
	for y := minY; y <= maxY; y++ {
		rows := [3]strings.Builder{}
		for x := minX; x <= maxX; x++ {
			c, ok := cells[[2]int{x, y}]
			if !ok {
				for r := range rows {
					rows[r].WriteString("          ")
				}
				continue
			}
			rows[0].WriteString("+---" + mark(c, x, y, 0, "-") + "---+ ")
			rows[1].WriteString(mark(c, x, y, 3, "|") + center(c.code, 7) + mark(c, x, y, 1, "|") + " ")
			rows[2].WriteString("+---" + mark(c, x, y, 2, "-") + "---+ ")
		}
		fmt.Fprintf(&b, "     %s\n", strings.TrimRight(rows[0].String(), " "))
		fmt.Fprintf(&b, "%4d %s\n", y, strings.TrimRight(rows[1].String(), " "))
		fmt.Fprintf(&b, "     %s\n", strings.TrimRight(rows[2].String(), " "))
	}
	return b.String()
}

func center(s string, w int) string {
	if len(s) >= w {
		return s[:w]
	}
	left := (w - len(s)) / 2
	return strings.Repeat(" ", left) + s + strings.Repeat(" ", w-len(s)-left)
}

// tableauText is a team's tableau: grid, cards, VP, token.
func (g *game) tableauText(ti int) string {
	t := &g.teams[ti]
	var b strings.Builder
	b.WriteString(g.grid(t))
	for _, p := range t.placed {
		fmt.Fprintf(&b, "  %d,%d turn %d: %s\n", p.x, p.y, p.rot, g.describe(p.card))
	}
	for _, th := range t.thorns {
		fmt.Fprintf(&b, "  %d,%d: derelict %s attached to %s by %s (%d VP)\n", th.x, th.y, g.cname(th.card), g.card(th.target).Code, titleCase(th.from), g.card(th.card).VP)
	}
	if t.token == nil {
		fmt.Fprintf(&b, "  link/3VP token: 3VP side up on the main office\n")
	} else {
		fmt.Fprintf(&b, "  link/3VP token: used as a link on the edge %d,%d %s\n", t.token.x, t.token.y, dirName(t.token.dir))
	}
	if g.phase != phaseSolo {
		r := analyze(g.d, t, g.opt.Laissez).bestRoute(-1)
		fmt.Fprintf(&b, "  best revenue route: %s\n", money(r.value))
	}
	return b.String()
}

// publicText is the position as everyone sees it.
func (g *game) publicText() string {
	var b strings.Builder
	if g.opt.Solo {
		return g.soloText(-1)
	}
	fmt.Fprintf(&b, "Listed cards (age in taps; at %d taps a card goes to the Stale Sale pile):\n", g.d.Rules.ListingRounds)
	for i, s := range g.listing {
		if s.card < 0 {
			fmt.Fprintf(&b, "  %d. (empty)\n", i+1)
			continue
		}
		fmt.Fprintf(&b, "  %d. [age %d] %s\n", i+1, s.age, g.describe(s.card))
	}
	fmt.Fprintf(&b, "Deck: %d cards. Stale Sale pile (half price):", len(g.draw))
	if len(g.stale) == 0 {
		b.WriteString(" empty\n")
	} else {
		b.WriteString("\n")
		for _, c := range g.stale {
			fmt.Fprintf(&b, "  %s — %s\n", g.describe(c), money(g.d.ceilStep((g.card(c).Price+1)/2)))
		}
	}
	fmt.Fprintf(&b, "Contracts for sale: %s\n", g.stock(g.contracts))
	fmt.Fprintf(&b, "Vehicles for sale: %s\n", g.stock(g.vehicles))
	fmt.Fprintf(&b, "Offices for sale: %s\n", g.stock(g.offices))
	for ti := range g.teams {
		t := &g.teams[ti]
		fmt.Fprintf(&b, "\n== %s: %d VP", g.teamName(ti), g.vp(ti, g.phase == phaseOver))
		for _, s := range t.seats {
			p := &g.players[s]
			fmt.Fprintf(&b, "; %s %s, %s in hand", titleCase(p.power), money(p.money), count(len(p.hand), "card"))
			if p.blind >= 0 {
				fmt.Fprintf(&b, ", blind purchase %s set aside", g.cname(p.blind))
			}
		}
		b.WriteString("\n")
		if g.phase == phaseOver && t.plan >= 0 {
			fmt.Fprintf(&b, "  business plan: %s\n", g.describe(t.plan))
		}
		b.WriteString(g.tableauText(ti))
	}
	return b.String()
}

// stock lists what an area offers, grouped by name.
func (g *game) stock(cards []int) string {
	if len(cards) == 0 {
		return "none"
	}
	type entry struct {
		codes []string
		price int
	}
	byName := map[string]*entry{}
	var names []string
	for _, c := range cards {
		card := g.card(c)
		e, ok := byName[card.Name]
		if !ok {
			e = &entry{price: card.Price}
			byName[card.Name] = e
			names = append(names, card.Name)
		}
		e.codes = append(e.codes, card.Code)
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		e := byName[n]
		out = append(out, fmt.Sprintf("%s %s (%s)", n, money(e.price), strings.Join(e.codes, " ")))
	}
	return strings.Join(out, "; ")
}

// privateText is what only player p sees: the hand, the plan, the turn.
func (g *game) privateText(p int) string {
	pl := &g.players[p]
	t := g.teamOf(p)
	var b strings.Builder
	if g.opt.Solo {
		return g.soloText(p)
	}
	fmt.Fprintf(&b, "Your money: %s. Your hand (%s, limit %d):\n", money(pl.money), count(len(pl.hand), "card"), g.handLimit(p))
	if len(pl.hand) == 0 {
		b.WriteString("  (empty)\n")
	}
	for _, h := range pl.hand {
		note := ""
		if h.card == pl.starter {
			note = " [your Starter: never sold nor abandoned]"
		}
		if h.stale {
			note += " [bought stale: may not be swapped]"
		}
		fmt.Fprintf(&b, "  %s%s\n", g.describe(h.card), note)
	}
	if t.plan >= 0 {
		fmt.Fprintf(&b, "Your business plan (secret until the end): %s\n", g.describe(t.plan))
	}
	if pl.derelicts > 0 {
		b.WriteString("You have had your one derelict of the game (law F).\n")
	}
	switch {
	case g.phase == phaseTurn && g.seat == p:
		b.WriteString("\n" + g.turnHelp(p))
	case g.phase == phaseOffer && g.offer.to == p:
		fmt.Fprintf(&b, "\n%s offers: %s.\nReply ACCEPT or DECLINE (no answer by the deadline declines).\n", titleCase(g.players[g.offer.from].power), g.describeOffer(g.offer))
	}
	return b.String()
}

// turnHelp tells the active player what they can do now.
func (g *game) turnHelp(p int) string {
	pl := &g.players[p]
	var b strings.Builder
	fmt.Fprintf(&b, "It is your turn (round %d). Take up to two different actions:\n", g.round)
	if pl.blind >= 0 {
		fmt.Fprintf(&b, "  (your Blind Purchase %s waits to be paid: %s; this turn you must collect revenue, and you may not buy)\n", g.cname(pl.blind), money(g.blindPrice(pl.blind)))
	}
	r := analyze(g.d, g.teamOf(p), g.opt.Laissez).bestRoute(-1)
	lines := []string{
		fmt.Sprintf("REVENUE                         collect your best route now: %s", money(r.value)),
		"BUY <card> FROM LISTING|CONTRACTS|VEHICLES|OFFICES|STALE",
		fmt.Sprintf("BLIND                           the top card of the Deck, %s off", money(g.d.Rules.BlindDiscount)),
		"PLACE <card> AT x,y [TURN n]    (several PLACE lines are one Place action: a block)",
		"MOVE <card> TO x,y [TURN n] / REMOVE <card>   (Reorganize; with PLACE: the dual action)",
		"CLOSE <card>                    a placed card back into your hand",
		"SWAP <hand card> FOR <listed card>",
		"SELL <card> TO <player> FOR $n / BUY <card> FROM <player> FOR $n / TRADE <card> FOR <card> WITH <player>",
		"TOKEN AT x,y E|S|N|W / TOKEN OFF   the link/3VP token (with PLACE, or alone as a Reorganize)",
		"free: DISCARD <card>, SPIN <card> [n], PASS; questions: HAND, ASK <player> OFFICES|CONTRACTS|VEHICLES",
	}
	for _, l := range lines {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	if pl.blind < 0 {
		var can []string
		for _, s := range g.listing {
			if s.card >= 0 && g.price(p, s.card, AreaListing) <= pl.money && g.canHold(p, s.card, nil) == nil {
				can = append(can, fmt.Sprintf("%s %s", g.card(s.card).Code, money(g.price(p, s.card, AreaListing))))
			}
		}
		for _, c := range g.stale {
			if g.price(p, c, AreaStale) <= pl.money && g.canHold(p, c, nil) == nil {
				can = append(can, fmt.Sprintf("%s %s (stale)", g.card(c).Code, money(g.price(p, c, AreaStale))))
			}
		}
		if len(can) > 0 {
			fmt.Fprintf(&b, "Listed and stale cards you can afford: %s.\n", strings.Join(can, ", "))
		}
	}
	def := "Revenue"
	if g.opt.Default == "pass" {
		def = "no action"
	}
	fmt.Fprintf(&b, "With no orders by the deadline your turn is %s.\n", def)
	return b.String()
}

// soloText is the solitaire position: every player's tableau, and the
// hand and plan of viewer (-1: nobody's, until the end).
func (g *game) soloText(viewer int) string {
	var b strings.Builder
	for p := range g.players {
		pl := &g.players[p]
		ti := pl.team
		t := &g.teams[ti]
		if len(g.players) > 1 {
			state := "playing"
			if pl.done {
				state = "finished"
			}
			fmt.Fprintf(&b, "== %s (%s): ", titleCase(pl.power), state)
		}
		fmt.Fprintf(&b, "Solo game: %d VP so far (business plan counted at the end), %s placed.\n", g.vp(ti, g.phase == phaseOver), count(g.contractsPlaced(ti), "contract"))
		b.WriteString(g.tableauText(ti))
		if p == viewer || g.phase == phaseOver {
			fmt.Fprintf(&b, "Cards left to place (%d):\n", len(pl.hand))
			for _, h := range pl.hand {
				fmt.Fprintf(&b, "  %s\n", g.describe(h.card))
			}
			if t.plan >= 0 {
				fmt.Fprintf(&b, "Business plan: %s\n", g.describe(t.plan))
			}
		} else if len(g.players) > 1 {
			fmt.Fprintf(&b, "Cards left to place: %d.\n", len(pl.hand))
		}
		if len(g.players) > 1 && p < len(g.players)-1 {
			b.WriteString("\n")
		}
	}
	if viewer >= 0 && g.phase == phaseSolo && !g.players[viewer].done {
		b.WriteString("\nOrders: PLACE <card> AT x,y [TURN n], MOVE <card> TO x,y, CLOSE <card>, SPIN <card>, TOKEN AT x,y E, PICK <contract or vehicle>, RETURN <card>, FINISH.\n")
	}
	return b.String()
}

func (g *game) contractsPlaced(ti int) int {
	n := 0
	for _, p := range g.teams[ti].placed {
		if g.card(p.card).Kind == KindContract {
			n++
		}
	}
	return n
}

// ---- the results mail: what changed, what to do ----

// changesText is the public part of a results mail after the phase that
// turned before into g: only what changed — the listing, the Stale Sale
// pile, the tableaux — and one standing line per team. The whole board is
// Status.Summary (STATUS).
func (g *game) changesText(before *game) string {
	var b strings.Builder
	if !sameSlots(before.listing, g.listing) {
		b.WriteString("Listed now:" + g.listingCompact() + "\n")
	}
	if !sameInts(before.stale, g.stale) {
		fmt.Fprintf(&b, "Stale Sale pile (half price): %s\n", g.staleCompact())
	}
	for ti := range g.teams {
		if sameTableau(&before.teams[ti], &g.teams[ti]) {
			continue
		}
		fmt.Fprintf(&b, "%s's tableau now:\n", g.teamName(ti))
		t := &g.teams[ti]
		b.WriteString(g.grid(t))
		had := map[int]bool{}
		for _, p := range before.teams[ti].placed {
			had[p.card] = true
		}
		for _, p := range t.placed {
			if !had[p.card] {
				fmt.Fprintf(&b, "  new at %d,%d turn %d: %s\n", p.x, p.y, p.rot, g.describe(p.card))
			}
		}
		for _, th := range t.thorns {
			if !containsThorn(before.teams[ti].thorns, th) {
				fmt.Fprintf(&b, "  derelict %s attached to %s by %s (%d VP)\n", g.cname(th.card), g.card(th.target).Code, titleCase(th.from), g.card(th.card).VP)
			}
		}
	}
	b.WriteString(g.standingText())
	b.WriteString("The whole board (every tableau, the piles, every card described): send STATUS.\n")
	return b.String()
}

// standingText is one line per team: VP, money and hand sizes, cards
// placed, the best revenue route.
func (g *game) standingText() string {
	var b strings.Builder
	b.WriteString("Standing:")
	for ti, t := range g.teams {
		fmt.Fprintf(&b, "\n  %s: %d VP, %s placed, best route %s", g.teamName(ti), g.vp(ti, g.phase == phaseOver), count(len(t.placed), "card"), money(analyze(g.d, &g.teams[ti], g.opt.Laissez).bestRoute(-1).value))
		for _, s := range t.seats {
			p := &g.players[s]
			if len(t.seats) > 1 {
				fmt.Fprintf(&b, "; %s", titleCase(p.power))
			}
			fmt.Fprintf(&b, "; %s, %s in hand", money(p.money), count(len(p.hand), "card"))
			if p.blind >= 0 {
				b.WriteString(", a blind purchase set aside")
			}
		}
	}
	fmt.Fprintf(&b, "\n  Deck %d cards, Stale Sale pile %d.\n", len(g.draw), len(g.stale))
	return b.String()
}

// listingCompact lists the listed cards on one line each: code, name,
// price, taps.
func (g *game) listingCompact() string {
	var parts []string
	for i, s := range g.listing {
		if s.card < 0 {
			parts = append(parts, fmt.Sprintf("%d. (empty)", i+1))
			continue
		}
		c := g.card(s.card)
		parts = append(parts, fmt.Sprintf("%d. %s %s %s (age %d)", i+1, c.Code, c.Name, money(c.Price), s.age))
	}
	return "\n  " + strings.Join(parts, "\n  ")
}

func (g *game) staleCompact() string {
	if len(g.stale) == 0 {
		return "empty"
	}
	var parts []string
	for _, c := range g.stale {
		parts = append(parts, fmt.Sprintf("%s %s", g.card(c).Code, money(g.d.ceilStep((g.card(c).Price+1)/2))))
	}
	return strings.Join(parts, ", ")
}

// handCompact is player p's money and hand on one line.
func (g *game) handCompact(p int) string {
	pl := &g.players[p]
	var names []string
	for _, h := range pl.hand {
		names = append(names, fmt.Sprintf("%s %s", g.card(h.card).Code, g.card(h.card).Name))
	}
	hand := "empty"
	if len(names) > 0 {
		hand = strings.Join(names, ", ")
	}
	return fmt.Sprintf("Your money: %s. Your hand: %s. (HAND or STATUS describes every card.)\n", money(pl.money), hand)
}

// actor is the player who must act in the open phase (-1: nobody).
func (g *game) actor() int {
	switch g.phase {
	case phaseTurn:
		return g.seat
	case phaseOffer:
		return g.offer.to
	}
	return -1
}

func sameSlots(a, b []slot) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sameTableau(a, b *team) bool {
	if len(a.placed) != len(b.placed) || len(a.thorns) != len(b.thorns) || (a.token == nil) != (b.token == nil) {
		return false
	}
	if a.token != nil && *a.token != *b.token {
		return false
	}
	for i := range a.placed {
		if a.placed[i] != b.placed[i] {
			return false
		}
	}
	for i := range a.thorns {
		if a.thorns[i] != b.thorns[i] {
			return false
		}
	}
	return true
}

func containsThorn(ts []thorn, t thorn) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}
