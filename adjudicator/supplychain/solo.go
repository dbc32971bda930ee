package supplychain

import (
	"fmt"
	"sort"
)

// The solo game (seed, "Set up for 1-player and Co-op games"): place as
// many of the fifteen properties as possible; contracts and vehicles may
// be taken as needed, one of each kind; no money, no turns. By mail, every
// mail is a batch of orders checked as one placement, and FINISH (or a
// deadline without orders) ends the player's game. Two players may play
// it side by side from one Short Deck (the seed's aside): each on his own
// tableau, from the same Contract and Vehicle decks; the game ends when
// both have finished.

func (g *game) runSolo(p int, os []Order, check bool) []result {
	res := make([]result, len(os))
	if g.players[p].done {
		for i := range os {
			if res[i].query = os[i].isQuery(); !res[i].query {
				res[i].err = fmt.Errorf("your solitaire game is finished; the other player's goes on")
			}
		}
		return res
	}
	finish := -1
	var batch []int
	for i := range os {
		o := &os[i]
		res[i].query = o.isQuery()
		switch {
		case o.isQuery():
		case o.Verb == VerbFinish:
			finish = i
		case o.Verb == VerbRemove:
			res[i].err = fmt.Errorf("in the solo game CLOSE takes a placed card back into your hand")
		case o.Verb == VerbPlace || o.Verb == VerbMove || o.Verb == VerbToken || o.Verb == VerbClose ||
			o.Verb == VerbSpin || o.Verb == VerbPick || o.Verb == VerbReturn:
			batch = append(batch, i)
		default:
			res[i].err = fmt.Errorf("the solo game knows PLACE, MOVE, CLOSE, SPIN, TOKEN, PICK, RETURN and FINISH")
		}
	}
	if len(batch) > 0 {
		bad := -1
		err := g.try(func(c *game) error {
			var err error
			bad, err = c.soloBatch(p, os, batch)
			return err
		})
		for _, i := range batch {
			switch {
			case err == nil:
				res[i].canon = os[i].format(g.d)
			case i == bad:
				res[i].err = err
			default:
				res[i].err = fmt.Errorf("not carried out: the mail's orders are one batch, and another line failed")
			}
		}
		if err != nil && !check {
			g.say("Your orders were refused as a whole: %v.", err)
		}
	}
	if finish >= 0 {
		o := &os[finish]
		switch {
		case g.handIndex(p, g.players[p].starter) >= 0 && !isDefaultFinish(o):
			res[finish].err = fmt.Errorf("you must place your Starter business %s before you finish", g.cname(g.players[p].starter))
		default:
			res[finish].canon = o.format(g.d)
			g.endSolo(p)
		}
	}
	return res
}

// soloBatch carries out one mail of the solo game: contracts and vehicles
// are picked and returned, cards closed and spun, then the placement; the
// tableau is checked once, at the end. It returns the order that failed.
func (g *game) soloBatch(p int, os []Order, batch []int) (int, error) {
	t := g.teamOf(p)
	var place []*Order
	first := batch[0]
	for _, verbs := range [][]Verb{{VerbPick}, {VerbClose}, {VerbReturn}, {VerbSpin}} {
		for _, i := range batch {
			o := &os[i]
			if o.Verb != verbs[0] {
				continue
			}
			var err error
			switch o.Verb {
			case VerbPick:
				err = g.soloTake(p, o)
			case VerbReturn:
				err = g.soloReturn(p, o)
			case VerbClose, VerbSpin:
				var c int
				c, err = g.inPlaced(t, o.Card)
				if err == nil {
					o.Card = codeRef(c)
					k := placedIndex(t, c)
					if o.Verb == VerbSpin {
						t.placed[k].rot = (t.placed[k].rot + o.N) & 3
					} else if err = g.mayPart(p, c, "close"); err == nil {
						t.placed = append(t.placed[:k], t.placed[k+1:]...)
						g.players[p].hand = append(g.players[p].hand, handCard{card: c})
					}
				}
			}
			if err != nil {
				return i, err
			}
		}
	}
	for _, i := range batch {
		if v := os[i].Verb; v == VerbPlace || v == VerbMove || v == VerbToken {
			place = append(place, &os[i])
		}
	}
	normalizeToken(t)
	if len(place) > 0 {
		if err := g.placeGroup(p, place, true); err != nil {
			for _, i := range batch {
				if &os[i] == place[0] {
					return i, err
				}
			}
		}
		return -1, nil
	}
	if prob := analyze(g.d, t, g.opt.Laissez).problem(); prob != "" {
		return first, fmt.Errorf("%s", prob)
	}
	return -1, nil
}

// soloTake takes a contract or vehicle from its deck: one of each kind.
func (g *game) soloTake(p int, o *Order) error {
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
	for _, h := range g.players[p].hand {
		if g.card(h.card).Name == name {
			return fmt.Errorf("you have a %s already: one of each kind", name)
		}
	}
	for _, pc := range g.teamOf(p).placed {
		if g.card(pc.card).Name == name {
			return fmt.Errorf("you have placed a %s already: one of each kind", name)
		}
	}
	if g.card(c).Kind == KindContract {
		g.contracts = removeInt(g.contracts, c)
	} else {
		g.vehicles = removeInt(g.vehicles, c)
	}
	g.players[p].hand = append(g.players[p].hand, handCard{card: c})
	g.say("%s %s.", g.soloWho(p, "take", "takes"), g.cname(c))
	return nil
}

// soloWho is "You" in the 1-player game, the player's colour side by side.
func (g *game) soloWho(p int, you, they string) string {
	if len(g.players) == 1 {
		return "You " + you
	}
	return titleCase(g.players[p].power) + " " + they
}

func (g *game) soloReturn(p int, o *Order) error {
	c, err := g.inHand(p, o.Card, nil)
	if err != nil {
		return err
	}
	o.Card = codeRef(c)
	if k := g.card(c).Kind; k != KindContract && k != KindVehicle {
		return fmt.Errorf("only contracts and vehicles go back; your properties stay to be placed")
	}
	g.takeFromHand(p, c)
	g.abandon(c)
	g.say("%s %s back.", g.soloWho(p, "put", "puts"), g.cname(c))
	return nil
}

// isDefaultFinish: the FINISH the engine takes at a deadline without orders.
func isDefaultFinish(o *Order) bool { return o.N == -1 }

// endSolo finishes player p's solitaire game; when every player has
// finished, the game is over. Side by side the winner has the most VP,
// then the fewer contracts (the seed's tie breaker); still tied, they
// share.
func (g *game) endSolo(p int) {
	g.players[p].done = true
	ti := g.players[p].team
	if len(g.players) == 1 {
		g.say("The solo game ends: %d VP, %s used, %s not placed.", g.vp(ti, true), count(g.contractsPlaced(ti), "contract"), count(len(g.players[p].hand), "card"))
	} else {
		g.say("%s's solitaire game ends: %d VP, %s used, %s not placed.", titleCase(g.players[p].power), g.vp(ti, true), count(g.contractsPlaced(ti), "contract"), count(len(g.players[p].hand), "card"))
	}
	for _, pl := range g.players {
		if !pl.done {
			return
		}
	}
	g.phase = phaseOver
	best, fewest := -1<<31, 1<<31
	g.winners = nil
	for q, pl := range g.players {
		v, c := g.vp(pl.team, true), g.contractsPlaced(pl.team)
		switch {
		case v > best || v == best && c < fewest:
			best, fewest = v, c
			g.winners = []string{g.players[q].power}
		case v == best && c == fewest:
			g.winners = append(g.winners, g.players[q].power)
		}
	}
	sort.Strings(g.winners)
}
