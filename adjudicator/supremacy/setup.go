package supremacy

import (
	"fmt"
	"strings"
)

// newGame deals the cards and sets the board for the set-up phase
// (seed: Set-Up).
func newGame(sc *Scenario, opt Options, seed int64) *world {
	w := newWorld(sc, opt)
	w.phase = PhaseSetup
	played := map[string]bool{}
	for _, p := range opt.Powers {
		played[p] = true
	}
	for pi, sp := range sc.powers {
		if !played[sp.ID] {
			continue
		}
		p := &player{ID: sp.ID, Status: statusPlaying, Cards: 1, ABMPolicy: "own", TechICBM: opt.Fast, idx: pi}
		w.byPower[pi] = len(w.players)
		w.players = append(w.players, p)
		w.pay(w.byPower[pi], -sc.Rules.StartCash)
	}
	for r := range w.market {
		w.market[r] = sc.Market.Start
	}
	r := newRun(w, seed)
	for i := range w.players {
		r.draw(i, w.handSize())
	}
	w.order = r.shuffle(w.alivePlayers())
	return w
}

func (w *world) handSize() int {
	if w.opt.Fast {
		return w.sc.Rules.FastStartCards
	}
	return w.sc.Rules.StartCards
}

// draw deals n random company cards from the deck to player i.
func (r *run) draw(i, n int) []int {
	w := r.w
	var deck []int
	for c, at := range w.cardAt {
		if at == cardDeck && !w.cardDed[c] && r.sc.cards[c].company != nil {
			deck = append(deck, c)
		}
	}
	deck = r.shuffle(deck)
	if n > len(deck) {
		n = len(deck)
	}
	for _, c := range deck[:n] {
		w.cardAt[c] = i
		w.cardOpn[c] = false
	}
	return sortedInts(deck[:n])
}

// setup resolves the set-up phase: misdeals in the drawn order, then the
// free placement of each player's forces (seed: Set-Up, Misdeal).
func (r *run) setup(ords [][]*Order) {
	w := r.w
	r.rep.public("Set-up, in the drawn order: %s", r.orderText())
	for _, i := range w.order {
		for _, o := range ords[i] {
			if o.Kind != KMisdeal {
				continue
			}
			p := w.players[i]
			if p.Misdealt {
				r.rep.public("  %s: a misdeal is allowed once only.", w.pname(i))
				continue
			}
			p.Misdealt = true
			old := w.companies(i)
			for _, c := range old {
				w.cardAt[c] = -100 // aside while the new hand is drawn
			}
			hand := r.draw(i, len(old))
			for _, c := range old {
				w.cardAt[c] = cardDeck
			}
			r.rep.public("  %s declares a misdeal: %s go back to the deck; new hand: %s.", w.pname(i), r.cardList(old), r.cardList(hand))
		}
	}
	for _, i := range w.order {
		r.place(i, ords[i])
	}
}

// place puts a player's starting forces on the board: armies in home
// areas, navies in seas next to a home area; what is not placed validly
// becomes armies spread over the home areas.
func (r *run) place(i int, ords []*Order) {
	w := r.w
	left := w.sc.Rules.StartForces
	var done []string
	for _, o := range ords {
		if o.Kind != KPlace {
			continue
		}
		for _, part := range o.Parts {
			if err := r.placeOK(i, part.To); err != "" {
				r.rep.public("  %s: %s", w.pname(i), err)
				continue
			}
			n := min(part.N, left)
			if n < part.N {
				r.rep.public("  %s: only %d forces are placed at set-up; %d more in %s ignored.", w.pname(i), w.sc.Rules.StartForces, part.N-n, w.sc.areaName(part.To))
			}
			if n == 0 {
				continue
			}
			if w.isSea(part.To) {
				w.addNavies(i, part.To, n)
				done = append(done, plural(n, "navy", "navies")+" in "+w.sc.areaName(part.To))
			} else {
				w.addArmies(i, part.To, n)
				done = append(done, plural(n, "army", "armies")+" in "+w.sc.areaName(part.To))
			}
			left -= n
		}
	}
	if left > 0 {
		homes := w.sc.powers[w.players[i].idx].homes
		extra := map[int]int{}
		for k := 0; k < left; k++ {
			extra[homes[k%len(homes)]]++
		}
		for _, a := range homes {
			if n := extra[a]; n > 0 {
				w.addArmies(i, a, n)
				done = append(done, plural(n, "army", "armies")+" in "+w.sc.areaName(a)+" (by default)")
			}
		}
	}
	r.rep.public("  %s places %s.", w.pname(i), strings.Join(done, ", "))
}

// placeOK says why a set-up placement is not allowed ("" when it is).
func (r *run) placeOK(i, a int) string {
	w := r.w
	sp := w.sc.powers[w.players[i].idx]
	if w.isSea(a) {
		for _, h := range sp.homes {
			if w.sc.adjacent(h, a) {
				return ""
			}
		}
		return fmt.Sprintf("navies start in a sea next to a home area, not in %s", w.sc.areaName(a))
	}
	if w.sc.areas[a].home != w.players[i].idx {
		return fmt.Sprintf("armies start in a home area, not in %s", w.sc.areaName(a))
	}
	return ""
}

func (r *run) cardList(cs []int) string {
	if len(cs) == 0 {
		return "none"
	}
	names := make([]string, len(cs))
	for k, c := range cs {
		names[k] = r.sc.cards[c].name
	}
	return strings.Join(names, ", ")
}

func (r *run) orderText() string {
	names := make([]string, len(r.w.order))
	for k, i := range r.w.order {
		names[k] = r.w.pname(i)
	}
	return strings.Join(names, ", ")
}
