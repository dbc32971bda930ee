package empire

import (
	"math/rand/v2"
	"sort"
)

// Combat (seed, "Combat"), taken from the Galaxy PBM game: units in a hex
// with enemy units (a unit on the move is in both hexes it covers) destroy
// each other until no hex holds units of two powers.
//
// The board falls apart into separate conflicts: units joined by shared
// hexes where enemies meet. Each conflict is resolved on its own:
//
//  1. Combat capable units: pick one at random among those still in contact
//     with an enemy (the current attacker); it destroys one enemy unit in
//     contact, picked at random. When that unit was weak (a transport, or a
//     disabled unit) the attacker shoots again for free at another random
//     target, until it destroys a combat capable unit or runs out of
//     targets. Repeat until no combat capable unit has a target.
//  2. Weak units: pick one at random among the weak units in contact with
//     an enemy; it destroys one random enemy in contact (no free shots).
//     Repeat until no unit is in contact with an enemy.
//
// With the optional retreat rule, a unit that the owner ordered to retreat
// and that is on the move retreats the first time it is picked as the
// current attacker, instead of attacking: it leaves one of its two hexes
// (armor either one, as ordered; slower units the hex they half occupy)
// and stands in the other. The whole board is then one conflict, as the
// seed says.

// Shot is one attack of a battle.
type Shot struct {
	Attacker     string `json:"attacker"` // "red RAD2"
	AttackerType string `json:"attacker_type"`
	Target       string `json:"target,omitempty"`
	TargetType   string `json:"target_type,omitempty"`
	TargetWeak   bool   `json:"target_weak,omitempty"`
	Free         bool   `json:"free,omitempty"`    // an extra shot after destroying a weak unit
	Weak         bool   `json:"weak,omitempty"`    // fired in the weak units' round
	Retreat      string `json:"retreat,omitempty"` // the attacker retreated instead, to this hex
	Hex          string `json:"hex,omitempty"`     // where the target was hit
}

// Battle is one separate conflict.
type Battle struct {
	Hexes  []string       `json:"hexes"` // the contested hexes
	Before map[string]int `json:"before"`
	Lost   map[string]int `json:"lost"`
	Shots  []Shot         `json:"shots"`
	hexIdx []int          // contested hexes, indexes
}

