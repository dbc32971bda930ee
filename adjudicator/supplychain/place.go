package supplychain

import (
	"fmt"
	"strings"
)

// The Place and Reorganize actions (and the dual action that does both):
// the orders of the group are carried out one after the other on a copy
// of the tableau, and only the result must be legal.

// resolveSpot turns a written place into cell coordinates.
func (g *game) resolveSpot(t *team, s spot) (int, int, error) {
	if !s.set {
		return 0, 0, fmt.Errorf("say where: AT x,y or EAST OF <placed card>")
	}
	if !s.rel {
		return s.x, s.y, nil
	}
	c, err := g.inPlaced(t, s.of)
	if err != nil {
		return 0, 0, err
	}
	pl := t.placed[placedIndex(t, c)]
	return pl.x + dirDX[s.dir], pl.y + dirDY[s.dir], nil
}

func occupiedBy(t *team, x, y int) (int, bool) {
	for _, p := range t.placed {
		if p.x == x && p.y == y {
			return p.card, true
		}
	}
	for _, th := range t.thorns {
		if th.x == x && th.y == y {
			return th.card, true
		}
	}
	return -1, false
}

// placeGroup carries out the PLACE, MOVE, REMOVE and TOKEN orders of one
// Place, Reorganize or dual action for player p.
func (g *game) placeGroup(p int, os []*Order, solo bool) error {
	t := g.teamOf(p)
	who := titleCase(g.players[p].power)
	var news []int // cards laid down
	var free []int // cards placed or moved without TURN: the engine may turn them
	var notes []string
	placing, reorganizing := false, false
	for _, o := range os {
		switch o.Verb {
		case VerbAttach:
			if len(os) > 1 {
				return fmt.Errorf("attaching a derelict is a Place action of its own")
			}
			return g.attach(p, o)
		case VerbPlace:
			placing = true
			c, err := g.inHand(p, o.Card, func(c int) bool { return g.card(c).placeable() && g.card(c).Kind != KindDerelict })
			if err != nil {
				return err
			}
			o.Card = codeRef(c)
			card := g.card(c)
			if card.Kind == KindDerelict {
				return fmt.Errorf("a derelict is attached to another player's property: PLACE %s AT <player> x,y", card.Code)
			}
			x, y, err := g.resolveSpot(t, o.At)
			if err != nil {
				return err
			}
			o.At = spot{set: true, x: x, y: y}
			if occ, ok := occupiedBy(t, x, y); ok {
				if g.card(occ).Kind != KindContract || placedIndex(t, occ) < 0 {
					return fmt.Errorf("%d,%d is taken by %s (move it first: the dual action Place and Reorganize)", x, y, g.cname(occ))
				}
				// The block replaces a contract: it goes back to the
				// Contract deck (seed, Place).
				i := placedIndex(t, occ)
				t.placed = append(t.placed[:i], t.placed[i+1:]...)
				g.contracts = insertSorted(g.contracts, occ)
				notes = append(notes, fmt.Sprintf("%s goes back to the Contract deck", g.cname(occ)))
			}
			h := g.takeFromHand(p, c)
			t.placed = append(t.placed, placed{card: c, x: x, y: y, rot: o.Rot & 3, stale: h.stale})
			news = append(news, c)
			if !o.HasRot {
				free = append(free, c)
			}
		case VerbMove:
			reorganizing = true
			c, err := g.inPlaced(t, o.Card)
			if err != nil {
				return err
			}
			o.Card = codeRef(c)
			x, y, err := g.resolveSpot(t, o.At)
			if err != nil {
				return err
			}
			o.At = spot{set: true, x: x, y: y}
			i := placedIndex(t, c)
			before := t.placed[i]
			rot := before.rot
			if o.HasRot {
				rot = o.Rot & 3
			} else {
				free = append(free, c)
			}
			o.Rot, o.HasRot = rot, true
			t.placed[i] = placed{card: c, x: x, y: y, rot: rot, stale: before.stale}
			turnThorns(t, c, before, t.placed[i])
		case VerbRemove:
			reorganizing = true
			c, err := g.inPlaced(t, o.Card)
			if err != nil {
				return err
			}
			o.Card = codeRef(c)
			if err := g.mayPart(p, c, "remove"); err != nil {
				return err
			}
			i := placedIndex(t, c)
			t.placed = append(t.placed[:i], t.placed[i+1:]...)
			g.abandon(c)
			notes = append(notes, fmt.Sprintf("%s removed (to the %s)", g.cname(c), abandonPlace(g.card(c))))
		case VerbToken:
			if o.Off {
				t.token = nil
				continue
			}
			e := o.Edge
			t.token = &e
		}
	}
	if t.token != nil {
		// A token must lie between two placed cards.
		before := *t.token
		normalizeToken(t)
		if t.token == nil {
			return fmt.Errorf("the link/3VP token must lie on an edge between two of your placed cards (%d,%d %s)", before.x, before.y, dirName(before.dir))
		}
	}
	a := analyze(g.d, t, g.opt.Laissez)
	prob := a.problem()
	if prob != "" && len(free) > 0 && len(free) <= 4 {
		if rots, ok := g.findTurns(t, free); ok {
			for k, c := range free {
				i := placedIndex(t, c)
				before := t.placed[i]
				t.placed[i].rot = rots[k]
				turnThorns(t, c, before, t.placed[i])
				if rots[k] != 0 || before.rot != rots[k] {
					notes = append(notes, fmt.Sprintf("%s turned to TURN %d so that its links work", g.cname(c), rots[k]))
				}
			}
			a = analyze(g.d, t, g.opt.Laissez)
			prob = a.problem()
		}
	}
	if prob != "" {
		return fmt.Errorf("%s", prob)
	}
	// Record the final turns in the canonical orders.
	for _, o := range os {
		if o.Verb == VerbPlace || o.Verb == VerbMove {
			i := placedIndex(t, o.Card.card)
			if i >= 0 {
				o.Rot, o.HasRot = t.placed[i].rot, true
			}
		}
	}
	if placing && !solo {
		var pos []int
		for _, c := range news {
			pos = append(pos, placedIndex(t, c))
		}
		if !a.formsBlock(pos) {
			return fmt.Errorf("one Place action lays down one card or one block: these cards do not all belong to one block")
		}
	}
	var what []string
	if placing {
		var names []string
		for _, c := range news {
			pl := t.placed[placedIndex(t, c)]
			names = append(names, fmt.Sprintf("%s at %d,%d", g.cname(c), pl.x, pl.y))
			g.mark(p, c, markPlaced)
		}
		what = append(what, "places "+joinAnd(names))
	}
	if reorganizing {
		what = append(what, "reorganizes")
	}
	if !placing && !reorganizing {
		what = append(what, "moves the link/3VP token")
	}
	msg := who + " " + strings.Join(what, " and ")
	if len(notes) > 0 {
		msg += " (" + strings.Join(notes, "; ") + ")"
	}
	g.say("%s.", msg)
	return nil
}

