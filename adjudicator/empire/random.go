package empire

import (
	"math/rand/v2"
	"sort"
	"strings"

	"pbemd/adjudicator"
)

var _ adjudicator.Bot = (*Engine)(nil)

// BotOrders implements adjudicator.Bot: RandomOrders from a stream seeded
// by seed, as the text of a mail.
func (e *Engine) BotOrders(state []byte, power string, seed int64) (string, error) {
	lines, err := e.RandomOrders(state, power, rand.New(rand.NewPCG(uint64(seed), 0xe3)))
	return strings.Join(lines, "\n"), err
}

// RandomOrders writes legal orders for a power in the current phase of a
// state, drawn from r: a crude but aggressive player (armies head for the
// nearest enemy, production buys a mix of units near the front, cut-off
// groups sacrifice their cheapest unit, the ceasefire comes when no enemy
// is near). Tests play whole games with it; the demo's scripted players may
// use it. The lines are canonical (Check accepts them unchanged).
func (e *Engine) RandomOrders(state []byte, power string, r *rand.Rand) ([]string, error) {
	g, err := e.decode(state)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, o := range g.randomOrders(power, r) {
		out = append(out, formatOrder(g.World, o))
	}
	return out, nil
}

func (g *Game) randomOrders(p string, r *rand.Rand) []Order {
	if g.Over || !g.alive(p) {
		return nil
	}
	switch g.Step {
	case stepTactical:
		return g.randomTactical(p, r)
	case stepDeploy:
		return g.randomDeploy(p, r)
	case stepBid:
		return []Order{{Kind: OrderBid, N: 1 + r.IntN(min(3, g.Opts.MaxBid)), Pos: Pos{-1, -1}}}
	case stepBuild:
		return g.randomBuild(p, r)
	}
	return nil
}

// enemyDistance is, per hex, the land distance to the nearest enemy unit
// (a large number where none can be reached).
func (g *Game) enemyDistance(p string) []int {
	w := g.World
	dist := make([]int, w.Hexes())
	for i := range dist {
		dist[i] = 1 << 20
	}
	var queue []int
	for _, u := range g.Units {
		if u.Owner == p || u.Pooled {
			continue
		}
		for _, h := range u.hexes() {
			if dist[h] != 0 {
				dist[h] = 0
				queue = append(queue, h)
			}
		}
	}
	sort.Ints(queue)
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		for _, n := range w.Links(h) {
			if dist[n] > dist[h]+1 {
				dist[n] = dist[h] + 1
				queue = append(queue, n)
			}
		}
	}
	return dist
}

func (g *Game) randomTactical(p string, r *rand.Rand) []Order {
	var out []Order
	dist := g.enemyDistance(p)
	near := false
	for _, u := range g.unitsOf(p) {
		opts := g.options(u)
		for _, h := range u.hexes() {
			near = near || dist[h] <= 3
		}
		if len(opts) == 1 {
			continue
		}
		score := func(q Pos) int {
			s := dist[q.At]
			if q.To >= 0 {
				s = min(s, dist[q.To])
			}
			return s
		}
		var pick Pos
		switch {
		case r.IntN(10) < 7:
			best := 1 << 30
			var bests []Pos
			for _, q := range opts {
				switch s := score(q); {
				case s < best:
					best, bests = s, []Pos{q}
				case s == best:
					bests = append(bests, q)
				}
			}
			pick = bests[r.IntN(len(bests))]
		default:
			pick = opts[r.IntN(len(opts))]
		}
		if pick == u.pos() {
			if r.IntN(2) == 0 {
				out = append(out, Order{Kind: OrderHold, Unit: u.Name(), Pos: Pos{-1, -1}})
			}
			continue
		}
		out = append(out, Order{Kind: OrderMove, Unit: u.Name(), Pos: pick})
		if g.Opts.Retreat && u.Type.Mobile() && r.IntN(4) == 0 {
			out = append(out, Order{Kind: OrderRetreat, Unit: u.Name(), Pos: Pos{-1, -1}})
		}
	}
	// A group without a generator sacrifices its cheapest unit.
	for _, gr := range g.groups(p) {
		has, needs := false, false
		var cheapest *Unit
		for _, u := range gr.Units {
			has = has || (u.Type.Tactical.Produces == "full" && !u.Disabled)
			needs = needs || u.Type.Tactical.Needs()
			if u.Type.Mobile() && (cheapest == nil || u.Type.Cost < cheapest.Type.Cost) {
				cheapest = u
			}
		}
		if !has && needs && cheapest != nil && r.IntN(3) > 0 {
			out = append(out, Order{Kind: OrderSacrifice, Unit: cheapest.Name(), Pos: Pos{-1, -1}})
		}
	}
	if !near && r.IntN(3) > 0 || r.IntN(8) == 0 {
		out = append(out, Order{Kind: OrderCeasefire, Pos: Pos{-1, -1}})
	}
	return out
}

func (g *Game) randomDeploy(p string, r *rand.Rand) []Order {
	var out []Order
	for _, u := range g.unitsOf(p) {
		switch {
		case u.Type.TransformsTo != "" && r.IntN(3) == 0:
			if _, ok := g.typeInPlay(u.Type.TransformsTo); ok {
				out = append(out, Order{Kind: OrderTransform, Unit: u.Name(), Pos: Pos{-1, -1}})
			}
		case u.Type.Mobile() && r.IntN(4) == 0:
			out = append(out, Order{Kind: OrderPool, Unit: u.Name(), Pos: Pos{-1, -1}})
		case u.moving() && r.IntN(2) == 0:
			out = append(out, Order{Kind: OrderKeep, Unit: u.Name(), Pos: Pos{u.To, -1}})
		}
		if u.Type.Strategic.Needs() && r.IntN(12) == 0 {
			out = append(out, Order{Kind: OrderSacrifice, Unit: u.Name(), Pos: Pos{-1, -1}})
		}
	}
	return out
}

func (g *Game) randomBuild(p string, r *rand.Rand) []Order {
	var out []Order
	dist := g.enemyDistance(p)
	var buy []*UnitType
	for _, t := range g.Types {
		if t.Mobile() {
			buy = append(buy, t)
		}
	}
	for _, t := range g.territories(p) {
		if len(t.factories) == 0 {
			continue
		}
		left := t.budget(g.Turns)
		if r.IntN(4) == 0 {
			left -= left / 4 // keep some
		}
		front := t.gr.Hexes[0]
		for _, h := range t.gr.Hexes {
			if dist[h] < dist[front] {
				front = h
			}
		}
		for tries := 0; tries < 40 && left > 0; tries++ {
			ty := buy[r.IntN(len(buy))]
			if ty.Cost > left {
				continue
			}
			h := front
			if r.IntN(3) == 0 {
				h = t.gr.Hexes[r.IntN(len(t.gr.Hexes))]
			}
			out = append(out, Order{Kind: OrderBuy, Type: ty.Code, N: 1, Pos: Pos{h, -1}})
			left -= ty.Cost
		}
		if len(t.factories) > 1 && r.IntN(2) == 0 {
			out = append(out, Order{Kind: OrderSave, Unit: t.factories[len(t.factories)-1].Name(), N: 1 + r.IntN(5), Pos: Pos{-1, -1}})
		}
		for _, u := range t.gr.Pool {
			out = append(out, Order{Kind: OrderPlace, Unit: u.Name(), Pos: Pos{t.gr.Hexes[r.IntN(len(t.gr.Hexes))], -1}})
		}
	}
	return out
}
