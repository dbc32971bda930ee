package supplychain

import (
	"fmt"
	"math/bits"
)

// This file is the placement rule of the seed ("Card placement"): cards lie
// on a grid; two neighbours link when both facing edges carry a chain link
// (or the link/3VP token lies on that edge); a link counts only when it is
// relevant — it touches an office, or both cards belong to one block. A
// block is a card with requirements and the cards that supply it, directly
// or through other suppliers (blocks within blocks), linked together.

// bitset is a set of tableau positions (at most 256 cards, more than a
// deck holds).
type bitset [4]uint64

func (b *bitset) add(i int)      { b[i>>6] |= 1 << (uint(i) & 63) }
func (b *bitset) has(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }

const maxPlaced = 256

// dirs in bit order: N, E, S, W.
var dirBits = [4]uint8{North, East, South, West}
var dirDX = [4]int{0, 1, 0, -1}
var dirDY = [4]int{-1, 0, 1, 0}

func opposite(k int) int { return (k + 2) & 3 }

// rotLinks turns a link mask rot quarter turns clockwise.
func rotLinks(l uint8, rot int) uint8 {
	rot &= 3
	return ((l << uint(rot)) | (l >> uint(4-rot))) & 15
}

// dirIndex returns the direction index from (x1,y1) to an adjacent (x2,y2),
// or -1.
func dirIndex(x1, y1, x2, y2 int) int {
	for k := 0; k < 4; k++ {
		if x1+dirDX[k] == x2 && y1+dirDY[k] == y2 {
			return k
		}
	}
	return -1
}

// edgeOf normalises the edge leaving (x,y) in direction k to an east or
// south edge.
func edgeOf(x, y, k int) edgeRef {
	switch k {
	case 0:
		return edgeRef{x: x, y: y - 1, dir: South}
	case 1:
		return edgeRef{x: x, y: y, dir: East}
	case 2:
		return edgeRef{x: x, y: y, dir: South}
	}
	return edgeRef{x: x - 1, y: y, dir: East}
}

// tab is the analysis of one tableau.
type tab struct {
	d        *Deck
	laissez  bool
	t        *team
	cards    []*Card
	links    []uint8  // rotated link masks
	nb       [][4]int // neighbour position per direction, -1 for none
	phys     [][4]bool
	rel      [][4]bool
	block    []bitset // cards with requirements: their block (themselves included)
	hasBlock []bool
	supplied []bool
	inBlock  []bool // supplies a member of some block
	main     int    // position of the main office, -1 if none
	overlap  string
	biz      []int // money a business earns on a route (revenue + street bonus)
}

func (a *tab) office(i int) bool { return a.cards[i].Kind.IsOffice() }

// analyze studies the placed cards of t.
func analyze(d *Deck, t *team, laissez bool) *tab {
	n := len(t.placed)
	a := &tab{d: d, laissez: laissez, t: t, main: -1,
		cards: make([]*Card, n), links: make([]uint8, n), nb: make([][4]int, n),
		phys: make([][4]bool, n), rel: make([][4]bool, n), block: make([]bitset, n),
		hasBlock: make([]bool, n), supplied: make([]bool, n), inBlock: make([]bool, n), biz: make([]int, n)}
	for i, p := range t.placed {
		c := &d.Cards[p.card]
		a.cards[i] = c
		a.links[i] = rotLinks(c.Links, p.rot)
		a.nb[i] = [4]int{-1, -1, -1, -1}
		if p.card == t.main {
			a.main = i
		}
	}
	if n > maxPlaced {
		a.overlap = fmt.Sprintf("at most %d cards fit in a tableau", maxPlaced)
		return a
	}
	for i := 0; i < n; i++ {
		pi := t.placed[i]
		for j := i + 1; j < n; j++ {
			pj := t.placed[j]
			if pi.x == pj.x && pi.y == pj.y {
				if a.overlap == "" {
					a.overlap = fmt.Sprintf("%s and %s both lie at %d,%d", a.name(i), a.name(j), pi.x, pi.y)
				}
				continue
			}
			k := dirIndex(pi.x, pi.y, pj.x, pj.y)
			if k < 0 {
				continue
			}
			o := opposite(k)
			a.nb[i][k], a.nb[j][o] = j, i
			link := a.links[i]&dirBits[k] != 0 && a.links[j]&dirBits[o] != 0
			if !link && t.token != nil && *t.token == edgeOf(pi.x, pi.y, k) {
				link = true
			}
			a.phys[i][k], a.phys[j][o] = link, link
		}
	}
	if laissez {
		a.laissezSupply()
	} else {
		a.blocks()
	}
	for i := 0; i < n; i++ {
		for k := 0; k < 4; k++ {
			j := a.nb[i][k]
			if j >= 0 && a.phys[i][k] && (laissez || a.office(i) || a.office(j)) {
				a.rel[i][k] = true
			}
		}
	}
	a.businessValues()
	return a
}

