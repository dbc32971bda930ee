package supremacy

import (
	"fmt"
	"slices"
	"strings"

	"pbemd/adjudicator"
)

// The autopilot (issue 34): the orders of an absent player, played the way
// a steady, careful player would and no cleverer. It keeps what the power
// has and defends its home areas; it never attacks, blockades, seizes,
// launches, researches, trades with players or borrows. Where the rules
// ask for a choice it makes the cheap, sensible one:
//
//   - Set-up: every force is an army in a home area (armies defend the
//     cities a conquest takes); the home areas with the most land borders
//     to areas that are not the power's own get one more first, and no
//     misdeal.
//   - Salaries: a company is opened while its resource has room on the
//     Strategic Reserve (production beyond it is lost, so its salary would
//     be wasted) and the cash covers it after the forces' pay and the loan
//     interest due (the engine's default also opens a company with no
//     room); no force is disbanded.
//   - Trade: what the power holds beyond two of a resource is sold (cash
//     pays the salaries, a resource counts for nothing in net worth, and
//     two leave a set for a build and one for a move). Only while one of
//     its home areas is outnumbered (more armies and navies of other
//     players next to it than its own armies there) does it buy, one of
//     each resource it has none of, to have a set for a build, and only
//     with cash to spare (see Build).
//   - Attack: PASS. In a counterattack step of step play, the player's own
//     standing counterattack (IF ATTACKED …) stands when there is one;
//     otherwise it passes. A declared launch awaiting confirmation is
//     called off.
//   - Move: armies move to an outnumbered home area from a neighbouring
//     area it controls, keeping there at least one army and as many as
//     threaten that area; the most outnumbered home first, one grain per
//     move, no rail or air lift, navies stay.
//   - Build: one set of three armies in the most outnumbered home area it
//     controls, when one is outnumbered, the power has a set of resources
//     and the cash left pays two turns of salaries (forces grow the bill
//     every turn, and unpaid forces are lost); no weapons, no research, no
//     arms sales.
//
// Offers from other players go unanswered, so they lapse; its player's
// standing orders (reactions, contests, permits, ABM policy) stay as they
// were. Deterministic: the same state gives the same orders; the seed is
// not used.

var _ adjudicator.Autopilot = (*Engine)(nil)

// AutopilotPlay implements adjudicator.Autopilot.
func (e *Engine) AutopilotPlay() string {
	return "places its forces as armies at home, opens the companies whose output has room on its Strategic Reserve, sells what it holds beyond two of a resource, " +
		"moves armies to its outnumbered home areas and builds three armies there when it can spare the cost; " +
		"it never attacks (a standing counterattack of its player's still stands), calls off a declared launch, answers no offer and takes no loan"
}

// AutopilotOrders implements adjudicator.Autopilot.
func (e *Engine) AutopilotOrders(state []byte, power string, _ int64) (string, error) {
	w, err := decodeWorld(state)
	if err != nil {
		return "", err
	}
	i := w.playerIndex(power)
	if i < 0 {
		return "", fmt.Errorf("supremacy: %q is not a player of this game", power)
	}
	if w.over || !w.players[i].alive() || !slices.Contains(w.waiting(), i) {
		return "", nil
	}
	s := &steady{w: w, sc: w.sc, i: i, p: w.players[i]}
	var ords []*Order
	switch w.phase {
	case PhaseSetup:
		ords = s.setup()
	case PhaseSalaries:
		ords = s.salaries()
	case PhaseTrade:
		ords = s.trade()
	case PhaseAttack:
		ords = s.attack()
	case PhaseMove:
		ords = s.moves()
	case PhaseBuild:
		ords = s.build()
	}
	lines := make([]string, len(ords))
	for k, o := range ords {
		lines[k] = w.sc.format(o)
	}
	return strings.Join(lines, "\n"), nil
}

// steady is the autopilot at work for player i.
type steady struct {
	w  *world
	sc *Scenario
	i  int
	p  *player
}

// homes are the player's home areas still in play, in scenario order.
func (s *steady) homes() []int {
	var out []int
	for _, h := range s.sc.powers[s.p.idx].homes {
		if !s.w.dead[h] {
			out = append(out, h)
		}
	}
	return out
}

// threat counts the other players' pieces that could strike land area a:
// armies next to it across a passable border, navies in the seas on its
// coast.
func (s *steady) threat(a int) int {
	w, own := s.w, s.p.idx
	n := 0
	for _, b := range s.sc.areas[a].land {
		for pi, k := range w.army[b] {
			if pi != own {
				n += k
			}
		}
	}
	for _, b := range s.sc.areas[a].seas {
		for pi, k := range w.navy[b] {
			if pi != own {
				n += k
			}
		}
	}
	return n
}

// upkeep is what the next salaries cost: the companies' and forces' pay
// and the loan interest beyond the bonds'.
func (s *steady) upkeep() int {
	w, p, rules := s.w, s.p, &s.sc.Rules
	armies, navies := w.forces(s.i)
	interest := max(0, s.sc.Loans.Interest(p.LoanPeak)-s.sc.Bonds.Interest(p.Bonds))
	return len(w.companies(s.i))*rules.CompanySalary + (armies+navies)*rules.ForceSalary + interest
}

func (s *steady) setup() []*Order {
	sc := s.sc
	homes := s.homes()
	own := map[int]bool{}
	for _, h := range homes {
		own[h] = true
	}
	frontier := func(h int) int {
		n := 0
		for _, b := range sc.areas[h].land {
			if !own[b] {
				n++
			}
		}
		return n
	}
	ranked := slices.Clone(homes)
	slices.SortStableFunc(ranked, func(a, b int) int { return frontier(b) - frontier(a) })
	count := map[int]int{}
	for k := 0; k < sc.Rules.StartForces && len(ranked) > 0; k++ {
		count[ranked[k%len(ranked)]]++
	}
	o := newOrder(KPlace)
	for _, h := range homes {
		if count[h] > 0 {
			o.Parts = append(o.Parts, Leg{N: count[h], From: -1, To: h})
		}
	}
	if len(o.Parts) == 0 {
		return nil
	}
	return []*Order{o}
}

