package supremacy

import (
	"fmt"
	"strings"
)

// moveStatic says why a movement order can never be carried out ("" when
// it may be), whatever the position.
func (sc *Scenario) moveStatic(o *Order) string {
	if len(o.Legs) == 0 {
		return "no move given"
	}
	sameFrom, sameTo := true, true
	for _, l := range o.Legs {
		sameFrom = sameFrom && l.From == o.Legs[0].From
		sameTo = sameTo && l.To == o.Legs[0].To
		if l.From == l.To {
			return sc.areaName(l.From) + " to itself is no move"
		}
		if sc.areas[l.From].sea != sc.areas[o.Legs[0].From].sea {
			return "one order moves armies or navies, not both"
		}
	}
	if !sameFrom && !sameTo {
		return "a group move either leaves from one area or ends in one area (seed: Costs)"
	}
	navy := sc.areas[o.Legs[0].From].sea
	switch o.Kind {
	case KMove:
		for _, l := range o.Legs {
			if sc.areas[l.To].sea != navy {
				if navy {
					return "navies move from sea to sea"
				}
				return "armies move from land to land (by sea: TRANSPORT)"
			}
			if !navy && !sc.armyBorder(l.From, l.To) {
				if sc.adjacent(l.From, l.To) {
					return "armies cannot cross the impassable border between " + sc.areaName(l.From) + " and " + sc.areaName(l.To)
				}
				return fmt.Sprintf("an army moves %d area for 1 grain; %s does not border %s (RAIL or AIRLIFT go further)", sc.Rules.ArmyRange, sc.areaName(l.From), sc.areaName(l.To))
			}
		}
	case KRail, KAirlift, KTransport:
		for _, l := range o.Legs {
			if navy || sc.areas[l.To].sea {
				return "only armies go by rail, air lift or naval transport"
			}
		}
		if o.Kind == KAirlift {
			n := 0
			for _, l := range o.Legs {
				if l.N == 0 {
					return fmt.Sprintf("say how many armies fly (%d at most)", sc.Rules.AirliftArmies)
				}
				n += l.N
			}
			if n > sc.Rules.AirliftArmies {
				return fmt.Sprintf("an air lift carries %d armies at most", sc.Rules.AirliftArmies)
			}
		}
		if o.Kind == KTransport {
			if !sc.areas[o.Via].sea {
				return sc.areaName(o.Via) + " is not a sea area"
			}
			if o.ViaTo >= 0 && !sc.areas[o.ViaTo].sea {
				return sc.areaName(o.ViaTo) + " is not a sea area"
			}
			final := o.Via
			if o.ViaTo >= 0 {
				final = o.ViaTo
			}
			for _, l := range o.Legs {
				if !sc.adjacent(l.From, o.Via) {
					return sc.areaName(o.Via) + " does not border " + sc.areaName(l.From)
				}
				if !sc.adjacent(l.To, final) {
					return sc.areaName(final) + " does not border " + sc.areaName(l.To)
				}
			}
		}
	}
	return ""
}