func (a *tab) name(i int) string {
	return fmt.Sprintf("%s (%s)", a.cards[i].Name, a.cards[i].Code)
}

// cand is every card that could belong to the block of x: x, and every
// card that makes something x or another candidate needs.
func (a *tab) cand(x int) bitset {
	var c bitset
	c.add(x)
	need := a.cards[x].Needs
	for changed := true; changed; {
		changed = false
		for y := range a.cards {
			if !c.has(y) && a.cards[y].Makes&need != 0 {
				c.add(y)
				need |= a.cards[y].Needs
				changed = true
			}
		}
	}
	return c
}

// blocks finds each block: the candidates of a card reachable from it over
// physical links between candidates.
func (a *tab) blocks() {
	n := len(a.cards)
	queue := make([]int, 0, n)
	for x := 0; x < n; x++ {
		if a.cards[x].Needs == 0 {
			continue
		}
		cand := a.cand(x)
		var blk bitset
		blk.add(x)
		queue = append(queue[:0], x)
		for len(queue) > 0 {
			i := queue[0]
			queue = queue[1:]
			for k := 0; k < 4; k++ {
				j := a.nb[i][k]
				if j >= 0 && a.phys[i][k] && cand.has(j) && !blk.has(j) {
					blk.add(j)
					queue = append(queue, j)
				}
			}
		}
		a.block[x], a.hasBlock[x] = blk, true
		var made, needed uint64
		for y := 0; y < n; y++ {
			if blk.has(y) {
				needed |= a.cards[y].Needs
				if y != x {
					made |= a.cards[y].Makes
				}
			}
		}
		a.supplied[x] = a.cards[x].Needs&^made == 0
		for y := 0; y < n; y++ {
			if y != x && blk.has(y) && a.cards[y].Makes&needed != 0 {
				a.inBlock[y] = true
			}
		}
		// Links inside a block are relevant.
		for i := 0; i < n; i++ {
			if !blk.has(i) {
				continue
			}
			for k := 0; k < 4; k++ {
				if j := a.nb[i][k]; j >= 0 && a.phys[i][k] && blk.has(j) {
					a.rel[i][k] = true
				}
			}
		}
	}
}

// laissezSupply: the Laissez-faire variation — a card is supplied by any
// placed card that makes what it needs, wherever it lies.
func (a *tab) laissezSupply() {
	n := len(a.cards)
	for x := 0; x < n; x++ {
		var made, needed uint64
		for y := 0; y < n; y++ {
			if y != x {
				made |= a.cards[y].Makes
				needed |= a.cards[y].Needs
			}
		}
		a.supplied[x] = a.cards[x].Needs&^made == 0
		a.inBlock[x] = a.cards[x].Makes&needed != 0
		if a.cards[x].Needs != 0 {
			a.block[x], a.hasBlock[x] = a.cand(x), true
		}
	}
}

// businessValues: a business earns its revenue plus the street bonus for
// every requirement met by a producer on its own street (seed, Revenue:
// "+$50 for every Required producer that shares the same street").
func (a *tab) businessValues() {
	for x, c := range a.cards {
		if !c.IsBusiness() {
			continue
		}
		v := c.Revenue
		var onStreet uint64
		for y, s := range a.cards {
			if y == x || !s.isProperty() || s.Street != c.Street || s.Makes&c.Needs == 0 {
				continue
			}
			if a.laissez || a.block[x].has(y) {
				onStreet |= s.Makes & c.Needs
			}
		}
		v += a.d.Rules.StreetBonus * bits.OnesCount64(onStreet)
		a.biz[x] = v
	}
}

// connected reports whether every card is linked to the main office by
// relevant links, and names one that is not.
func (a *tab) connected() (bool, int) {
	n := len(a.cards)
	if n == 0 {
		return true, -1
	}
	start := a.main
	if start < 0 {
		start = 0
	}
	var seen bitset
	seen.add(start)
	queue := []int{start}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for k := 0; k < 4; k++ {
			if j := a.nb[i][k]; j >= 0 && a.rel[i][k] && !seen.has(j) {
				seen.add(j)
				queue = append(queue, j)
			}
		}
	}
	for i := 0; i < n; i++ {
		if !seen.has(i) {
			return false, i
		}
	}
	return true, -1
}

// linkedToOffice reports whether card i has a relevant link to an office.
func (a *tab) linkedToOffice(i int) bool {
	for k := 0; k < 4; k++ {
		if j := a.nb[i][k]; j >= 0 && a.rel[i][k] && a.office(j) {
			return true
		}
	}
	return false
}

