package empire

import "sort"

// The strategic phase (seed, "The Strategical Phase") takes three mail
// rounds: deployment (which units stay on the board, which go to their
// territory's unit pool, which headquarters transform), bids (the secret
// number of strategic turns), and production (secret purchases, placement
// of new and pooled units, savings). Each is revealed at once when it is
// resolved.

// territory is a group of a power's units on the board during a strategic
// phase, with what it produces.
type territory struct {
	gr        *group
	rate      int     // production points per strategic turn
	factories []*Unit // in serial order
}

// budget is the territory's production points for a number of strategic
// turns, with the points saved in its factories.
func (t *territory) budget(turns int) int {
	b := t.rate * turns
	for _, f := range t.factories {
		b += f.Saved
	}
	return b
}

// territories returns a power's territories with their production.
func (g *Game) territories(p string) []*territory {
	var out []*territory
	for _, gr := range g.groups(p) {
		t := &territory{gr: gr}
		for _, u := range gr.Units {
			if u.Type.ProducesUnits {
				t.factories = append(t.factories, u)
			}
		}
		if len(t.factories) > 0 {
			t.rate = g.controlledLand(gr)
		}
		out = append(out, t)
	}
	return out
}

// controlled lists the hexes of a group that one of its units controls
// (seed, "Strategical Occupation and Control": HQs, factories, bases and
// infantry control the hex they stand in; armor and transports only occupy
// it). A unit on the move controls only the hex it fully occupies.
func controlled(gr *group) []int {
	done := map[int]bool{}
	var out []int
	for _, u := range gr.Units {
		if u.Type.Controls && !done[u.At] {
			done[u.At] = true
			out = append(out, u.At)
		}
	}
	sort.Ints(out)
	return out
}

// controlledLand counts the land fragments of the hexes a group controls.
func (g *Game) controlledLand(gr *group) int {
	n := 0
	for _, h := range controlled(gr) {
		n += g.World.Fragments(h)
	}
	return n
}

// territoryAt returns the territory holding hex h, or nil.
func territoryAt(ts []*territory, h int) *territory {
	for _, t := range ts {
		if groupOf([]*group{t.gr}, h) != nil {
			return t
		}
	}
	return nil
}

// score is a power's production per strategic turn over all its territories
// as the board stands (the game's score).
func (g *Game) score(p string) int {
	n := 0
	for _, t := range g.territories(p) {
		n += t.rate
	}
	return n
}

// DeployResult is what the deployment step did.
type DeployResult struct {
	Transformed []string       `json:"transformed,omitempty"` // "red AGHQ4 -> FAC4 in C4"
	Pooled      map[string]int `json:"pooled"`                // power -> units put in pools
	PoolRefused []string       `json:"pool_refused,omitempty"`
	Supply      []SupplyEvent  `json:"supply,omitempty"`
}

// resolveDeploy carries out the deployment step.
func (g *Game) resolveDeploy(sets map[string]*orderSet) *DeployResult {
	res := &DeployResult{Pooled: map[string]int{}}
	// Units still on the move settle in one of their hexes.
	for _, u := range g.Units {
		if u.To < 0 {
			continue
		}
		keep := u.At
		if s := sets[u.Owner]; s != nil {
			if h, ok := s.keep[u]; ok && h >= 0 {
				keep = h
			}
		}
		u.At, u.To = keep, -1
	}
	// Headquarters transform (seed: "in the first turn of the following
	// strategic phase"); the stationary unit keeps the number.
	for _, u := range g.Units {
		s := sets[u.Owner]
		if s == nil || !s.transform[u] {
			continue
		}
		to, ok := g.typeInPlay(u.Type.TransformsTo)
		if !ok {
			continue
		}
		from := u.Name()
		u.Type, u.Disabled = to, false
		res.Transformed = append(res.Transformed, u.Owner+" "+from+" -> "+u.Name()+" in "+g.World.HexName(u.At))
	}
	// Pools: a unit joins the pool of the territory its hex is in or
	// next to; the territories are what the units staying on the board
	// make.
	for _, u := range g.Units {
		if s := sets[u.Owner]; s != nil && s.pool[u] && u.Type.Mobile() {
			u.Pooled = true
		}
	}
	for _, p := range g.Powers {
		gs := g.groups(p)
		for _, u := range g.Units {
			if u.Owner != p || !u.Pooled {
				continue
			}
			if groupOf(gs, u.At) != nil {
				res.Pooled[p]++
				continue
			}
			anchor := -1
			for _, n := range g.World.Links(u.At) {
				if groupOf(gs, n) != nil {
					anchor = n
					break
				}
			}
			if anchor < 0 {
				u.Pooled = false
				res.PoolRefused = append(res.PoolRefused, p+" "+u.Name()+" in "+g.World.HexName(u.At))
				continue
			}
			u.At = anchor
			res.Pooled[p]++
		}
	}
	sac := map[string][]string{}
	for p, s := range sets {
		sac[p] = s.sacrifice
	}
	res.Supply = g.strategicSupply(sac)
	g.Step = stepBid
	return res
}

