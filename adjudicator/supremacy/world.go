package supremacy

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// run is one Resolve at work: the world, the phase's dice and its report.
type run struct {
	w   *world
	sc  *Scenario
	rng *rand.Rand
	rep *report
	// fixed, in tests, are the dice to roll before the generator's; with
	// strictDice a die beyond them is a test failure.
	fixed      []int
	strictDice bool
}

func newRun(w *world, seed int64) *run {
	return &run{w: w, sc: w.sc, rng: rand.New(rand.NewPCG(uint64(seed), 0x5afe5eed)), rep: newReport()}
}

// die rolls one six-sided die.
func (r *run) die() int {
	if len(r.fixed) > 0 {
		d := r.fixed[0]
		r.fixed = r.fixed[1:]
		return d
	}
	if r.strictDice {
		panic("a die was rolled beyond the test's dice")
	}
	return r.rng.IntN(6) + 1
}

// dice rolls n dice and reports them with their purpose.
func (r *run) dice(n int, purpose string) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = r.die()
	}
	r.rep.roll(purpose, out)
	return out
}

// shuffle returns xs in a random order (a copy).
func (r *run) shuffle(xs []int) []int {
	out := append([]int(nil), xs...)
	r.rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// report collects what a phase did: public lines, private lines per
// power, and the public events (with every die) and marks for Report.Data.
type report struct {
	pub    []string
	priv   map[string][]string
	events []event
	marks  []mark
}

// mark is one thing a phase did on the map, for its picture (draw.go): an
// attack on land or at sea, a move, a blockade, an ICBM strike or a
// seizure, with who did it and how it ended. Areas and cards are named by
// id, so that a stored report is read the same way by a later release.
type mark struct {
	// Kind is attack (on a land area), naval (an attack on a sea area),
	// move, blockade, icbm or seize.
	Kind string `json:"kind"`
	// Power is the superpower that acted; "" for a minor power (its ICBMs
	// fired back at an attacker).
	Power string `json:"power,omitempty"`
	// From are the areas the forces came from (an ICBM: the minor that
	// fired it; a superpower's ICBMs come from no area of the map).
	From []string `json:"from,omitempty"`
	// Via is the sea that carried armies (an invasion, a transport).
	Via string `json:"via,omitempty"`
	// Against is the superpower the action was aimed at, when one was: the
	// defender of an attacked area or fleet, the controller of the place an
	// ICBM fell on, the owner of a blockaded or seized company.
	Against string `json:"against,omitempty"`
	// To is the target or destination area.
	To string `json:"to"`
	// City is the ICBM's target city, counted from 1 (0: the area).
	City int `json:"city,omitempty"`
	// Card is the company blockaded or seized.
	Card string `json:"card,omitempty"`
	// Navy is set on a move of navies.
	Navy bool `json:"navy,omitempty"`
	// N is how many ICBMs fell on the place (icbm).
	N int `json:"n,omitempty"`
	// Result is how it ended: won, lost or cleared (the defenders
	// destroyed, nobody moving in) for attack and naval; done for move and
	// seize; held or failed for blockade; hit or stopped for icbm.
	Result string `json:"result"`
}

func (rp *report) mark(m mark) { rp.marks = append(rp.marks, m) }

type event struct {
	Kind  string `json:"kind"`
	Power string `json:"power,omitempty"`
	Text  string `json:"text"`
	Dice  []int  `json:"dice,omitempty"`
}

func newReport() *report { return &report{priv: map[string][]string{}} }

func (rp *report) public(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	rp.pub = append(rp.pub, s)
	rp.events = append(rp.events, event{Kind: "public", Text: strings.TrimSpace(s)})
}

func (rp *report) private(power string, format string, args ...any) {
	rp.priv[power] = append(rp.priv[power], fmt.Sprintf(format, args...))
}

// roll reports dice publicly: every die with its purpose.
func (rp *report) roll(purpose string, dice []int) {
	parts := make([]string, len(dice))
	for i, d := range dice {
		parts[i] = strconv.Itoa(d)
	}
	rp.pub = append(rp.pub, fmt.Sprintf("    dice (%s): %s", purpose, strings.Join(parts, " ")))
	rp.events = append(rp.events, event{Kind: "dice", Text: purpose, Dice: append([]int(nil), dice...)})
}

// ---- the board ----

func (w *world) isSea(a int) bool { return w.sc.areas[a].sea }

// playing reports whether a superpower has a player still in the game.
func (w *world) playing(power int) bool {
	i := w.byPower[power]
	return i >= 0 && w.players[i].alive()
}

// minor reports whether a land area is a minor power: not the home of a
// superpower that has a player. Unplayed superpowers' homes are minors
// too (with a full die of armies).
func (w *world) minor(a int) bool {
	ar := w.sc.areas[a]
	if ar.sea {
		return false
	}
	return ar.home < 0 || w.byPower[ar.home] < 0
}

// armiesIn returns the player index holding armies in a land area, or -1.
func (w *world) armiesIn(a int) int {
	for p, n := range w.army[a] {
		if n > 0 {
			return w.byPower[p]
		}
	}
	return -1
}

// controller is the player that controls an area: in a land area the
// player with armies there, else the owner of an unoccupied home area (if
// still playing); in a sea area the only player with navies there.
func (w *world) controller(a int) int {
	if w.isSea(a) {
		who := -1
		for p, n := range w.navy[a] {
			if n > 0 {
				if who >= 0 {
					return -1
				}
				who = w.byPower[p]
			}
		}
		return who
	}
	if w.dead[a] {
		return -1
	}
	if i := w.armiesIn(a); i >= 0 {
		return i
	}
	if h := w.sc.areas[a].home; h >= 0 && w.playing(h) {
		return w.byPower[h]
	}
	return -1
}

// controls reports whether player i controls area a.
func (w *world) controls(i, a int) bool { return w.controller(a) == i }

// navyOthers reports whether players other than i have navies in sea a.
func (w *world) navyOthers(i, a int) bool {
	for p, n := range w.navy[a] {
		if n > 0 && w.byPower[p] != i {
			return true
		}
	}
	return false
}

func (w *world) armies(i, a int) int   { return w.army[a][w.players[i].idx] }
func (w *world) navies(i, a int) int   { return w.navy[a][w.players[i].idx] }
func (w *world) addArmies(i, a, n int) { w.army[a][w.players[i].idx] += n }
func (w *world) addNavies(i, a, n int) { w.navy[a][w.players[i].idx] += n }

// forces counts a player's armies and navies on the board.
func (w *world) forces(i int) (armies, navies int) {
	pi := w.players[i].idx
	for a := range w.army {
		armies += w.army[a][pi]
		navies += w.navy[a][pi]
	}
	return
}

// homeCities lists the undestroyed cities of a player's home areas as
// (area, city) pairs.
func (w *world) homeCities(i int) [][2]int {
	var out [][2]int
	for _, a := range w.sc.powers[w.players[i].idx].homes {
		for k, d := range w.cities[a] {
			if !d {
				out = append(out, [2]int{a, k})
			}
		}
	}
	return out
}

// room is how much more of a resource a player's reserve holds.
func (w *world) room(i int, r Resource) int {
	p := w.players[i]
	return w.sc.Reserve.Cap(r)*p.Cards - *p.res(r)
}

func (w *world) icbmRoom(i int) int {
	p := w.players[i]
	return w.sc.Reserve.ICBM*p.Cards - p.ICBM
}

func (w *world) abmRoom(i int) int {
	p := w.players[i]
	return w.sc.Reserve.ABM*p.Cards - p.ABM
}

// pay moves cash from a player to the bank (negative: from the bank).
func (w *world) pay(i, amount int) {
	w.players[i].Cash -= amount
	w.bank += amount
}

// price is the current market price of a resource.
func (w *world) price(r Resource) int { return w.sc.Market.Track[w.market[r]] }

// companies lists the cards a player owns, in deck order.
func (w *world) companies(i int) []int {
	var out []int
	for c, at := range w.cardAt {
		if at == i {
			out = append(out, c)
		}
	}
	return out
}

// cardArea is the area of a company card (-1 for a technology).
func (w *world) cardArea(c int) int {
	if co := w.sc.cards[c].company; co != nil {
		return co.area
	}
	return -1
}

// netWorth values a player's holdings: cash − loans + bonds, companies,
// forces, ICBMs and ABMs (seed: Net Worth).
func (w *world) netWorth(i int) int {
	p := w.players[i]
	v := &w.sc.NetWorth
	nw := p.Cash - p.Loans + p.Bonds
	for _, c := range w.companies(i) {
		if w.cardBlk[c] {
			nw += v.BlockadedCompany
		} else {
			nw += v.Company
		}
	}
	a, n := w.forces(i)
	nw += (a+n)*v.Force + p.ICBM*v.ICBM + p.ABM*v.ABM
	return nw
}

// alivePlayers lists the indexes of players still playing, in scenario
// order.
func (w *world) alivePlayers() []int {
	var out []int
	for i, p := range w.players {
		if p.alive() {
			out = append(out, i)
		}
	}
	return out
}

// seaPath finds a navy route of at most max moves from a to b for player
// i: every sea on the way (not a) must be free of other players' navies
// when free is set, and every chokepoint crossed open to i. It returns the
// number of moves, or -1.
func (w *world) seaPath(i, a, b, maxSteps int, free bool) int {
	if a == b {
		return 0
	}
	dist := map[int]int{a: 0}
	queue := []int{a}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if dist[x] == maxSteps {
			continue
		}
		for _, y := range w.sc.areas[x].seas {
			if _, seen := dist[y]; seen {
				continue
			}
			if !w.chokeOpen(i, x, y) {
				continue
			}
			if free && w.navyOthers(i, y) {
				continue
			}
			dist[y] = dist[x] + 1
			if y == b {
				return dist[y]
			}
			queue = append(queue, y)
		}
	}
	return -1
}

