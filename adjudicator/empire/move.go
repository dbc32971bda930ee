package empire

import "fmt"

// Movement (seed, "Movement"). A unit that stands still occupies one hex. A
// unit on the move covers its own hex and the way it moves: armor (one hex a
// turn) covers two neighbouring hexes equally, the counter on their common
// border; slower units (half a hex a turn: infantry, headquarters,
// transports) cover one hex fully and the neighbouring hex half. Movement has
// no direction: a unit may stay on the move over the same two hexes turn
// after turn, patrolling them. Units move only between hexes that share land.
//
// Each turn a unit takes a new position the movement rules permit from its
// old one:
//
//   - armor: any position (standing or on the move) that includes one of the
//     hexes it covers now;
//   - slower units: standing in the hex they fully occupy or, when on the
//     move, in the hex they half occupy; on the move from the hex they fully
//     occupy to any neighbour; or, when on the move, crossing into the hex
//     they half occupy (fully there, half in the hex they left).
//
// So armor advances a hex a turn (A|B, B|C, C|D …) and slower units half a
// hex (A, A½B, B, B½C … or A½B, B½A, B½C …). Stationary and disabled units
// keep their position.

// Pos is a unit's position: the hex it fully occupies and, on the move, the
// second hex it covers (To = -1 when standing).
type Pos struct{ At, To int }

// pos returns a unit's position.
func (u *Unit) pos() Pos { return Pos{u.At, u.To} }

// canTake reports whether unit u may take position p this turn, and why not.
func (g *Game) canTake(u *Unit, p Pos) error {
	w := g.World
	cur := u.pos()
	if p == cur || (u.Type.fast() && p.To >= 0 && p.At == cur.To && p.To == cur.At) {
		return nil // keeps its position
	}
	switch {
	case !u.Type.Mobile():
		return fmt.Errorf("%s is stationary and never moves", u.Name())
	case u.Disabled:
		return fmt.Errorf("%s is disabled (out of supply) and cannot move", u.Name())
	case u.Pooled:
		return fmt.Errorf("%s is in a unit pool", u.Name())
	}
	if p.To >= 0 {
		if p.To == p.At {
			return fmt.Errorf("a move covers two different hexes")
		}
		if !w.Linked(p.At, p.To) {
			return fmt.Errorf("%s and %s share no land: land units cannot cross there", w.HexName(p.At), w.HexName(p.To))
		}
	} else if w.Fragments(p.At) == 0 {
		return fmt.Errorf("%s is open water", w.HexName(p.At))
	}
	if u.Type.fast() {
		if u.in(p.At) || (p.To >= 0 && u.in(p.To)) {
			return nil
		}
		return fmt.Errorf("%s moves one hex a turn: its new position must include %s", u.Name(), g.posName(cur))
	}
	switch {
	case p.To < 0 && (p.At == cur.At || p.At == cur.To):
		return nil
	case p.To >= 0 && p.At == cur.At:
		return nil
	case p.To >= 0 && cur.To >= 0 && p.At == cur.To && p.To == cur.At:
		return nil
	}
	if cur.To >= 0 {
		return fmt.Errorf("%s moves half a hex a turn: from %s it may stand in %s or %s, move %s-<neighbour> or cross to %s-%s",
			u.Name(), g.posName(cur), w.HexName(cur.At), w.HexName(cur.To), w.HexName(cur.At), w.HexName(cur.To), w.HexName(cur.At))
	}
	return fmt.Errorf("%s moves half a hex a turn: from %s it may only start moving to a neighbour (%s-<neighbour>)",
		u.Name(), w.HexName(cur.At), w.HexName(cur.At))
}

// options lists the positions a unit may take this turn, current first.
func (g *Game) options(u *Unit) []Pos {
	out := []Pos{u.pos()}
	seen := map[Pos]bool{u.pos(): true}
	add := func(p Pos) {
		if !seen[p] && g.canTake(u, p) == nil {
			seen[p] = true
			out = append(out, p)
		}
	}
	if !u.Type.Mobile() || u.Disabled || u.Pooled {
		return out
	}
	for _, h := range u.hexes() {
		add(Pos{h, -1})
		for _, n := range g.World.Links(h) {
			add(Pos{h, n})
			if u.Type.fast() {
				seen[Pos{n, h}] = true // the same two hexes
			}
		}
	}
	return out
}

// posName writes a position: "C4" standing, "C4-D4" on the move.
func (g *Game) posName(p Pos) string {
	if p.To < 0 {
		return g.World.HexName(p.At)
	}
	return g.World.HexName(p.At) + "-" + g.World.HexName(p.To)
}

// posText describes a position for players.
func (g *Game) posText(u *Unit) string {
	w := g.World
	switch {
	case u.Pooled:
		return "in the unit pool of the territory at " + w.HexName(u.At)
	case u.To < 0:
		return "in " + w.HexName(u.At)
	case u.Type.fast():
		return fmt.Sprintf("on the move over %s and %s", w.HexName(u.At), w.HexName(u.To))
	}
	return fmt.Sprintf("on the move in %s, half in %s", w.HexName(u.At), w.HexName(u.To))
}
