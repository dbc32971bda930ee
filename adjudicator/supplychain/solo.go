package supplychain

import "fmt"

// The 1-player solo game (seed, "Set up for 1-player and Co-op games"):
// place as many of the fifteen properties as possible; contracts and
// vehicles may be taken as needed, one of each kind; no money, no turns.
// By mail, every mail is a batch of orders checked as one placement, and
// FINISH (or a deadline without orders) ends the game.

func (g *game) runSolo(os []Order, check bool) []result {
	res := make([]result, len(os))
	type sstep struct {
		orders []int
		group  string
	}
	var steps []sstep
	groups := map[string]int{}
	finish := false
	for i := range os {
		o := &os[i]
		res[i].query = o.isQuery()
		if o.isQuery() {
			continue
		}
		key := ""
		switch o.Verb {
		case VerbPlace, VerbMove, VerbToken:
			key = "place"
		case VerbClose:
			key = "close"
		case VerbSpin, VerbPick, VerbReturn:
		case VerbFinish:
			if g.handIndex(0, g.players[0].starter) >= 0 && !isDefaultFinish(o) {
				placedLater := false
				for _, x := range os {
					placedLater = placedLater || (x.Verb == VerbPlace && g.matches(x.Card, g.players[0].starter))
				}
				if !placedLater {
					res[i].err = fmt.Errorf("you must place your Starter business %s before you finish", g.cname(g.players[0].starter))
					continue
				}
			}
			finish = true
			res[i].canon = o.format(g.d)
			continue
		case VerbRemove:
			res[i].err = fmt.Errorf("in the solo game CLOSE takes a placed card back into your hand")
			continue
		default:
			res[i].err = fmt.Errorf("the solo game knows PLACE, MOVE, CLOSE, SPIN, TOKEN, TAKE, RETURN and FINISH")
			continue
		}
		if key != "" {
			if k, ok := groups[key]; ok {
				steps[k].orders = append(steps[k].orders, i)
				continue
			}
			groups[key] = len(steps)
		}
		steps = append(steps, sstep{orders: []int{i}, group: key})
	}
	for _, st := range steps {
		o := &os[st.orders[0]]
		var ptrs []*Order
		for _, i := range st.orders {
			ptrs = append(ptrs, &os[i])
		}
		err := g.try(func(c *game) error {
			switch {
			case st.group == "place":
				return c.placeGroup(0, ptrs, true)
			case st.group == "close":
				return c.closeCards(0, ptrs)
			case o.Verb == VerbSpin:
				return c.spin(0, o)
			case o.Verb == VerbPick:
				return c.soloTake(o)
			case o.Verb == VerbReturn:
				return c.soloReturn(o)
			}
			return fmt.Errorf("not a solo order")
		})
		for _, i := range st.orders {
			if err != nil {
				res[i].err = err
			} else {
				res[i].canon = os[i].format(g.d)
			}
		}
		if err != nil && !check {
			g.say("%s — %v.", o.format(g.d), err)
		}
	}
	if finish {
		g.endSolo()
	}
	return res
}

// soloTake takes a contract or vehicle from its deck: one of each kind.
func (g *game) soloTake(o *Order) error {
	c := -1
	for _, a := range []Area{AreaContracts, AreaVehicles} {
		if x, err := g.inArea(a, o.Card); err == nil {
			c = x
			break
		}
	}
	if c < 0 {
		return fmt.Errorf("%s is not in the Contract or Vehicle deck", g.refText(o.Card))
	}
	o.Card = codeRef(c)
	name := g.card(c).Name
	for _, h := range g.players[0].hand {
		if g.card(h.card).Name == name {
			return fmt.Errorf("you have a %s already: one of each kind", name)
		}
	}
	for _, p := range g.teams[0].placed {
		if g.card(p.card).Name == name {
			return fmt.Errorf("you have placed a %s already: one of each kind", name)
		}
	}
	if g.card(c).Kind == KindContract {
		g.contracts = removeInt(g.contracts, c)
	} else {
		g.vehicles = removeInt(g.vehicles, c)
	}
	g.players[0].hand = append(g.players[0].hand, handCard{card: c})
	g.say("You take %s.", g.cname(c))
	return nil
}

func (g *game) soloReturn(o *Order) error {
	c, err := g.inHand(0, o.Card, nil)
	if err != nil {
		return err
	}
	o.Card = codeRef(c)
	if k := g.card(c).Kind; k != KindContract && k != KindVehicle {
		return fmt.Errorf("only contracts and vehicles go back; your properties stay to be placed")
	}
	g.takeFromHand(0, c)
	g.abandon(c)
	g.say("You put %s back.", g.cname(c))
	return nil
}

// isDefaultFinish: the FINISH the engine takes at a deadline without orders.
func isDefaultFinish(o *Order) bool { return o.N == -1 }

func (g *game) endSolo() {
	g.phase = phaseOver
	g.winners = []string{g.players[0].power}
	g.say("The solo game ends: %d VP, %s used, %s not placed.", g.vp(0, true), count(g.contractsPlaced(0), "contract"), count(len(g.players[0].hand), "card"))
}