// problem returns what makes the tableau illegal, or "".
func (a *tab) problem() string {
	if a.overlap != "" {
		return a.overlap
	}
	for x, c := range a.cards {
		if c.Needs != 0 && !a.supplied[x] {
			var made uint64
			for y := range a.cards {
				if y != x && a.block[x].has(y) {
					made |= a.cards[y].Makes
				}
			}
			how := "no card of its block"
			if a.laissez {
				how = "no placed card"
			}
			return fmt.Sprintf("%s lacks %s: %s makes it (a block's cards must be linked, through its own suppliers)", a.name(x), joinAnd(a.d.goodNames(c.Needs&^made)), how)
		}
	}
	for x, c := range a.cards {
		if (c.Kind == KindContract || c.Kind == KindVehicle) && !a.inBlock[x] {
			return fmt.Sprintf("%s supplies no block: a placed contract or vehicle must be part of a block (law D)", a.name(x))
		}
	}
	if ok, i := a.connected(); !ok {
		return fmt.Sprintf("%s is not linked to the rest of your cards (all placed cards must link together, and a link counts only between an office and a card or within a block)", a.name(i))
	}
	for x, c := range a.cards {
		if c.isProperty() && !a.laissez && !a.inBlock[x] && !a.linkedToOffice(x) {
			return fmt.Sprintf("%s supplies nothing in a block, so it must come off an office (be linked to one)", a.name(x))
		}
	}
	if p := a.thornProblem(); p != "" {
		return p
	}
	return ""
}

// thornProblem checks the derelicts attached to this tableau.
func (a *tab) thornProblem() string {
	t := a.t
	for _, th := range t.thorns {
		for _, p := range t.placed {
			if p.x == th.x && p.y == th.y {
				return fmt.Sprintf("%s lies where the derelict %s is attached", a.d.Cards[p.card].Name, a.d.Cards[th.card].Code)
			}
		}
		if !thornHolds(a.d, t, th) {
			return fmt.Sprintf("the derelict %s must stay attached to %s", a.d.Cards[th.card].Code, a.d.Cards[th.target].Code)
		}
	}
	for i := range t.thorns {
		for j := i + 1; j < len(t.thorns); j++ {
			if t.thorns[i].x == t.thorns[j].x && t.thorns[i].y == t.thorns[j].y {
				return "two derelicts lie on one cell"
			}
		}
	}
	return ""
}

// thornHolds reports whether th lies next to its target with a chain link
// on both facing edges.
func thornHolds(d *Deck, t *team, th thorn) bool {
	for _, p := range t.placed {
		if p.card != th.target {
			continue
		}
		k := dirIndex(th.x, th.y, p.x, p.y)
		if k < 0 {
			return false
		}
		return rotLinks(d.Cards[th.card].Links, th.rot)&dirBits[k] != 0 &&
			rotLinks(d.Cards[p.card].Links, p.rot)&dirBits[opposite(k)] != 0
	}
	return false
}

// formsBlock reports whether the cards at positions news (offices left
// out) are one card or all belong to one block (seed, Place: "lay down one
// card ... or lay down a Block of cards").
func (a *tab) formsBlock(news []int) bool {
	var rest []int
	for _, i := range news {
		if !a.office(i) {
			rest = append(rest, i)
		}
	}
	if len(rest) <= 1 {
		return true
	}
	for x := range a.cards {
		if !a.hasBlock[x] {
			continue
		}
		all := true
		for _, i := range rest {
			if !a.block[x].has(i) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// maxRouteSteps bounds the route search of one tableau.
const maxRouteSteps = 1 << 16

// route is a Revenue Route: its cards (positions) and what it collects.
type route struct {
	path  []int
	value int
}

// bestRoute finds the Revenue Route that collects the most, starting at
// the office at position from (any office when from < 0). A route starts at
// an office (collecting its money), moves along relevant links, never
// crosses a card twice and ends at a dead end or at another office (whose
// money it does not collect).
func (a *tab) bestRoute(from int) route {
	best := route{value: -1}
	var path []int
	steps := 0
	for o := range a.cards {
		if !a.office(o) || (from >= 0 && o != from) {
			continue
		}
		c := a.cards[o]
		bonus := 0
		if c.Effect.Kind == EffectRouteBonus {
			bonus = c.Effect.Amount
		}
		var seen bitset
		seen.add(o)
		path = append(path[:0], o)
		var walk func(i, val, nbiz int)
		walk = func(i, val, nbiz int) {
			steps++
			total := c.Revenue + val + bonus*nbiz
			if total > best.value {
				best = route{path: append([]int(nil), path...), value: total}
			}
			if steps > maxRouteSteps {
				return
			}
			for k := 0; k < 4; k++ {
				j := a.nb[i][k]
				if j < 0 || !a.rel[i][k] || seen.has(j) || a.office(j) {
					continue
				}
				seen.add(j)
				path = append(path, j)
				isBiz := 0
				if a.biz[j] > 0 {
					isBiz = 1
				}
				walk(j, val+a.biz[j], nbiz+isBiz)
				path = path[:len(path)-1]
				seen[j>>6] &^= 1 << (uint(j) & 63)
			}
		}
		walk(o, 0, 0)
	}
	if best.value < 0 {
		best.value = 0
	}
	return best
}

func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	s := xs[0]
	for i := 1; i < len(xs)-1; i++ {
		s += ", " + xs[i]
	}
	return s + " and " + xs[len(xs)-1]
}
