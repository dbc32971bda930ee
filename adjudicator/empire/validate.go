package empire

import (
	"errors"
	"fmt"
	"sort"
)

// orderSet is a power's accepted orders for the current step.
type orderSet struct {
	sent      bool          // the power sent orders (possibly none valid)
	moves     map[*Unit]Pos // tactical: new positions (HOLD: the current one)
	retreat   map[*Unit]int // tactical: standing retreat orders (hex kept, -1 default)
	sacrifice []string      // units to use up if their group is out of supply, in order
	ceasefire bool          // tactical: the power is done with tactical operations
	keep      map[*Unit]int // deployment: units settling in a hex (-1 default)
	pool      map[*Unit]bool
	transform map[*Unit]bool
	bid       int // 0: none
	buys      []Order
	place     map[*Unit]int
	save      map[*Unit]int
	accepted  []Order // in the order written
}

// verdict is what became of one order of a list.
type verdict struct {
	err  error  // not accepted
	warn string // accepted with a remark
}

// collect validates a power's orders for the current step, in the order
// written: a later order for the same unit replaces an earlier one.
func (g *Game) collect(p string, list []Order) (*orderSet, []verdict) {
	s := &orderSet{moves: map[*Unit]Pos{}, retreat: map[*Unit]int{}, keep: map[*Unit]int{}, pool: map[*Unit]bool{},
		transform: map[*Unit]bool{}, place: map[*Unit]int{}, save: map[*Unit]int{}}
	vs := make([]verdict, len(list))
	slot := map[string]int{} // slot key -> index of the order holding it
	take := func(i int, key string) {
		if j, ok := slot[key]; ok {
			vs[j].err = errReplaced
		}
		slot[key] = i
	}
	var buyBudget map[*group]int
	var terrs []*territory
	if g.Step == stepBuild {
		terrs = g.territories(p)
		buyBudget = map[*group]int{}
		for _, t := range terrs {
			buyBudget[t.gr] = t.budget(g.Turns)
		}
	}
	for i, o := range list {
		var u *Unit
		if o.Unit != "" {
			if u = g.find(p, o.Unit); u == nil {
				vs[i].err = fmt.Errorf("you have no unit %s", o.Unit)
				continue
			}
		}
		if err := g.stepAllows(o.Kind); err != nil {
			vs[i].err = err
			continue
		}
		switch o.Kind {
		case OrderMove, OrderHold:
			pos := o.Pos
			if o.Kind == OrderHold {
				pos = u.pos()
			}
			if err := g.canTake(u, pos); err != nil {
				vs[i].err = err
				continue
			}
			take(i, "move "+u.Name())
		case OrderRetreat:
			switch {
			case !g.Opts.Retreat:
				vs[i].err = errors.New("the optional retreat rule is not used in this game")
			case !u.Type.Mobile():
				vs[i].err = fmt.Errorf("%s is stationary and cannot retreat", u.Name())
			case o.Pos.At >= 0 && !u.Type.fast():
				vs[i].err = fmt.Errorf("%s moves half a hex a turn: it may only retreat out of the hex it half occupies, so name no hex", u.Name())
			default:
				take(i, "retreat "+u.Name())
			}
		case OrderSacrifice:
			if u.Pooled && g.Step != stepDeploy {
				vs[i].err = fmt.Errorf("%s is in a unit pool", u.Name())
				continue
			}
			take(i, "sacrifice "+u.Name())
		case OrderCeasefire, OrderFightOn:
			take(i, "ceasefire")
		case OrderKeep, OrderPool, OrderTransform:
			if err := g.deployAllows(u, o); err != nil {
				vs[i].err = err
				continue
			}
			take(i, "deploy "+u.Name())
		case OrderBid:
			if o.N < 1 || o.N > g.Opts.MaxBid {
				vs[i].err = fmt.Errorf("bid 1 to %d strategic turns", g.Opts.MaxBid)
				continue
			}
			take(i, "bid")
		case OrderBuy:
			t := g.buyable(o.Type)
			if t == nil {
				vs[i].err = fmt.Errorf("%s cannot be bought (factories make: %s)", o.Type, g.buyableList())
				continue
			}
			if o.N < 1 || o.N > 99 {
				vs[i].err = errors.New("buy 1 to 99 units in one line")
				continue
			}
			tr := territoryAt(terrs, o.Pos.At)
			if tr == nil || len(tr.factories) == 0 {
				vs[i].err = fmt.Errorf("%s is not in one of your territories with a factory (units are placed in a hex of your units' territory)", g.World.HexName(o.Pos.At))
				continue
			}
			cost := o.N * t.Cost
			if left := buyBudget[tr.gr]; cost > left {
				vs[i].err = fmt.Errorf("%d %s cost %d points; the territory of %s has %d left", o.N, t.Code, cost, g.World.HexName(o.Pos.At), left)
				continue
			}
			buyBudget[tr.gr] -= cost
		case OrderPlace:
			if !u.Pooled {
				vs[i].err = fmt.Errorf("%s is not in a unit pool: it stays where it is", u.Name())
				continue
			}
			tr := territoryAt(terrs, u.At)
			if tr == nil || groupOf([]*group{tr.gr}, o.Pos.At) == nil {
				vs[i].err = fmt.Errorf("%s is not in the territory of %s's pool", g.World.HexName(o.Pos.At), u.Name())
				continue
			}
			take(i, "place "+u.Name())
		case OrderSave:
			if !u.Type.ProducesUnits {
				vs[i].err = fmt.Errorf("%s is not a factory: points are saved in factories", u.Name())
				continue
			}
			take(i, "save "+u.Name())
		}
	}
	for i, o := range list {
		if vs[i].err != nil {
			continue
		}
		s.accepted = append(s.accepted, o)
		u := g.find(p, o.Unit)
		switch o.Kind {
		case OrderMove:
			s.moves[u] = o.Pos
		case OrderHold:
			s.moves[u] = u.pos()
		case OrderRetreat:
			s.retreat[u] = o.Pos.At
		case OrderSacrifice:
			s.sacrifice = append(s.sacrifice, u.Name())
		case OrderCeasefire:
			s.ceasefire = true
		case OrderFightOn:
			s.ceasefire = false
		case OrderKeep:
			s.keep[u] = o.Pos.At
		case OrderPool:
			s.pool[u] = true
		case OrderTransform:
			s.transform[u] = true
		case OrderBid:
			s.bid = o.N
		case OrderBuy:
			s.buys = append(s.buys, o)
		case OrderPlace:
			s.place[u] = o.Pos.At
		case OrderSave:
			s.save[u] = o.N
		}
	}
	// Savings beyond what the purchases leave are only warned about: the
	// rest of a territory's points is saved anyway.
	if g.Step == stepBuild {
		asked := map[*group]int{}
		for i, o := range list {
			if vs[i].err != nil || o.Kind != OrderSave {
				continue
			}
			u := g.find(p, o.Unit)
			tr := territoryAt(terrs, u.At)
			asked[tr.gr] += o.N
			if asked[tr.gr] > buyBudget[tr.gr] {
				vs[i].warn = fmt.Sprintf("only %d points are left in the territory of %s: that is what is saved", buyBudget[tr.gr], u.Name())
			}
		}
	}
	return s, vs
}

