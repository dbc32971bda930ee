package supremacy

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// attacked is who an attack hit, and where: what reactions answer.
type attacked struct {
	defenders []int         // player indexes, in the order first hit
	areas     map[int][]int // defender ⇒ its areas attacked
	strategic bool          // a strategic attack: no reinforcing moves follow
}

func (at *attacked) add(d, a int) {
	if d < 0 {
		return
	}
	if at.areas == nil {
		at.areas = map[int][]int{}
	}
	if _, ok := at.areas[d]; !ok {
		at.defenders = append(at.defenders, d)
	}
	at.areas[d] = append(at.areas[d], a)
}

// act is one activated source of a conventional attack, resolved.
type act struct {
	src      Source
	armies   int // armies attacking (from the land source, or carried)
	navies   int // navies activated (firing, or carrying)
	carriers int // navies needed to carry the armies
	final    int // sea the navies fight from (or in), -1 for armies on land
	moves    bool
}

// techEdge is the player with the most ABMs, strictly (seed: High Tech
// Edge), or -1.
func (w *world) techEdge() int {
	best, bestN, tie := -1, 0, false
	for i, p := range w.players {
		if !p.alive() || p.ABM == 0 {
			continue
		}
		switch {
		case p.ABM > bestN:
			best, bestN, tie = i, p.ABM, false
		case p.ABM == bestN:
			tie = true
		}
	}
	if tie {
		return -1
	}
	return best
}

// attackCheck validates a conventional attack for player i and works out
// its activations; it returns why not when it cannot be made.
func (r *run) attackCheck(i int, o *Order) ([][]act, int, string) {
	w := r.w
	rules := &r.sc.Rules
	used := map[int]bool{}
	activations := 0
	// Seed: Costs — "they spend 1 resource to move a whole group": the
	// navies that sail before combat and end in one sea are one group
	// move and pay 1 oil together.
	moveTo := map[int]bool{}
	acts := make([][]act, len(o.Strikes))
	for k, s := range o.Strikes {
		t := s.Target
		tn := r.sc.areaName(t)
		if w.dead[t] {
			return nil, 0, tn + " is destroyed and out of play"
		}
		activations += len(s.Sources) + (s.Rounds-1)*len(s.Sources)
		if w.isSea(t) {
			d := r.seaDefender(i, s)
			if d < 0 {
				if s.Power != "" {
					return nil, 0, fmt.Sprintf("%s has no navies in %s", s.Power, tn)
				}
				return nil, 0, "there is no single enemy fleet in " + tn + " (name it: ATTACK <power> IN " + r.sc.areas[t].ID + " FROM …)"
			}
		} else if w.controller(t) == i && w.armiesIn(t) == i {
			return nil, 0, "you hold " + tn + " already"
		} else if w.controller(t) == i {
			return nil, 0, tn + " is your own home area"
		}
		for _, src := range s.Sources {
			a := src.Area
			an := r.sc.areaName(a)
			if used[a] {
				return nil, 0, an + " is activated twice (a blitz repeats one activation: BLITZ n)"
			}
			used[a] = true
			ac := act{src: src, final: -1}
			switch {
			case !w.isSea(a) && src.Via < 0:
				if w.isSea(t) {
					return nil, 0, "armies cannot attack navies at sea"
				}
				if ac.armies = w.armies(i, a); ac.armies == 0 {
					return nil, 0, "you have no armies in " + an
				}
				if !r.sc.armyBorder(a, t) {
					if r.sc.adjacent(a, t) {
						return nil, 0, "armies cannot cross the impassable border between " + an + " and " + tn
					}
					return nil, 0, an + " does not border " + tn + " (across the sea: FROM " + r.sc.areas[a].ID + " VIA <sea>)"
				}
			case !w.isSea(a):
				v := src.Via
				if w.isSea(t) {
					return nil, 0, "armies cannot attack navies at sea"
				}
				if !w.isSea(v) || !r.sc.adjacent(a, v) {
					return nil, 0, r.sc.areaName(v) + " is not a sea next to " + an
				}
				if used[v] {
					return nil, 0, r.sc.areaName(v) + " is activated twice"
				}
				used[v] = true
				activations++
				if ac.armies = w.armies(i, a); ac.armies == 0 {
					return nil, 0, "you have no armies in " + an
				}
				if ac.navies = w.navies(i, v); ac.navies == 0 {
					return nil, 0, "you have no navies in " + r.sc.areaName(v) + " to carry the armies"
				}
				ac.armies = min(ac.armies, ac.navies*rules.TransportPerNavy)
				ac.carriers = (ac.armies + rules.TransportPerNavy - 1) / rules.TransportPerNavy
				ac.final = v
				if src.To >= 0 {
					if w.seaPath(i, v, src.To, rules.NavyRange, false) < 0 {
						return nil, 0, fmt.Sprintf("your navies cannot sail from %s to %s (more than %d seas, or a closed choke point)", r.sc.areaName(v), r.sc.areaName(src.To), rules.NavyRange)
					}
					ac.final = src.To
				}
				if !r.sc.adjacent(ac.final, t) {
					return nil, 0, r.sc.areaName(ac.final) + " does not border " + tn
				}
				ac.moves = true // a naval transport is a navy move: one oil
			default:
				if ac.navies = w.navies(i, a); ac.navies == 0 {
					return nil, 0, "you have no navies in " + an
				}
				ac.final = a
				if src.To >= 0 {
					ac.final = src.To
				} else if w.isSea(t) {
					ac.final = t
				}
				if ac.final != a {
					if w.seaPath(i, a, ac.final, rules.NavyRange, false) < 0 {
						return nil, 0, fmt.Sprintf("your navies cannot sail from %s to %s (more than %d seas, or a closed choke point)", an, r.sc.areaName(ac.final), rules.NavyRange)
					}
					ac.moves = true
				}
				if w.isSea(t) && ac.final != t {
					return nil, 0, "navies fight navies in their own sea area: they must sail into " + tn
				}
				if !w.isSea(t) && !r.sc.adjacent(ac.final, t) {
					return nil, 0, r.sc.areaName(ac.final) + " does not border " + tn
				}
			}
			if ac.moves {
				moveTo[ac.final] = true
			}
			acts[k] = append(acts[k], ac)
		}
	}
	if activations > rules.AttackActivations {
		return nil, 0, fmt.Sprintf("an attack activates at most %d areas (a blitz round and a carrying fleet count as one each); this one needs %d", rules.AttackActivations, activations)
	}
	moves := len(moveTo)
	p := w.players[i]
	if p.Oil < 1+moves || p.Minerals < 1 || p.Grain < 1 {
		need := "1 set of supplies (1 oil, 1 minerals, 1 grain)"
		if moves > 0 {
			need += fmt.Sprintf(" and %d oil for the navies' moves", moves)
		}
		return nil, 0, fmt.Sprintf("an attack costs %s; you have %d oil, %d minerals, %d grain", need, p.Oil, p.Minerals, p.Grain)
	}
	return acts, moves, ""
}

