package empire

import "sort"

// Supply (seed, "Supplies, support and supply lines"). Units of one power
// pass supplies to each other when they stand in the same hex or in
// neighbouring hexes that share land (a unit on the move passes them in both
// hexes it covers); a contiguous chain of units is a supply group. Supply
// never crosses water and never passes through another power's units.

// group is one supply group (in the strategic phase: one territory).
type group struct {
	Power string
	Hexes []int   // the hexes its units cover, ascending
	Units []*Unit // its units on the board, in canonical order
	Pool  []*Unit // units in the unit pool of this territory (strategic phase)
}

// groups returns a power's supply groups, ordered by their first hex.
// Pooled units join the group whose hexes hold their pool's hex.
func (g *Game) groups(p string) []*group {
	w := g.World
	at := map[int][]*Unit{}
	var hexes []int
	for _, u := range g.Units {
		if u.Owner != p || u.Pooled {
			continue
		}
		for _, h := range u.hexes() {
			if at[h] == nil {
				hexes = append(hexes, h)
			}
			at[h] = append(at[h], u)
		}
	}
	sort.Ints(hexes)
	comp := map[int]*group{}
	var out []*group
	for _, start := range hexes {
		if comp[start] != nil {
			continue
		}
		gr := &group{Power: p}
		comp[start] = gr
		queue := []int{start}
		for len(queue) > 0 {
			h := queue[0]
			queue = queue[1:]
			gr.Hexes = append(gr.Hexes, h)
			for _, n := range w.Links(h) {
				if at[n] != nil && comp[n] == nil {
					comp[n] = gr
					queue = append(queue, n)
				}
			}
			// A moving unit joins its two hexes even where a neighbour's
			// unit does not.
			for _, u := range at[h] {
				for _, x := range u.hexes() {
					if comp[x] == nil {
						comp[x] = gr
						queue = append(queue, x)
					}
				}
			}
		}
		sort.Ints(gr.Hexes)
		out = append(out, gr)
	}
	for _, u := range g.Units {
		if u.Owner != p {
			continue
		}
		if u.Pooled {
			if gr := comp[u.At]; gr != nil {
				gr.Pool = append(gr.Pool, u)
			}
			continue
		}
		comp[u.At].Units = append(comp[u.At].Units, u)
	}
	return out
}

// groupOf returns the group holding hex h, or nil.
func groupOf(gs []*group, h int) *group {
	for _, gr := range gs {
		i := sort.SearchInts(gr.Hexes, h)
		if i < len(gr.Hexes) && gr.Hexes[i] == h {
			return gr
		}
	}
	return nil
}

// SupplyEvent is one consequence of a supply check.
type SupplyEvent struct {
	Power string `json:"power"`
	Unit  string `json:"unit"`
	Hex   string `json:"hex"`
	// What happened: "perished", "disabled", "restored" (supply is back),
	// "sacrificed" (used up to supply its group for one more turn).
	What string `json:"what"`
}

// tacticalSupply runs the supply check of a tactical turn (seed, "Tactical
// Support"). A group with a supply generator (a base, factory or
// headquarters that is not disabled) supports all its units, and its
// disabled units recover. A group without one may use up one unit the power
// ordered sacrificed (cannibalised) to stay supplied for this turn;
// otherwise its units that need tactical supply perish (divisions,
// transports) or are disabled (regular corps). Units that need no tactical
// supply (expeditionary forces, headquarters, stationary units) are
// unaffected.
func (g *Game) tacticalSupply(sacrifice map[string][]string) []SupplyEvent {
	return g.supplyCheck(sacrifice, false)
}

// strategicSupply runs the supply check of a strategic phase (seed,
// "Strategic Support"): a territory with a factory, army base or army group
// headquarters supports all its units and its pool; a field base or army
// headquarters supports only the units in its own hex. Units without the
// strategic supply they need perish or are disabled as their type says; a
// sacrificed unit supplies its territory (and pool) for this strategic phase.
// Disabled units do not recover here: they recover when their group is
// supplied in a tactical turn.
func (g *Game) strategicSupply(sacrifice map[string][]string) []SupplyEvent {
	return g.supplyCheck(sacrifice, true)
}

func (g *Game) supplyCheck(sacrifice map[string][]string, strategic bool) []SupplyEvent {
	var events []SupplyEvent
	gone := map[*Unit]bool{}
	role := func(u *Unit) Supply {
		if strategic {
			return u.Type.Strategic
		}
		return u.Type.Tactical
	}
	ev := func(u *Unit, what string) {
		events = append(events, SupplyEvent{Power: u.Owner, Unit: u.Name(), Hex: g.World.HexName(u.At), What: what})
	}
	for _, p := range g.alivePowers() {
		for _, gr := range g.groups(p) {
			members := append(append([]*Unit(nil), gr.Units...), gr.Pool...)
			full := false
			local := map[int]bool{}
			for _, u := range gr.Units {
				if u.Disabled {
					continue
				}
				switch role(u).Produces {
				case "full":
					full = true
				case "local":
					local[u.At] = true
				}
			}
			supplied := func(u *Unit) bool {
				return full || !role(u).Needs() || (!u.Pooled && u.To < 0 && local[u.At])
			}
			short := false
			for _, u := range members {
				if !supplied(u) {
					short = true
				}
			}
			if short {
				// Cannibalise: the first unit of this group the power
				// ordered sacrificed (seed: one per turn).
				for _, name := range sacrifice[p] {
					var victim *Unit
					for _, u := range members {
						if u.Name() == name && !gone[u] {
							victim = u
						}
					}
					if victim != nil {
						gone[victim] = true
						ev(victim, "sacrificed")
						full, short = true, false
						break
					}
				}
			}
			for _, u := range members {
				if gone[u] {
					continue
				}
				switch {
				case supplied(u):
					if u.Disabled && !strategic && full {
						u.Disabled = false
						ev(u, "restored")
					}
				case role(u).Unsupplied == "perish":
					gone[u] = true
					ev(u, "perished")
				case role(u).Unsupplied == "disable" && !u.Disabled:
					u.Disabled = true
					ev(u, "disabled")
				}
			}
		}
	}
	g.remove(func(u *Unit) bool { return gone[u] })
	return events
}