var errReplaced = errors.New("replaced by a later order")

// stepAllows reports whether an order kind belongs to the current step.
func (g *Game) stepAllows(k OrderKind) error {
	var ok bool
	var what string
	switch g.Step {
	case stepTactical:
		ok = k == OrderMove || k == OrderHold || k == OrderRetreat || k == OrderSacrifice || k == OrderCeasefire || k == OrderFightOn
		what = "moves (RID3 C4-D4, RID3 C4, RID3 HOLD), SACRIFICE, CEASEFIRE"
		if g.Opts.Retreat {
			what += ", RETREAT"
		}
	case stepDeploy:
		ok = k == OrderKeep || k == OrderPool || k == OrderTransform || k == OrderSacrifice
		what = "KEEP, POOL, TRANSFORM and SACRIFICE"
	case stepBid:
		ok = k == OrderBid
		what = "BID"
	case stepBuild:
		ok = k == OrderBuy || k == OrderPlace || k == OrderSave
		what = "BUY, PLACE and SAVE"
	}
	if !ok {
		return fmt.Errorf("not an order for this phase (%s): here the orders are %s", g.phaseTitle(), what)
	}
	return nil
}

// deployAllows checks KEEP, POOL and TRANSFORM.
func (g *Game) deployAllows(u *Unit, o Order) error {
	switch o.Kind {
	case OrderKeep:
		if o.Pos.At >= 0 && !u.in(o.Pos.At) {
			return fmt.Errorf("%s is %s: it can only stay where it is", u.Name(), g.posText(u))
		}
	case OrderPool:
		if !u.Type.Mobile() {
			return fmt.Errorf("%s is stationary: it stays on the board", u.Name())
		}
	case OrderTransform:
		if u.Type.TransformsTo == "" {
			return fmt.Errorf("%s is not a headquarters that can transform (army group, army and corps headquarters can)", u.Name())
		}
		if _, ok := g.typeInPlay(u.Type.TransformsTo); !ok {
			return fmt.Errorf("%s would become a %s, which is not in this game's unit set", u.Name(), u.Type.TransformsTo)
		}
	}
	return nil
}

// buyable returns the type with that code if factories make it here.
func (g *Game) buyable(code string) *UnitType {
	for _, t := range g.Types {
		if t.Code == code && t.Mobile() {
			return t
		}
	}
	return nil
}

func (g *Game) buyableList() string {
	var out []string
	for _, t := range g.Types {
		if t.Mobile() {
			out = append(out, fmt.Sprintf("%s %d", t.Code, t.Cost))
		}
	}
	sort.Strings(out)
	return fmt.Sprint(out)
}