// seaDefender is the player whose navies a strike on a sea area fights.
func (r *run) seaDefender(i int, s Strike) int {
	w := r.w
	if s.Power != "" {
		d := w.playerIndex(s.Power)
		if d < 0 || d == i || w.navies(d, s.Target) == 0 {
			return -1
		}
		return d
	}
	who := -1
	for p, n := range w.navy[s.Target] {
		if n > 0 && w.byPower[p] != i {
			if who >= 0 {
				return -1
			}
			who = w.byPower[p]
		}
	}
	return who
}

// conventional carries out a conventional (or blitz) attack (seed:
// Conventional Attack, Blitz Attack, Naval Operations, Naval Invasions).
// It returns who was attacked, or nil when the attack could not be made.
func (r *run) conventional(i int, o *Order, what string) *attacked {
	w := r.w
	p := w.players[i]
	acts, moves, why := r.attackCheck(i, o)
	if why != "" {
		r.rep.public("  %s's %s is not made: %s.", w.pname(i), what, why)
		r.rep.private(p.ID, "  Not made: %s", r.sc.format(o))
		return nil
	}
	p.Oil -= 1 + moves
	p.Minerals--
	p.Grain--
	extra := ""
	if moves > 0 {
		extra = fmt.Sprintf(", %d oil for navy moves", moves)
	}
	r.rep.public("  %s %ss: %s (1 set of supplies%s).", w.pname(i), what, r.attackText(o), extra)
	at := &attacked{}
	edge := w.techEdge()
	rerolls := 0
	if edge >= 0 {
		rerolls = r.sc.Rules.HighTechRerolls
	}
	leave := map[int]int{}
	for _, l := range o.Leave {
		leave[l.From] += l.N
	}
	for k, s := range o.Strikes {
		r.strike(i, s, acts[k], o.Stay, leave, at, edge, &rerolls)
		if w.over {
			break
		}
	}
	return at
}