// moveCheck says why player i cannot carry out a movement order now, and
// returns the pieces each leg moves.
func (r *run) moveCheck(i int, o *Order) ([]int, string) {
	w := r.w
	sc := r.sc
	if why := sc.moveStatic(o); why != "" {
		return nil, why
	}
	navy := w.isSea(o.Legs[0].From)
	counts := make([]int, len(o.Legs))
	left := map[int]int{}
	for k, l := range o.Legs {
		if _, ok := left[l.From]; !ok {
			if navy {
				left[l.From] = w.navies(i, l.From)
			} else {
				left[l.From] = w.armies(i, l.From)
			}
		}
		n := l.N
		if n == 0 {
			n = left[l.From]
		}
		if n == 0 || n > left[l.From] {
			return nil, fmt.Sprintf("you have %d %s in %s", left[l.From], map[bool]string{true: "navies", false: "armies"}[navy], sc.areaName(l.From))
		}
		left[l.From] -= n
		counts[k] = n
		to := sc.areaName(l.To)
		switch {
		case w.dead[l.To]:
			return nil, to + " is destroyed and out of play"
		case navy:
			if w.navyOthers(i, l.To) {
				return nil, "navies move only into seas without other navies; " + to + " has some"
			}
			if w.seaPath(i, l.From, l.To, sc.Rules.NavyRange, true) < 0 {
				return nil, fmt.Sprintf("no route of %d seas or less from %s to %s through seas free of other navies and open choke points", sc.Rules.NavyRange, sc.areaName(l.From), to)
			}
		case !w.controls(i, l.To):
			return nil, "armies move only into areas you control; you do not control " + to
		case o.Kind == KRail && !w.railPath(i, l.From, l.To):
			return nil, fmt.Sprintf("no rail line through land you control from %s to %s", sc.areaName(l.From), to)
		}
	}
	if o.Kind == KAirlift {
		total := 0
		for _, n := range counts {
			total += n
		}
		if total > sc.Rules.AirliftArmies {
			return nil, fmt.Sprintf("an air lift carries %d armies at most", sc.Rules.AirliftArmies)
		}
	}
	if o.Kind == KTransport {
		total := 0
		for _, n := range counts {
			total += n
		}
		nav := w.navies(i, o.Via)
		if total > nav*sc.Rules.TransportPerNavy {
			return nil, fmt.Sprintf("your %s in %s carry %d armies at most", plural(nav, "navy", "navies"), sc.areaName(o.Via), nav*sc.Rules.TransportPerNavy)
		}
		if o.ViaTo >= 0 {
			if w.navyOthers(i, o.ViaTo) || w.seaPath(i, o.Via, o.ViaTo, sc.Rules.NavyRange, true) < 0 {
				return nil, fmt.Sprintf("your navies cannot sail from %s to %s now", sc.areaName(o.Via), sc.areaName(o.ViaTo))
			}
		}
	}
	p := w.players[i]
	cost, res := 1, Oil
	if o.Kind == KMove && !navy {
		res = Grain
	}
	if *p.res(res) < cost {
		return nil, fmt.Sprintf("it costs 1 %s; you have none", res)
	}
	return counts, ""
}

// move carries out a movement order (seed: Move, Costs, Rail Move, Air
// Lift, Naval Transport).
func (r *run) move(i int, o *Order) bool {
	w := r.w
	counts, why := r.moveCheck(i, o)
	if why != "" {
		r.rep.public("  %s cannot carry out %s: %s.", w.pname(i), r.sc.format(o), why)
		return false
	}
	navy := w.isSea(o.Legs[0].From)
	res := Oil
	if o.Kind == KMove && !navy {
		res = Grain
	}
	*w.players[i].res(res) -= 1
	var parts []string
	for k, l := range o.Legs {
		n := counts[k]
		mk := mark{Kind: "move", Power: w.pid(i), From: []string{r.sc.areas[l.From].ID}, To: r.sc.areas[l.To].ID, Navy: navy, Result: "done"}
		if o.Kind == KTransport {
			mk.Via = r.sc.areas[o.Via].ID
		}
		r.rep.mark(mk)
		if navy {
			w.addNavies(i, l.From, -n)
			w.addNavies(i, l.To, n)
			parts = append(parts, fmt.Sprintf("%s %s → %s", plural(n, "navy", "navies"), r.sc.areaName(l.From), r.sc.areaName(l.To)))
		} else {
			w.addArmies(i, l.From, -n)
			w.addArmies(i, l.To, n)
			parts = append(parts, fmt.Sprintf("%s %s → %s", plural(n, "army", "armies"), r.sc.areaName(l.From), r.sc.areaName(l.To)))
		}
	}
	how := map[Kind]string{KMove: "moves", KRail: "moves by rail", KAirlift: "air lifts", KTransport: "ships"}[o.Kind]
	tail := ""
	if o.Kind == KTransport {
		tail = " through " + r.sc.areaName(o.Via)
		if o.ViaTo >= 0 {
			nav := w.navies(i, o.Via)
			w.addNavies(i, o.Via, -nav)
			w.addNavies(i, o.ViaTo, nav)
			tail += fmt.Sprintf(", the navies sailing on to %s", r.sc.areaName(o.ViaTo))
		}
	}
	r.rep.public("  %s %s %s%s (1 %s).", w.pname(i), how, strings.Join(parts, ", "), tail, res)
	return true
}