func (s *steady) salaries() []*Order {
	w, p, sc := s.w, s.p, s.sc
	cards := w.companies(s.i)
	if len(cards) == 0 {
		return nil
	}
	armies, navies := w.forces(s.i)
	spare := p.Cash - (armies+navies)*sc.Rules.ForceSalary - max(0, sc.Loans.Interest(p.LoanPeak)-sc.Bonds.Interest(p.Bonds))
	var room [nResources]int
	for r := range room {
		room[r] = w.room(s.i, Resource(r))
	}
	var closed []int
	opened := 0
	for _, c := range cards {
		co := sc.cards[c].company
		if co != nil && room[co.res] > 0 && spare >= sc.Rules.CompanySalary {
			spare -= sc.Rules.CompanySalary
			room[co.res] -= co.Output
			opened++
			continue
		}
		closed = append(closed, c)
	}
	if opened == 0 {
		o := newOrder(KClose)
		o.All = true
		return []*Order{o}
	}
	all := newOrder(KOpen)
	all.All = true
	out := []*Order{all}
	for _, c := range closed {
		o := newOrder(KClose)
		o.Card = c
		out = append(out, o)
	}
	return out
}

func (s *steady) trade() []*Order {
	w, p, sc := s.w, s.p, s.sc
	cash := -1 // buys nothing unless a home area is outnumbered
	if h, _ := s.outnumbered(); h >= 0 {
		cash = p.Cash - s.buildReserve() - sc.Costs.Forces.Cash
	}
	trades := p.Trades
	var out []*Order
	for r := Resource(0); r < nResources && trades < sc.Rules.TradesPerTurn; r++ {
		have, price := *p.res(r), w.price(r)
		switch {
		case have > keepResource && p.Bought&(1<<r) == 0:
			o := newOrder(KSell)
			o.Res, o.N = r, have-keepResource
			out = append(out, o)
			trades++
		case have == 0 && w.room(s.i, r) > 0 && p.Sold&(1<<r) == 0 && price <= cash:
			o := newOrder(KBuy)
			o.Res, o.N = r, 1
			out = append(out, o)
			cash -= price
			trades++
		}
	}
	return out
}

// outnumbered is the controlled home area the other players' pieces
// outnumber most (ties: the first), with the margin; -1 when none is.
func (s *steady) outnumbered() (int, int) {
	best, most := -1, 0
	for _, h := range s.homes() {
		if !s.w.controls(s.i, h) {
			continue
		}
		if d := s.threat(h) - s.w.armies(s.i, h); d > most {
			best, most = h, d
		}
	}
	return best, most
}

// buildReserve is the cash the autopilot keeps after a build: two turns
// of salaries with the three new armies.
func (s *steady) buildReserve() int {
	return 2 * (s.upkeep() + s.sc.Costs.Forces.Count*s.sc.Rules.ForceSalary)
}

// keepResource is how much of each resource the autopilot keeps at the
// trade: a set for a build and one more for a move.
const keepResource = 2

func (s *steady) attack() []*Order {
	if st := s.w.attack; st != nil {
		switch st.Stage {
		case "confirm":
			return []*Order{newOrder(KCallOff)}
		case "counter":
			if len(s.p.Reactions) > 0 {
				return nil // the standing counterattack answers
			}
		}
	}
	return []*Order{newOrder(KPass)}
}

func (s *steady) moves() []*Order {
	w, sc, p := s.w, s.sc, s.p
	moved := map[int]int{} // armies moved in (+) and out (-) by these orders
	deficit := func(h int) int { return s.threat(h) - w.armies(s.i, h) - moved[h] }
	var homes []int
	for _, h := range s.homes() {
		if w.controls(s.i, h) && deficit(h) > 0 {
			homes = append(homes, h)
		}
	}
	slices.SortStableFunc(homes, func(a, b int) int { return deficit(b) - deficit(a) })
	grain := p.Grain
	var out []*Order
	for _, h := range homes {
		if grain == 0 {
			break
		}
		// the neighbour with the most armies to spare; only armies that
		// were there at the start leave (what Check counts)
		from, most := -1, 0
		for _, b := range sc.areas[h].land {
			if w.dead[b] || !w.controls(s.i, b) {
				continue
			}
			here := w.armies(s.i, b) + min(0, moved[b])
			if spare := here - max(1, s.threat(b)); spare > most {
				from, most = b, spare
			}
		}
		if from < 0 {
			continue
		}
		n := min(most, deficit(h))
		o := newOrder(KMove)
		o.Legs = []Leg{{N: n, From: from, To: h}}
		out = append(out, o)
		moved[from] -= n
		moved[h] += n
		grain--
	}
	return out
}

func (s *steady) build() []*Order {
	w, p, sc := s.w, s.p, s.sc
	per, cost := sc.Costs.Forces.Count, sc.Costs.Forces.Cash
	if p.Oil < 1 || p.Minerals < 1 || p.Grain < 1 || p.Cash-cost < s.buildReserve() {
		return nil
	}
	best, _ := s.outnumbered()
	if best < 0 || (&run{w: w, sc: sc}).buildPlaceOK(s.i, best) != "" {
		return nil
	}
	o := newOrder(KBuild)
	o.Parts = []Leg{{N: per, From: -1, To: best}}
	return []*Order{o}
}