// BidResult is what the bids decided.
type BidResult struct {
	Turns   int            `json:"turns"`
	Callers []string       `json:"callers"`
	Bids    map[string]int `json:"bids"` // secret: kept in the phase data for audits only
}

// resolveBids finds the lowest bid (seed: count up the strategic turns until
// someone interrupts). A power that bid nothing bids the maximum.
func (g *Game) resolveBids(sets map[string]*orderSet) *BidResult {
	res := &BidResult{Bids: map[string]int{}, Turns: g.Opts.MaxBid}
	for _, p := range g.alivePowers() {
		b := g.Opts.MaxBid
		if s := sets[p]; s != nil && s.bid > 0 {
			b = s.bid
		}
		res.Bids[p] = b
		res.Turns = min(res.Turns, b)
	}
	for _, p := range g.alivePowers() {
		if res.Bids[p] == res.Turns {
			res.Callers = append(res.Callers, p)
		}
	}
	g.Turns, g.Callers = res.Turns, res.Callers
	g.Step = stepBuild
	return res
}

// Production is one territory's account in the production step.
type Production struct {
	Power     string         `json:"power"`
	Territory string         `json:"territory"` // its first hex
	Rate      int            `json:"rate"`
	Turns     int            `json:"turns"`
	Saved     int            `json:"saved_before"`
	Budget    int            `json:"budget"`
	Spent     int            `json:"spent"`
	SavedIn   map[string]int `json:"saved_after,omitempty"` // factory -> points
	Bought    []string       `json:"bought,omitempty"`      // "RID7 in C4"
}

// BuildResult is what the production step did.
type BuildResult struct {
	Production []Production `json:"production"`
	Placed     []string     `json:"placed,omitempty"` // "red RID3 -> C4" (pooled units)
}

// resolveBuild carries out purchases, placements and savings, and starts
// the tactical phase.
func (g *Game) resolveBuild(sets map[string]*orderSet) *BuildResult {
	res := &BuildResult{}
	for _, p := range g.alivePowers() {
		s := sets[p]
		if s == nil {
			s = &orderSet{}
		}
		terrs := g.territories(p)
		left := map[*territory]int{}
		prods := map[*territory]*Production{}
		var order []*territory
		for _, t := range terrs {
			if len(t.factories) == 0 {
				continue
			}
			saved := 0
			for _, f := range t.factories {
				saved += f.Saved
			}
			left[t] = t.budget(g.Turns)
			prods[t] = &Production{Power: p, Territory: g.World.HexName(t.gr.Hexes[0]), Rate: t.rate, Turns: g.Turns, Saved: saved, Budget: left[t]}
			order = append(order, t)
		}
		for _, o := range s.buys {
			t := territoryAt(terrs, o.Pos.At)
			ty := g.buyable(o.Type)
			if t == nil || prods[t] == nil || ty == nil || o.N*ty.Cost > left[t] {
				continue
			}
			left[t] -= o.N * ty.Cost
			prods[t].Spent += o.N * ty.Cost
			for k := 0; k < o.N; k++ {
				u := g.newUnit(p, ty, o.Pos.At)
				prods[t].Bought = append(prods[t].Bought, u.Name()+" in "+g.World.HexName(o.Pos.At))
			}
		}
		// Savings: as ordered, the rest in the territory's first factory.
		for _, t := range order {
			pr := prods[t]
			pr.SavedIn = map[string]int{}
			for _, f := range t.factories {
				f.Saved = 0
			}
			for _, f := range t.factories {
				if n, ok := s.save[f]; ok {
					n = min(n, left[t])
					f.Saved += n
					left[t] -= n
				}
			}
			t.factories[0].Saved += left[t]
			for _, f := range t.factories {
				if f.Saved > 0 {
					pr.SavedIn[f.Name()] = f.Saved
				}
			}
			res.Production = append(res.Production, *pr)
		}
		// The unit pools are laid out.
		for _, u := range g.Units {
			if u.Owner != p || !u.Pooled {
				continue
			}
			if h, ok := s.place[u]; ok {
				if t := territoryAt(terrs, u.At); t != nil && groupOf([]*group{t.gr}, h) != nil {
					u.At = h
				}
			}
			u.Pooled = false
			res.Placed = append(res.Placed, p+" "+u.Name()+" -> "+g.World.HexName(u.At))
		}
	}
	g.sortUnits()
	g.Turns, g.Callers = 0, nil
	g.Step, g.Turn = stepTactical, 1
	return res
}

// sortedKeys returns the keys of a map in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