func abandonPlace(c *Card) string {
	switch c.Kind {
	case KindContract:
		return "Contract deck"
	case KindVehicle:
		return "Vehicle deck"
	}
	return "Stale Sale pile"
}

// findTurns tries every orientation of the cards in free (at most four)
// for one that makes the tableau legal.
func (g *game) findTurns(t *team, free []int) ([]int, bool) {
	idx := make([]int, len(free))
	saved := make([]int, len(free))
	for k, c := range free {
		idx[k] = placedIndex(t, c)
		saved[k] = t.placed[idx[k]].rot
	}
	n := 1
	for range free {
		n *= 4
	}
	for combo := 0; combo < n; combo++ {
		x := combo
		rots := make([]int, len(free))
		for k := range free {
			rots[k] = x & 3
			x >>= 2
			t.placed[idx[k]].rot = rots[k]
		}
		if analyze(g.d, t, g.opt.Laissez).problem() == "" {
			for k := range free {
				t.placed[idx[k]].rot = saved[k]
			}
			return rots, true
		}
	}
	for k := range free {
		t.placed[idx[k]].rot = saved[k]
	}
	return nil, false
}

// attach lays a derelict from p's hand next to another player's property
// (seed, Derelict property): linked by chain links on both facing edges,
// never on a contract or vehicle.
func (g *game) attach(p int, o *Order) error {
	c, err := g.inHand(p, o.Card, func(c int) bool { return g.card(c).Kind == KindDerelict })
	if err != nil {
		return err
	}
	o.Card = codeRef(c)
	if g.card(c).Kind != KindDerelict {
		return fmt.Errorf("only a derelict is placed on another player's cards")
	}
	q := g.playerIndex(o.Power)
	if q < 0 || g.players[q].team == g.players[p].team {
		return fmt.Errorf("a derelict is attached to a property of another player")
	}
	t := g.teamOf(q)
	if o.At.rel {
		x, y, err := g.resolveSpot(t, o.At)
		if err != nil {
			return err
		}
		o.At = spot{set: true, x: x, y: y}
	}
	x, y := o.At.x, o.At.y
	if occ, ok := occupiedBy(t, x, y); ok {
		return fmt.Errorf("%d,%d of %s is taken by %s", x, y, titleCase(o.Power), g.cname(occ))
	}
	rots := []int{o.Rot & 3}
	if !o.HasRot {
		rots = []int{0, 1, 2, 3}
	}
	for _, r := range rots {
		links := rotLinks(g.card(c).Links, r)
		for k := 0; k < 4; k++ {
			if links&dirBits[k] == 0 {
				continue
			}
			tc, ok := occupiedBy(t, x+dirDX[k], y+dirDY[k])
			if !ok || placedIndex(t, tc) < 0 {
				continue
			}
			card := g.card(tc)
			if card.Kind == KindContract || card.Kind == KindVehicle {
				continue
			}
			pl := t.placed[placedIndex(t, tc)]
			if rotLinks(card.Links, pl.rot)&dirBits[opposite(k)] == 0 {
				continue
			}
			g.takeFromHand(p, c)
			t.thorns = append(t.thorns, thorn{card: c, x: x, y: y, rot: r, target: tc, from: g.players[p].power})
			o.Rot, o.HasRot = r, true
			g.say("%s attaches the derelict %s to %s's %s at %d,%d.", titleCase(g.players[p].power), g.cname(c), titleCase(o.Power), g.cname(tc), x, y)
			g.mark(p, c, markDerelict)
			return nil
		}
	}
	return fmt.Errorf("at %d,%d %s would link to no property of %s (both facing edges need a chain link; not a contract or vehicle)", x, y, g.cname(c), titleCase(o.Power))
}