// combat resolves all fighting on the board; destroyed units are removed.
// retreat maps units ordered to retreat to the hex they keep (-1: the
// default one).
func (g *Game) combat(rng *rand.Rand, retreat map[*Unit]int) []*Battle {
	np := len(g.Powers)
	nh := g.World.Hexes()
	// The units on the board, by index; at[h] lists the live units present
	// in hex h (dead ones are dropped lazily), count[h*np+p] how many of
	// power p.
	var units []*Unit
	var owner []int
	for _, u := range g.Units {
		if !u.Pooled {
			units = append(units, u)
			owner = append(owner, g.powerIndex(u.Owner))
		}
	}
	count := make([]int32, nh*np)
	total := make([]int32, nh)
	at := make([][]int32, nh)
	for i, u := range units {
		for _, h := range u.hexes() {
			count[h*np+owner[i]]++
			total[h]++
			at[h] = append(at[h], int32(i))
		}
	}
	contested := func(h int) bool {
		for p := 0; p < np; p++ {
			if c := count[h*np+p]; c > 0 && c < total[h] {
				return true
			}
		}
		return false
	}
	// Separate conflicts: units joined through contested hexes.
	parent := make([]int32, len(units))
	for i := range parent {
		parent[i] = -1
	}
	find := func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	var hexes []int
	for h := 0; h < nh; h++ {
		if total[h] < 2 || !contested(h) {
			continue
		}
		hexes = append(hexes, h)
		for _, i := range at[h] {
			if parent[i] < 0 {
				parent[i] = i
			}
		}
		first := find(at[h][0])
		for _, i := range at[h][1:] {
			if r := find(i); r != first {
				parent[r] = first
			}
		}
	}
	if len(hexes) == 0 {
		return nil
	}
	byRoot := map[int32]*Battle{}
	var battles []*Battle
	one := &Battle{}
	for _, h := range hexes {
		b := one
		if !g.Opts.Retreat {
			r := find(at[h][0])
			if b = byRoot[r]; b == nil {
				b = &Battle{}
				byRoot[r] = b
			}
		}
		if len(b.hexIdx) == 0 {
			battles = append(battles, b)
		}
		b.hexIdx = append(b.hexIdx, h)
	}
	member := make([]bool, len(units))
	members := map[*Battle][]int32{}
	for _, b := range battles {
		var ms []int32
		for _, h := range b.hexIdx {
			for _, i := range at[h] {
				if !member[i] {
					member[i] = true
					ms = append(ms, i)
				}
			}
		}
		sort.Slice(ms, func(a, c int) bool { return ms[a] < ms[c] }) // g.Units order
		members[b] = ms
	}

	dead := make([]bool, len(units))
	retreated := make([]bool, len(units))
	hasEnemy := func(i int32) bool {
		p := owner[i]
		for _, h := range units[i].hexes() {
			if total[h]-count[h*np+p] > 0 {
				return true
			}
		}
		return false
	}
	kill := func(b *Battle, i int32) {
		dead[i] = true
		b.Lost[units[i].Owner]++
		for _, h := range units[i].hexes() {
			count[h*np+owner[i]]--
			total[h]--
		}
	}
	// targets lists the live enemies in contact with unit i, each once.
	var buf []int32
	var bufHex []int
	targets := func(i int32) ([]int32, []int) {
		buf, bufHex = buf[:0], bufHex[:0]
		p := owner[i]
		hs := units[i].hexes()
		for k, h := range hs {
			list := at[h]
			for x := 0; x < len(list); x++ {
				j := list[x]
				if dead[j] || !units[j].in(h) {
					// Gone from h (destroyed, or retreated out of it).
					list[x] = list[len(list)-1]
					list = list[:len(list)-1]
					x--
					continue
				}
				if owner[j] == p || k == 1 && units[j].in(hs[0]) {
					continue // a friend, or counted in the first hex
				}
				buf = append(buf, j)
				bufHex = append(bufHex, h)
			}
			at[h] = list
		}
		return buf, bufHex
	}
	// doRetreat carries out a standing retreat order; it reports whether
	// the unit retreated.
	doRetreat := func(b *Battle, i int32) bool {
		u := units[i]
		keep, ordered := retreat[u]
		if !ordered || retreated[i] || !u.moving() {
			return false
		}
		retreated[i] = true
		if keep < 0 || !u.Type.fast() || !u.in(keep) {
			keep = u.At // slower units leave the hex they half occupy
		}
		leave := u.To
		if keep == u.To {
			leave = u.At
		}
		count[leave*np+owner[i]]--
		total[leave]--
		u.At, u.To = keep, -1
		b.Shots = append(b.Shots, Shot{Attacker: g.unitLabel(u), AttackerType: u.Type.ID, Retreat: g.World.HexName(keep)})
		return true
	}
	shoot := func(b *Battle, i, j int32, where int, free, weakRound bool) {
		u, v := units[i], units[j]
		b.Shots = append(b.Shots, Shot{Attacker: g.unitLabel(u), AttackerType: u.Type.ID, Target: g.unitLabel(v),
			TargetType: v.Type.ID, TargetWeak: v.weak(), Free: free, Weak: weakRound, Hex: g.World.HexName(where)})
		kill(b, j)
	}

	var cand []int32
	for _, b := range battles {
		b.Before = map[string]int{}
		b.Lost = map[string]int{}
		for _, h := range b.hexIdx {
			b.Hexes = append(b.Hexes, g.World.HexName(h))
		}
		for _, i := range members[b] {
			b.Before[units[i].Owner]++
		}
		// 1. Combat capable units.
		cand = cand[:0]
		for _, i := range members[b] {
			if !units[i].weak() {
				cand = append(cand, i)
			}
		}
		for len(cand) > 0 {
			k := rng.IntN(len(cand))
			i := cand[k]
			if dead[i] || !hasEnemy(i) {
				cand[k] = cand[len(cand)-1]
				cand = cand[:len(cand)-1]
				continue
			}
			if doRetreat(b, i) {
				continue
			}
			free := false
			for {
				ts, th := targets(i)
				if len(ts) == 0 {
					break
				}
				x := rng.IntN(len(ts))
				j, where := ts[x], th[x]
				shoot(b, i, j, where, free, false)
				if !units[j].weak() {
					break
				}
				free = true
			}
		}
		// 2. Weak units among themselves.
		cand = cand[:0]
		for _, i := range members[b] {
			if !dead[i] && units[i].weak() {
				cand = append(cand, i)
			}
		}
		for len(cand) > 0 {
			k := rng.IntN(len(cand))
			i := cand[k]
			if dead[i] || !hasEnemy(i) {
				cand[k] = cand[len(cand)-1]
				cand = cand[:len(cand)-1]
				continue
			}
			if doRetreat(b, i) {
				continue
			}
			ts, th := targets(i)
			x := rng.IntN(len(ts))
			shoot(b, i, ts[x], th[x], false, true)
		}
	}
	gone := map[*Unit]bool{}
	for i, u := range units {
		if dead[i] {
			gone[u] = true
		}
	}
	g.remove(func(u *Unit) bool { return gone[u] })
	return battles
}

// unitLabel names a unit with its owner: "red RID3".
func (g *Game) unitLabel(u *Unit) string { return u.Owner + " " + u.Name() }