// chokeOpen reports whether player i's navies may cross from sea a to sea
// b: no chokepoint there, or its control area is neutral, controlled by i,
// or its controller permits i.
func (w *world) chokeOpen(i, a, b int) bool {
	c := w.sc.chokeBetween(a, b)
	if c < 0 {
		return true
	}
	ctl := w.controller(w.sc.chokes[c].control)
	if ctl < 0 || ctl == i {
		return true
	}
	return permits(w.players[ctl], w.players[i].ID, w.sc.chokes[c].ID)
}

func permits(owner *player, who, choke string) bool {
	allowed := false
	for _, e := range owner.Permits {
		f := strings.Fields(e) // "+|- power|* choke|*"
		if len(f) != 3 {
			continue
		}
		if (f[1] == who || f[1] == "*") && (f[2] == choke || f[2] == "*") {
			allowed = f[0] == "+"
		}
	}
	return allowed
}

// railPath reports whether armies of player i can go by rail from a to b
// through continuous land areas it controls.
func (w *world) railPath(i, a, b int) bool {
	seen := map[int]bool{a: true}
	queue := []int{a}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, y := range w.sc.areas[x].land {
			if seen[y] || w.dead[y] || !w.controls(i, y) {
				continue
			}
			if y == b {
				return true
			}
			seen[y] = true
			queue = append(queue, y)
		}
	}
	return false
}

// sortedInts returns a sorted copy.
func sortedInts(xs []int) []int {
	out := append([]int(nil), xs...)
	sort.Ints(out)
	return out
}

func (w *world) pname(i int) string { return w.sc.powers[w.players[i].idx].Name }

func (w *world) pid(i int) string { return w.players[i].ID }