func (r *run) attackText(o *Order) string {
	var parts []string
	for _, s := range o.Strikes {
		var srcs []string
		for _, src := range s.Sources {
			t := r.sc.areaName(src.Area)
			if src.Via >= 0 {
				t += " by sea through " + r.sc.areaName(src.Via)
			}
			if src.To >= 0 {
				t += " sailing to " + r.sc.areaName(src.To)
			}
			srcs = append(srcs, t)
		}
		t := r.sc.areaName(s.Target) + " from " + strings.Join(srcs, ", ")
		if s.Rounds > 1 {
			t += fmt.Sprintf(", blitz of %d rounds", s.Rounds)
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, "; ")
}

// strike resolves one target of a conventional attack. leave is how many
// surviving armies stay in each land source when the rest occupy.
func (r *run) strike(i int, s Strike, acts []act, stay bool, leave map[int]int, at *attacked, edge int, rerolls *int) {
	w := r.w
	t := s.Target
	tn := r.sc.areaName(t)
	// Navies sail first (one move before combat); carried armies embark.
	landArmies := map[int]int{} // land source ⇒ armies attacking from it
	carried := 0                // armies afloat
	var fireSeas []int          // seas whose activated navies fire
	carriers := map[int]int{}
	escorts := map[int]int{}
	for _, ac := range acts {
		switch {
		case ac.final < 0:
			landArmies[ac.src.Area] += w.armies(i, ac.src.Area)
		case ac.armies > 0:
			n := min(w.armies(i, ac.src.Area), ac.armies, w.navies(i, ac.src.Via)*r.sc.Rules.TransportPerNavy)
			nav := w.navies(i, ac.src.Via)
			w.addArmies(i, ac.src.Area, -n)
			w.addNavies(i, ac.src.Via, -nav)
			w.addNavies(i, ac.final, nav)
			carried += n
			need := (n + r.sc.Rules.TransportPerNavy - 1) / r.sc.Rules.TransportPerNavy
			carriers[ac.final] += need
			escorts[ac.final] += nav - need
			if nav > need && !slices.Contains(fireSeas, ac.final) {
				fireSeas = append(fireSeas, ac.final)
			}
		default:
			nav := w.navies(i, ac.src.Area)
			if ac.final != ac.src.Area {
				w.addNavies(i, ac.src.Area, -nav)
				w.addNavies(i, ac.final, nav)
			}
			escorts[ac.final] += nav
			if !slices.Contains(fireSeas, ac.final) {
				fireSeas = append(fireSeas, ac.final)
			}
		}
	}
	// The picture's mark of the strike: where its forces came from, and
	// how it ended (set below before each return).
	mk := mark{Kind: "attack", Power: w.pid(i), To: r.sc.areas[t].ID, Result: "lost"}
	if w.isSea(t) {
		mk.Kind = "naval"
	}
	for _, ac := range acts {
		if id := r.sc.areas[ac.src.Area].ID; !slices.Contains(mk.From, id) {
			mk.From = append(mk.From, id)
		}
		if ac.armies > 0 && ac.final >= 0 {
			mk.Via = r.sc.areas[ac.final].ID
		}
	}
	defer func() { r.rep.mark(mk) }()
	// Contests: other navies in the seas of the active navies may force
	// naval combat there (seed: Naval Operations).
	seas := map[int]bool{}
	for _, ac := range acts {
		if ac.final >= 0 {
			seas[ac.final] = true
		}
	}
	for _, sea := range sortedKeys(seas) {
		if w.isSea(t) && sea == t {
			continue // the strike itself is the naval combat there
		}
		lost := r.contest(i, sea, carriers[sea], escorts[sea], at, edge, rerolls)
		if lost.carried > 0 {
			carried -= min(carried, lost.carried)
		}
		carriers[sea] -= lost.carriers
		escorts[sea] -= lost.escorts
	}
	if w.isSea(t) {
		if d := r.seaDefender(i, s); d >= 0 {
			mk.Against = w.pid(d)
		}
		mk.Result = r.navalStrike(i, s, escorts[t]+carriers[t], at, edge, rerolls)
		return
	}
	// Land combat.
	if attackers := carried + escortsFiring(escorts, fireSeas); attackers == 0 && sumInts(landArmies) == 0 {
		r.rep.public("    No attacker is left to fight for %s.", tn)
		return
	}
	d := w.armiesIn(t)
	wasMinor := d < 0 && w.minor(t)
	white := 0
	bought := 0
	minorNavies := 0 // a minor's bought navies fire at the attackers (seed: Naval Combat, "Navies can fire at Armies in adjacent areas")
	if wasMinor {
		bought = w.minorA[t]
		minorNavies = w.minorN[t]
		if minorNavies > 0 {
			r.rep.public("    %s's %s off its coast fire in its defence.", tn, plural(minorNavies, "navy", "navies"))
		}
		die := r.dice(1, "armies of the minor power "+tn)[0]
		white = die
		if w.sc.areas[t].home < 0 {
			white = (die + r.sc.Rules.MinorDieDivisor - 1) / r.sc.Rules.MinorDieDivisor
			r.rep.public("    %s raises %d armies (1d6/2, rounded up)%s.", tn, white, map[bool]string{true: fmt.Sprintf(" besides %d bought", bought), false: ""}[bought > 0])
		} else {
			r.rep.public("    %s, an unplayed superpower's home, raises %d armies (1d6)%s.", tn, white, map[bool]string{true: fmt.Sprintf(" besides %d bought", bought), false: ""}[bought > 0])
		}
	}
	def := white + bought
	if d >= 0 {
		def = w.armies(d, t)
		at.add(d, t)
		mk.Against = w.pid(d)
	} else if h := w.sc.areas[t].home; h >= 0 && w.playing(h) {
		at.add(w.byPower[h], t) // an undefended home area
		mk.Against = w.pid(w.byPower[h])
	}
	attackers := func() int {
		n := carried
		for _, v := range landArmies {
			n += v
		}
		for _, sea := range fireSeas {
			n += escorts[sea]
		}
		return n
	}
	if def == 0 {
		r.rep.public("    %s is undefended: no combat.", tn)
	}
	for round := 1; round <= s.Rounds && def > 0 && attackers() > 0; round++ {
		nAtt := attackers()
		label := ""
		if s.Rounds > 1 {
			label = fmt.Sprintf(", round %d", round)
		}
		ad := r.dice(nAtt, fmt.Sprintf("%s attacking %s with %d%s", w.pname(i), tn, nAtt, label))
		defName := tn
		defOwner := -1
		if d >= 0 {
			defName, defOwner = w.pname(d), d
		}
		dd := r.dice(def+minorNavies, fmt.Sprintf("%s defending with %d", defName, def+minorNavies))
		r.highTech(edge, i, defOwner, ad, dd, rerolls)
		hitsOnDef, hitsOnAtt := r.hits(ad), r.hits(dd)
		r.rep.public("    %s scores %d hits, the defence %d.", w.pname(i), hitsOnDef, hitsOnAtt)
		// the defender loses pieces; a minor its raised (white) armies
		// first, then its navies, then the armies it bought: it keeps
		// what holds its land longest
		k := min(hitsOnDef, def+minorNavies)
		if d >= 0 {
			def -= k
			w.addArmies(d, t, -k)
		} else {
			fromWhite := min(k, white)
			fromNavies := min(k-fromWhite, minorNavies)
			white -= fromWhite
			minorNavies -= fromNavies
			bought -= k - fromWhite - fromNavies
			def -= k - fromNavies
		}
		// the attacker loses participating pieces, as he chose (LOSSES)
		for hitsOnAtt > 0 && attackers() > 0 {
			hitsOnAtt--
			r.attackerLoss(i, landArmies, &carried, escorts, fireSeas)
		}
	}
	if wasMinor {
		w.minorA[t] = bought
		w.minorN[t] = minorNavies
	}
	armiesLeft := carried
	for _, v := range landArmies {
		armiesLeft += v
	}
	if def > 0 {
		if carried > 0 {
			r.rep.public("    The invasion fails: %s afloat off %s are lost.", plural(carried, "army", "armies"), tn)
		}
		holder := tn
		if d >= 0 {
			holder = w.pname(d)
		}
		r.rep.public("    %s holds %s.", holder, tn)
		if wasMinor && w.minorI[t] > 0 {
			r.minorRetaliates(t, i, w.minorI[t])
		}
		return
	}
	mk.Result = "cleared"
	if armiesLeft == 0 {
		if d >= 0 || wasMinor {
			r.rep.public("    %s's defenders are destroyed, but no army is left to occupy it.", tn)
		}
		if wasMinor && w.minorI[t] > 0 {
			r.minorRetaliates(t, i, w.minorI[t])
		}
		return
	}
	// Seed: Occupy — attacking armies "may" occupy: all (the default),
	// none (STAY) or all but those LEAVE keeps in their areas. Invaders
	// carried by sea always land (they must win and occupy).
	moveIn := carried
	var stayed []string
	if !stay {
		for _, a := range sortedKeys(landArmies) {
			n := max(0, landArmies[a]-leave[a])
			w.addArmies(i, a, -n)
			moveIn += n
			if kept := landArmies[a] - n; kept > 0 {
				stayed = append(stayed, fmt.Sprintf("%d in %s", kept, r.sc.areaName(a)))
			}
		}
	}
	if moveIn > 0 {
		w.addArmies(i, t, moveIn)
		w.seq++
		w.capBy[t], w.capAt[t] = i, w.seq
		tail := ""
		if len(stayed) > 0 {
			tail = "; " + strings.Join(stayed, ", ") + " stay behind"
		}
		r.rep.public("    %s occupies %s with %s%s.", w.pname(i), tn, plural(moveIn, "army", "armies"), tail)
		mk.Result = "won"
	} else {
		r.rep.public("    %s's defenders are destroyed; %s stays put.", tn, w.pname(i))
	}
	if wasMinor && w.minorI[t] > 0 {
		r.minorRetaliates(t, i, w.minorI[t])
	}
}

// attackerLoss removes one of the attacker's participating pieces for a
// hit. Seed: "Players remove 1 participating enemy piece for every 4-6
// result" and "players select their own pieces to remove for losses": the
// player's standing LOSSES order names the places that lose first (a land
// area: its attacking armies; a sea: its firing navies; AFLOAT: the armies
// carried by sea); then the largest group of armies, the armies afloat,
// and the firing navies.
func (r *run) attackerLoss(i int, landArmies map[int]int, carried *int, escorts map[int]int, fireSeas []int) {
	w := r.w
	for _, id := range w.players[i].Losses {
		if id == "afloat" {
			if *carried > 0 {
				*carried--
				return
			}
			continue
		}
		a, ok := r.sc.areaByID[id]
		switch {
		case !ok:
		case !w.isSea(a) && landArmies[a] > 0:
			landArmies[a]--
			w.addArmies(i, a, -1)
			return
		case w.isSea(a) && escorts[a] > 0 && slices.Contains(fireSeas, a):
			escorts[a]--
			w.addNavies(i, a, -1)
			return
		}
	}
	src, best := -1, 0
	for _, a := range sortedKeys(landArmies) {
		if landArmies[a] > best {
			src, best = a, landArmies[a]
		}
	}
	switch {
	case src >= 0 && best >= *carried:
		landArmies[src]--
		w.addArmies(i, src, -1)
	case *carried > 0:
		*carried--
	default:
		for _, sea := range fireSeas {
			if escorts[sea] > 0 {
				escorts[sea]--
				w.addNavies(i, sea, -1)
				return
			}
		}
	}
}

// hits counts dice of 4–6 (seed: Conventional Attack).
func (r *run) hits(dice []int) int {
	n := 0
	for _, d := range dice {
		if d >= r.sc.Rules.HitMin {
			n++
		}
	}
	return n
}

// highTech lets the player with the most ABMs, when in this combat, re-roll
// up to three dice per attack: first the enemy's hits on him, then his own
// misses (seed: High Tech Edge).
func (r *run) highTech(edge, att, def int, ad, dd []int, left *int) {
	if edge < 0 || *left <= 0 || (edge != att && edge != def) {
		return
	}
	mine, theirs := ad, dd
	if edge == def {
		mine, theirs = dd, ad
	}
	var idx []int
	var which [][]int
	for k, v := range theirs {
		if v >= r.sc.Rules.HitMin {
			idx, which = append(idx, k), append(which, theirs)
		}
	}
	for k, v := range mine {
		if v < r.sc.Rules.HitMin {
			idx, which = append(idx, k), append(which, mine)
		}
	}
	n := min(*left, len(idx))
	if n == 0 {
		return
	}
	*left -= n
	var before, after []int
	for k := 0; k < n; k++ {
		before = append(before, which[k][idx[k]])
		which[k][idx[k]] = r.die()
		after = append(after, which[k][idx[k]])
	}
	r.rep.public("    High tech edge: %s (most ABMs) re-rolls %d dice %v → %v.", r.w.pname(edge), n, before, after)
	r.rep.events = append(r.rep.events, event{Kind: "dice", Power: r.w.pid(edge), Text: "high tech re-roll", Dice: after})
}

// navalStrike is naval combat in the target sea (seed: Naval Combat). It
// returns how it ended, as a mark's Result: won when the enemy fleet is
// gone, cleared when there was none left to fight, lost otherwise.
func (r *run) navalStrike(i int, s Strike, mine int, at *attacked, edge int, rerolls *int) string {
	w := r.w
	t := s.Target
	d := r.seaDefender(i, s)
	if d < 0 {
		r.rep.public("    No enemy fleet is left in %s.", r.sc.areaName(t))
		return "cleared"
	}
	at.add(d, t)
	for round := 1; round <= s.Rounds && mine > 0 && w.navies(d, t) > 0; round++ {
		theirs := w.navies(d, t)
		ad := r.dice(mine, fmt.Sprintf("%s's navies in %s, round %d", w.pname(i), r.sc.areaName(t), round))
		dd := r.dice(theirs, fmt.Sprintf("%s's navies in %s", w.pname(d), r.sc.areaName(t)))
		r.highTech(edge, i, d, ad, dd, rerolls)
		h1, h2 := min(r.hits(ad), theirs), min(r.hits(dd), mine)
		w.addNavies(d, t, -h1)
		w.addNavies(i, t, -h2)
		mine -= h2
		r.rep.public("    %s sinks %d, %s sinks %d.", w.pname(i), h1, w.pname(d), h2)
	}
	if w.navies(d, t) == 0 {
		return "won"
	}
	return "lost"
}

// contestLoss is what an attacker lost to a contest.
type contestLoss struct{ carriers, escorts, carried int }

// contest lets other players' navies in a sea where the attacker's navies
// are active force naval combat, round after round while they contest
// (seed: Naval Operations, Naval Combat, Naval Invasions). The attacker
// removes his own losses: navies not carrying armies first.
func (r *run) contest(i, sea, carriers, escorts int, at *attacked, edge int, rerolls *int) contestLoss {
	w := r.w
	var loss contestLoss
	for _, j := range w.order {
		if j == i || !w.players[j].alive() || w.navies(j, sea) == 0 {
			continue
		}
		rounds, ok := r.contestRounds(j, sea, i)
		if !ok {
			continue
		}
		at.add(j, sea)
		r.rep.public("    %s contests %s: naval combat.", w.pname(j), r.sc.areaName(sea))
		for round := 1; (rounds == 0 || round <= rounds) && w.navies(j, sea) > 0 && carriers+escorts > 0; round++ {
			mine := w.navies(i, sea)
			firing := mine - carriers // carrying navies cannot fire
			theirs := w.navies(j, sea)
			ad := r.dice(max(0, firing), fmt.Sprintf("%s's navies in %s, round %d", w.pname(i), r.sc.areaName(sea), round))
			dd := r.dice(theirs, fmt.Sprintf("%s's navies in %s", w.pname(j), r.sc.areaName(sea)))
			// Seed: High Tech Edge — "in a Conventional Attack": a contest
			// is a round of it, so the edge's re-rolls apply here too.
			r.highTech(edge, i, j, ad, dd, rerolls)
			h1, h2 := min(r.hits(ad), theirs), min(r.hits(dd), mine)
			w.addNavies(j, sea, -h1)
			w.addNavies(i, sea, -h2)
			// own losses: idle and escorting navies first, then carriers
			idle := mine - carriers - escorts
			k := min(h2, idle)
			h2 -= k
			e := min(h2, escorts)
			escorts -= e
			loss.escorts += e
			h2 -= e
			c := min(h2, carriers)
			if c > 0 {
				carriers -= c
				loss.carriers += c
				loss.carried += c * r.sc.Rules.TransportPerNavy
				r.rep.public("    %s loses %d carrying navies with their armies.", w.pname(i), c)
			}
			r.rep.public("    %s sinks %d, %s sinks %d.", w.pname(i), h1, w.pname(j), h2+k+e+c)
		}
	}
	return loss
}

// contestRounds reads player j's standing contest orders for a sea against
// attacker i: the rounds it fights (0 = until one side is gone).
func (r *run) contestRounds(j, sea, i int) (int, bool) {
	for _, line := range r.w.players[j].Contests {
		o, err := r.sc.parseLine(line)
		if err != nil || o.Kind != KContest {
			continue
		}
		if (o.Area < 0 || o.Area == sea) && (o.Power == "" || o.Power == r.w.pid(i)) {
			return o.Rounds, true
		}
	}
	return 0, false
}

// ---- strategic attack ----

// icbm is one missile in flight.
type icbm struct {
	area, city int
	from       int // player index, or -1 for a minor power
	dead       bool
	hit        bool   // it detonated
	against    string // the controller of the place when it was fired
}

// markStrikes records the picture's marks of a salvo: one per place
// struck, hit when any missile on it detonated. power and from are who
// fired and from where ("" and the minor's area for a minor's).
func (r *run) markStrikes(missiles []*icbm, power, from string) {
	type place struct{ area, city int }
	var order []place
	byPlace := map[place]*mark{}
	for _, m := range missiles {
		k := place{m.area, m.city}
		mk := byPlace[k]
		if mk == nil {
			mk = &mark{Kind: "icbm", Power: power, Against: m.against, To: r.sc.areas[m.area].ID, City: m.city + 1, Result: "stopped"}
			if from != "" {
				mk.From = []string{from}
			}
			byPlace[k] = mk
			order = append(order, k)
		}
		mk.N++
		if m.hit {
			mk.Result = "hit"
		}
	}
	for _, k := range order {
		r.rep.mark(*byPlace[k])
	}
}

// strategicCheck validates a launch.
func (r *run) strategicCheck(i int, o *Order) string {
	w := r.w
	n := 0
	for _, t := range o.Targets {
		n += t.N
		if w.dead[t.Area] {
			return r.sc.areaName(t.Area) + " is destroyed already"
		}
		if t.City >= 0 && w.cities[t.Area][t.City] {
			return r.sc.placeName(t.Area, t.City) + " is destroyed already"
		}
		if t.City < 0 && len(r.sc.areas[t.Area].Cities) > 1 {
			return r.sc.areaName(t.Area) + " has several cities: target one of them"
		}
		if !w.isSea(t.Area) && w.controls(i, t.Area) {
			return "you control " + r.sc.areaName(t.Area)
		}
	}
	if n > w.players[i].ICBM {
		return fmt.Sprintf("you have %d ICBMs", w.players[i].ICBM)
	}
	return ""
}

// strategic carries out a strategic attack (seed: Strategic Attack,
// Resolving an ICBM Attack, Multiple City Areas).
func (r *run) strategic(i int, o *Order, what string) *attacked {
	return r.strategicWith(i, o, what, nil)
}

// strategicWith is strategic with the defenders' designations of their
// ABMs (player ⇒ ABM n AT place orders), from the confirmation step.
func (r *run) strategicWith(i int, o *Order, what string, aim map[int][]Launch) *attacked {
	w := r.w
	if why := r.strategicCheck(i, o); why != "" {
		r.rep.public("  %s's %s is not made: %s.", w.pname(i), what, why)
		return nil
	}
	at := &attacked{strategic: true}
	var missiles []*icbm
	var parts []string
	for _, t := range o.Targets {
		w.players[i].ICBM -= t.N
		against := ""
		if c := w.controller(t.Area); c >= 0 && !w.isSea(t.Area) {
			against = w.pid(c)
		}
		for k := 0; k < t.N; k++ {
			missiles = append(missiles, &icbm{area: t.Area, city: t.City, from: i, against: against})
		}
		parts = append(parts, fmt.Sprintf("%d at %s", t.N, r.sc.placeName(t.Area, t.City)))
		if w.isSea(t.Area) {
			for p, n := range w.navy[t.Area] {
				if n > 0 && w.byPower[p] != i {
					at.add(w.byPower[p], t.Area)
				}
			}
		} else {
			at.add(w.controller(t.Area), t.Area)
		}
	}
	r.rep.public("  %s launches %s (%s): %s.", w.pname(i), plural(len(missiles), "ICBM", "ICBMs"), what, strings.Join(parts, ", "))
	r.interceptWith(missiles, aim)
	// Seed: Arms Sales — "If Minors have ICBMs, they will always fire them
	// at any player that attacks them": a minor under a strike fires what it
	// holds when the strike comes, even if the strike destroys it (its
	// missiles are counted before they could be lost with it).
	minors := map[int]int{} // minor area ⇒ its ICBMs as the strike comes
	for _, m := range missiles {
		if !w.isSea(m.area) && w.minor(m.area) && w.armiesIn(m.area) < 0 && w.minorI[m.area] > 0 {
			minors[m.area] = w.minorI[m.area]
		}
	}
	r.detonate(missiles, i)
	r.markStrikes(missiles, w.pid(i), "")
	for _, a := range sortedKeys(minors) {
		if !w.over {
			r.minorRetaliates(a, i, minors[a])
		}
	}
	return at
}

// intercept lets every ABM fire at the incoming missiles, as its owner's
// standing ABM orders say (seed: Strategic Attack, step 2 and 3).
func (r *run) intercept(missiles []*icbm) { r.interceptWith(missiles, nil) }

// interceptWith is intercept where some players designated the target of
// each of their ABMs (ABM n AT place): those fire only as designated.
func (r *run) interceptWith(missiles []*icbm, aim map[int][]Launch) {
	w := r.w
	type battery struct {
		owner int // player index, or -1 for a minor
		minor int // area of a minor's ABMs
		n     int
	}
	var bats []battery
	for _, j := range w.order {
		if p := w.players[j]; p.alive() && p.ABM > 0 && (p.ABMPolicy != "off" || len(aim[j]) > 0) {
			bats = append(bats, battery{owner: j, minor: -1, n: p.ABM})
		}
	}
	for a := range w.minorB {
		if w.minorB[a] > 0 && w.minorOpen(a) {
			bats = append(bats, battery{owner: -1, minor: a, n: w.minorB[a]})
		}
	}
	for _, b := range bats {
		if b.owner >= 0 && len(aim[b.owner]) > 0 {
			r.designated(b.owner, b.n, missiles, aim[b.owner])
			continue
		}
		var mine, others []*icbm
		for _, m := range missiles {
			if m.from == b.owner && b.owner >= 0 {
				continue
			}
			if b.owner < 0 {
				if m.area == b.minor {
					mine = append(mine, m)
				}
				continue
			}
			own := w.controls(b.owner, m.area) || (w.isSea(m.area) && w.navies(b.owner, m.area) > 0)
			switch {
			case own:
				mine = append(mine, m)
			case w.players[b.owner].ABMPolicy == "all":
				others = append(others, m)
			case w.players[b.owner].ABMPolicy == "powers":
				ctl := w.controller(m.area)
				for _, id := range w.players[b.owner].ABMPowers {
					if ctl >= 0 && w.pid(ctl) == id {
						others = append(others, m)
						break
					}
				}
			}
		}
		targets := append(mine, others...)
		if len(targets) == 0 {
			continue
		}
		name := ""
		if b.owner >= 0 {
			name = w.pname(b.owner)
		} else {
			name = r.sc.areaName(b.minor) + " (minor power)"
		}
		for k := 0; k < b.n; k++ {
			r.abmShot(b.owner, name, targets[k%len(targets)])
		}
	}
}

// designated fires a player's ABMs where he aimed them: n at the ICBMs on
// each place he named, spread over them; ABMs beyond his count do not fire.
func (r *run) designated(j, have int, missiles []*icbm, aims []Launch) {
	w := r.w
	for _, a := range aims {
		var on []*icbm
		for _, m := range missiles {
			if m.from != j && m.area == a.Area && (a.City < 0 || m.city == a.City) {
				on = append(on, m)
			}
		}
		for k := 0; k < a.N && have > 0 && len(on) > 0; k++ {
			have--
			m := on[k%len(on)]
			r.abmShot(j, w.pname(j), m)
		}
	}
}

// abmShot is one ABM fired by player j (-1: a minor) at a missile.
func (r *run) abmShot(j int, name string, m *icbm) {
	w := r.w
	penalty := 0
	if j >= 0 && w.controller(m.area) != j && !(w.isSea(m.area) && w.navies(j, m.area) > 0) {
		penalty = r.sc.Rules.ABMUncontrolledPenalty
	}
	die := r.dice(1, fmt.Sprintf("%s's ABM at the ICBM on %s", name, r.sc.placeName(m.area, m.city)))[0]
	if die-penalty >= r.sc.Rules.ABMKillMin {
		if !m.dead {
			r.rep.public("    The ICBM on %s is destroyed.", r.sc.placeName(m.area, m.city))
		}
		m.dead = true
	}
}

// detonate lets the surviving missiles hit (seed: Resolving an ICBM
// Attack, Multiple City Areas, Nuclear Winter). by is the player who fired
// (-1 for a minor power).
func (r *run) detonate(missiles []*icbm, by int) {
	w := r.w
	for _, m := range missiles {
		if m.dead || w.over {
			continue
		}
		a := m.area
		name := r.sc.placeName(a, m.city)
		m.hit = true
		if w.isSea(a) {
			sunk := 0
			for p := range w.navy[a] {
				sunk += w.navy[a][p]
				w.navy[a][p] = 0
			}
			r.rep.public("    An ICBM strikes %s: %s sunk.", name, plural(sunk, "navy", "navies"))
			continue
		}
		w.deton++
		if w.dead[a] {
			r.rep.public("    An ICBM falls on the ruins of %s (land detonation %d).", r.sc.areaName(a), w.deton)
			if r.winterRoll(by) {
				return
			}
			continue
		}
		city := m.city
		if city < 0 {
			for k, d := range w.cities[a] {
				if !d {
					city = k
					break
				}
			}
		}
		if city >= 0 && !w.cities[a][city] {
			w.cities[a][city] = true
			r.destroyCompanies(a, city)
			if h := r.sc.areas[a].home; h >= 0 && w.byPower[h] >= 0 {
				w.seq++
				w.players[w.byPower[h]].NukedAt = w.seq
			}
		}
		left := 0
		for _, d := range w.cities[a] {
			if !d {
				left++
			}
		}
		if left == 0 && !w.dead[a] {
			lost := 0
			for p := range w.army[a] {
				lost += w.army[a][p]
				w.army[a][p] = 0
			}
			lost += w.minorA[a]
			w.minorA[a], w.minorI[a], w.minorB[a], w.minorN[a] = 0, 0, 0, 0
			w.dead[a] = true
			r.destroyCompanies(a, -1)
			r.rep.public("    An ICBM strikes %s: %s destroyed; %s is contaminated and out of play (land detonation %d).", name, plural(lost, "army", "armies"), r.sc.areaName(a), w.deton)
		} else {
			r.rep.public("    An ICBM strikes %s: the city is destroyed; %s fights on (land detonation %d).", name, r.sc.areaName(a), w.deton)
		}
		if r.winterRoll(by) {
			return
		}
	}
}

// winterRoll rolls for nuclear winter from the 12th land detonation on: a
// 6, plus one for each later detonation, ends the game (seed: Nuclear
// Winter). by is the player whose ICBM it was (-1: a minor power's).
func (r *run) winterRoll(by int) bool {
	w := r.w
	if w.deton < r.sc.Rules.WinterDetonation {
		return false
	}
	die := r.dice(1, fmt.Sprintf("nuclear winter after land detonation %d", w.deton))[0]
	bonus := w.deton - r.sc.Rules.WinterDetonation
	if die+bonus < r.sc.Rules.WinterRoll {
		r.rep.public("    No nuclear winter (%d + %d).", die, bonus)
		return false
	}
	w.winter = true
	if by >= 0 {
		w.winBy = w.pid(by)
	}
	r.rep.public("  NUCLEAR WINTER (%d + %d): the game ends now.", die, bonus)
	r.endGame()
	return true
}

// destroyCompanies destroys the company cards of an area (city < 0) or of
// one city of it: they go back into the deck, destroyed.
func (r *run) destroyCompanies(a, city int) {
	w := r.w
	for c, cd := range r.sc.cards {
		co := cd.company
		if co == nil || co.area != a || w.cardDed[c] {
			continue
		}
		if city >= 0 && co.city != city && len(r.sc.areas[a].Cities) > 1 {
			continue
		}
		if city >= 0 && len(r.sc.areas[a].Cities) > 1 && co.city < 0 {
			continue
		}
		if at := w.cardAt[c]; at >= 0 || at == cardLoose {
			r.rep.public("    %s is destroyed and goes back into the deck.", cd.name)
		}
		w.cardAt[c] = cardDeck
		w.cardDed[c] = true
		w.cardOpn[c] = false
		w.cardBlk[c] = false
	}
}

// minorRetaliates fires the n ICBMs a minor power held when it was attacked
// at the player who attacked it, at his home cities in turn (seed: Arms
// Sales).
func (r *run) minorRetaliates(a, attacker, n int) {
	w := r.w
	cities := w.homeCities(attacker)
	if n == 0 || len(cities) == 0 {
		return
	}
	w.minorI[a] = 0
	var missiles []*icbm
	var names []string
	for k := 0; k < n; k++ {
		c := cities[k%len(cities)]
		city := c[1]
		if len(r.sc.areas[c[0]].Cities) < 2 {
			city = -1
		}
		missiles = append(missiles, &icbm{area: c[0], city: city, from: -1})
		names = append(names, r.sc.placeName(c[0], city))
	}
	r.rep.public("  %s fires its %s at %s: %s.", r.sc.areaName(a), plural(n, "ICBM", "ICBMs"), w.pname(attacker), strings.Join(names, ", "))
	for _, m := range missiles {
		m.against = w.pid(attacker)
	}
	r.intercept(missiles)
	r.detonate(missiles, -1)
	r.markStrikes(missiles, "", r.sc.areas[a].ID)
}

// ---- reactions ----

// reactions finds a defender's standing reaction to an attack: the first
// whose conditions hold and whose order is of the wanted sort.
func (r *run) reaction(d int, t *trigger, counter bool) *Order {
	for _, line := range r.w.players[d].Reactions {
		o, err := r.sc.parseLine(line)
		if err != nil || o.Kind != KReaction {
			continue
		}
		isCounter := o.Sub.Kind == KAttack || o.Sub.Kind == KLaunch
		if isCounter != counter || !r.condsHold(d, o.Conds, t) {
			continue
		}
		if counter && o.Sub.Kind == KAttack {
			if _, _, why := r.attackCheck(d, o.Sub); why != "" {
				continue // a counterattack it cannot make now
			}
		}
		if counter && o.Sub.Kind == KLaunch && r.strategicCheck(d, o.Sub) != "" {
			continue
		}
		return o.Sub
	}
	return nil
}

// afterAttack runs the steps that follow an attack: after a conventional
// attack each defender's reinforcement (a standing reaction) and the
// attacker's reinforcement, and, unless this was itself a counterattack,
// the counterattacks (seed: Attack, step sequence; Conventional Attack,
// steps 5 and 6). A strategic attack has no reinforcing moves: "Defender
// Reinforce" and "Attacker Reinforce" are steps of the conventional attack
// only (seed: Strategic Attack lists Identify, ABMs, Resolve Combat).
func (r *run) afterAttack(i int, at *attacked, reinforce *Order, counters bool) {
	w := r.w
	if at == nil || w.over {
		return
	}
	defenders := r.shuffle(at.defenders)
	if at.strategic {
		reinforce = nil
	}
	for _, d := range defenders {
		if at.strategic {
			break
		}
		if !w.players[d].alive() {
			continue
		}
		if mv := r.reaction(d, &trigger{attacker: i, areas: at.areas[d]}, false); mv != nil {
			r.rep.public("  %s reinforces:", w.pname(d))
			r.move(d, mv)
		}
	}
	if reinforce != nil && reinforce.Sub != nil {
		r.rep.public("  %s reinforces:", w.pname(i))
		r.move(i, reinforce.Sub)
	}
	if !counters {
		return
	}
	if len(defenders) > 1 {
		names := make([]string, len(defenders))
		for k, d := range defenders {
			names[k] = w.pname(d)
		}
		r.rep.public("  Counterattack order (drawn): %s.", strings.Join(names, ", "))
	}
	for _, d := range defenders {
		if w.over {
			return
		}
		if !w.players[d].alive() {
			continue
		}
		ca := r.reaction(d, &trigger{attacker: i, areas: at.areas[d]}, true)
		if ca == nil {
			continue
		}
		r.counterattack(d, ca)
	}
}

// counterattack is one attack, conventional or strategic, by a defender; it
// draws no counterattack in turn.
func (r *run) counterattack(d int, o *Order) {
	var at *attacked
	if o.Kind == KLaunch {
		at = r.strategic(d, o, "counterattack")
	} else {
		at = r.conventional(d, o, "counterattack")
	}
	r.afterAttack(d, at, nil, false)
}

func escortsFiring(escorts map[int]int, seas []int) int {
	n := 0
	for _, s := range seas {
		n += escorts[s]
	}
	return n
}

func sumInts(m map[int]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func sortedKeys[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}
