package supremacy

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"pbemd/adjudicator"
)

// RandomOrders returns seeded random orders for one power in the current
// phase, as canonical order lines: a bot for tests, benchmarks and demos.
// The orders are plausible (mostly legal as things stand) but not
// clever; some fail on purpose.
func RandomOrders(state []byte, power string, seed int64) ([]string, error) {
	w, err := decodeWorld(state)
	if err != nil {
		return nil, err
	}
	i := w.playerIndex(power)
	if i < 0 {
		return nil, fmt.Errorf("supremacy: %q is not a player", power)
	}
	if w.over || !w.players[i].alive() {
		return nil, nil
	}
	b := &bot{w: w, sc: w.sc, i: i, rng: rand.New(rand.NewPCG(uint64(seed), 0xb07))}
	var out []string
	for _, o := range b.orders() {
		out = append(out, w.sc.format(o))
	}
	return out, nil
}

type bot struct {
	w   *world
	sc  *Scenario
	i   int
	rng *rand.Rand
	out []*Order
}

func (b *bot) chance(pct int) bool { return b.rng.IntN(100) < pct }

func (b *bot) add(o *Order) { b.out = append(b.out, o) }

func (b *bot) pick(xs []int) int {
	if len(xs) == 0 {
		return -1
	}
	return xs[b.rng.IntN(len(xs))]
}

func (b *bot) acting() bool {
	for _, j := range b.w.waiting() {
		if j == b.i {
			return true
		}
	}
	return false
}

func (b *bot) orders() []*Order {
	w := b.w
	b.standing()
	if !b.acting() {
		b.finance()
		return b.out
	}
	switch w.phase {
	case PhaseSetup:
		b.setup()
	case PhaseSalaries:
		b.finance()
		b.salaries()
	case PhaseTrade:
		b.trade()
	case PhaseAttack:
		b.attack()
	case PhaseMove:
		b.moves()
	case PhaseBuild:
		b.build()
	}
	return b.out
}

func (b *bot) homes() []int { return b.sc.powers[b.w.players[b.i].idx].homes }

// mine lists the land areas where the bot has armies, and its seas.
func (b *bot) mine() (land, seas []int) {
	for a := range b.sc.areas {
		if b.w.armies(b.i, a) > 0 {
			land = append(land, a)
		}
		if b.w.navies(b.i, a) > 0 {
			seas = append(seas, a)
		}
	}
	return
}

func (b *bot) others() []string {
	var out []string
	for j, p := range b.w.players {
		if j != b.i && p.alive() {
			out = append(out, p.ID)
		}
	}
	return out
}

func (b *bot) standing() {
	w := b.w
	if b.chance(15) {
		o := newOrder(KContest)
		if b.chance(50) {
			o.Rounds = 1 + b.rng.IntN(2)
		}
		b.add(o)
	}
	if b.chance(10) {
		o := newOrder(KABM)
		o.Policy = []string{"own", "all", "off"}[b.rng.IntN(3)]
		b.add(o)
	}
	if b.chance(5) {
		o := newOrder(KPermit)
		if others := b.others(); len(others) > 0 && b.chance(50) {
			o.Power = others[b.rng.IntN(len(others))]
		}
		o.Deny = b.chance(30)
		b.add(o)
	}
	if b.chance(20) {
		land, _ := b.mine()
		a := b.pick(land)
		if a >= 0 {
			if t := b.enemyNeighbour(a); t >= 0 {
				sub := newOrder(KAttack)
				sub.Strikes = []Strike{{Target: t, Sources: []Source{{Area: a, Via: -1, To: -1}}, Rounds: 1}}
				b.add(reaction([]Cond{{Kind: CondAttacked, Area: a}}, sub))
			}
			if n := b.controlledNeighbour(a); n >= 0 {
				sub := newOrder(KMove)
				sub.Legs = []Leg{{N: 1, From: a, To: n}}
				b.add(reaction([]Cond{{Kind: CondAttacked, Area: n}}, sub))
			}
		}
		if w.players[b.i].ICBM > 0 {
			if t, c := b.enemyCity(); t >= 0 {
				sub := newOrder(KLaunch)
				sub.Targets = []Launch{{N: 1, Area: t, City: c}}
				b.add(reaction([]Cond{{Kind: CondAttacked, Area: -1}}, sub))
			}
		}
	}
	if b.chance(3) {
		b.add(newOrder(KNoReact))
	}
}

func (b *bot) finance() {
	w := b.w
	p := w.players[b.i]
	switch {
	case p.Cash < 800 && p.Loans < w.sc.Loans.Max():
		o := newOrder(KLoan)
		o.N = w.sc.Rules.LoanUnit * (1 + b.rng.IntN(2))
		b.add(o)
	case p.Cash > 6000 && b.chance(30):
		o := newOrder(KBuyBonds)
		o.N = w.sc.Rules.LoanUnit
		b.add(o)
	case p.Loans > 0 && p.Cash > 4000 && b.chance(30):
		o := newOrder(KRepay)
		o.N = w.sc.Rules.LoanUnit
		b.add(o)
	case p.Bonds > 0 && p.Cash < 1000:
		o := newOrder(KSellBonds)
		o.N = w.sc.Rules.LoanUnit
		b.add(o)
	}
	if b.chance(20) {
		b.add(&Order{Kind: KSeize, All: true, Area: -1, Card: -1, Choke: -1, Via: -1, ViaTo: -1, Minor: -1})
	}
	others := b.others()
	if len(others) > 0 && b.chance(8) {
		o := newOrder(KOffer)
		o.N = 1
		o.Power = others[b.rng.IntN(len(others))]
		o.Give = []Item{{Kind: ItemCash, N: 100 * (1 + b.rng.IntN(5))}}
		if w.phase == PhaseTrade && b.chance(60) {
			o.Get = []Item{{Kind: ItemResource, N: 1, Res: Resource(b.rng.IntN(3))}}
		}
		b.add(o)
	}
	if len(others) > 0 && b.chance(10) {
		o := newOrder(KAccept)
		o.N = 1
		o.Power = others[b.rng.IntN(len(others))]
		b.add(o)
	}
}

func (b *bot) setup() {
	if b.chance(10) {
		b.add(newOrder(KMisdeal))
	}
	homes := b.homes()
	o := newOrder(KPlace)
	left := b.sc.Rules.StartForces
	if b.chance(60) {
		var seas []int
		for _, h := range homes {
			seas = append(seas, b.sc.areas[h].seas...)
		}
		if s := b.pick(seas); s >= 0 {
			n := 1 + b.rng.IntN(3)
			o.Parts = append(o.Parts, Leg{N: n, From: -1, To: s})
			left -= n
		}
	}
	for left > 0 {
		n := min(left, 1+b.rng.IntN(3))
		o.Parts = append(o.Parts, Leg{N: n, From: -1, To: homes[b.rng.IntN(len(homes))]})
		left -= n
	}
	b.add(o)
}

func (b *bot) salaries() {
	w := b.w
	if cs := w.companies(b.i); len(cs) > 0 && b.chance(10) {
		o := newOrder(KClose)
		o.Card = cs[b.rng.IntN(len(cs))]
		b.add(o)
	}
	land, _ := b.mine()
	if a := b.pick(land); a >= 0 && b.chance(8) {
		o := newOrder(KDisband)
		o.N, o.Unit, o.Area = 1, UArmy, a
		b.add(o)
	}
	for c := range b.sc.cards {
		at := w.cardAt[c]
		if at < 0 || at == b.i {
			continue
		}
		a := w.cardArea(c)
		seas := b.sc.areas[a].seas
		if len(seas) == 0 {
			continue
		}
		held := true
		for _, s := range seas {
			held = held && w.controls(b.i, s)
		}
		if held {
			o := newOrder(KBlockade)
			o.Card = c
			b.add(o)
		}
	}
}

func (b *bot) trade() {
	w := b.w
	p := w.players[b.i]
	b.finance()
	trades := 0
	for r := Resource(0); r < nResources && trades < 3; r++ {
		have := *p.res(r)
		switch {
		case have < 3 && w.room(b.i, r) > 0:
			o := newOrder(KBuy)
			o.Res, o.N = r, min(3-have+b.rng.IntN(2), w.room(b.i, r))
			if b.chance(25) {
				o.Conds = []Cond{{Kind: CondPrice, Res: r, Op: OpLE, N: 700}}
			}
			b.add(o)
			trades++
		case have > 8 && b.chance(50):
			o := newOrder(KSell)
			o.Res, o.N = r, 2
			b.add(o)
			trades++
		}
	}
}

// enemyNeighbour is a land area next to a that the bot does not control.
func (b *bot) enemyNeighbour(a int) int {
	var ts []int
	for _, t := range b.sc.areas[a].land {
		if !b.w.dead[t] && !b.w.controls(b.i, t) {
			ts = append(ts, t)
		}
	}
	return b.pick(ts)
}

func (b *bot) controlledNeighbour(a int) int {
	var ts []int
	for _, t := range b.sc.areas[a].land {
		if !b.w.dead[t] && b.w.controls(b.i, t) {
			ts = append(ts, t)
		}
	}
	return b.pick(ts)
}

// enemyCity is a city of another player to aim an ICBM at.
func (b *bot) enemyCity() (int, int) {
	var cs [][2]int
	for j, p := range b.w.players {
		if j != b.i && p.alive() {
			cs = append(cs, b.w.homeCities(j)...)
		}
	}
	if len(cs) == 0 {
		return -1, -1
	}
	c := cs[b.rng.IntN(len(cs))]
	city := c[1]
	if len(b.sc.areas[c[0]].Cities) < 2 {
		city = -1
	}
	if b.w.controls(b.i, c[0]) {
		return -1, -1
	}
	return c[0], city
}

func (b *bot) attack() {
	w := b.w
	p := w.players[b.i]
	if st := w.attack; st != nil {
		switch st.Stage {
		case "confirm":
			if b.chance(80) {
				b.add(newOrder(KConfirm))
			} else {
				b.add(newOrder(KCallOff))
			}
			return
		case "counter":
			if b.chance(50) {
				b.add(newOrder(KPass))
				return
			}
		}
		if st.Stage == "attack" && st.Attacks >= 2 {
			b.add(newOrder(KPass))
			return
		}
	}
	land, seas := b.mine()
	n := 1 + b.rng.IntN(2)
	for k := 0; k < n; k++ {
		switch x := b.rng.IntN(10); {
		case x < 6:
			a := b.pick(land)
			if a < 0 || w.armies(b.i, a) < 2 {
				continue
			}
			t := b.enemyNeighbour(a)
			if t < 0 {
				continue
			}
			o := newOrder(KAttack)
			st := Strike{Target: t, Sources: []Source{{Area: a, Via: -1, To: -1}}, Rounds: 1}
			if b.chance(40) {
				st.Rounds = 2 + b.rng.IntN(2)
			} else {
				for _, a2 := range b.sc.areas[t].land {
					if a2 != a && w.armies(b.i, a2) > 1 && len(st.Sources) < 3 {
						st.Sources = append(st.Sources, Source{Area: a2, Via: -1, To: -1})
					}
				}
			}
			o.Strikes = []Strike{st}
			o.Stay = b.chance(20)
			b.add(o)
			counter := w.attack != nil && w.attack.Stage == "counter" // a counterattack step takes no reinforcement
			if !counter && b.chance(30) {
				if n := b.controlledNeighbour(a); n >= 0 {
					sub := newOrder(KMove)
					sub.Legs = []Leg{{From: n, To: a}}
					rf := newOrder(KReinforce)
					rf.Sub = sub
					b.add(rf)
				}
			}
		case x < 8:
			s := b.pick(seas)
			if s < 0 {
				continue
			}
			o := newOrder(KAttack)
			// an invasion from a neighbouring land area, or a naval strike
			for _, l := range b.sc.areas[s].adj {
				if !w.isSea(l) && w.armies(b.i, l) > 0 {
					for _, t := range b.sc.areas[s].adj {
						if !w.isSea(t) && t != l && !w.dead[t] && !w.controls(b.i, t) {
							o.Strikes = []Strike{{Target: t, Sources: []Source{{Area: l, Via: s, To: -1}}, Rounds: 1 + b.rng.IntN(2)}}
							break
						}
					}
				}
				if len(o.Strikes) > 0 {
					break
				}
			}
			if len(o.Strikes) == 0 {
				for _, t := range append([]int{s}, b.sc.areas[s].seas...) {
					if w.navyOthers(b.i, t) {
						o.Strikes = []Strike{{Target: t, Sources: []Source{{Area: s, Via: -1, To: -1}}, Rounds: 1}}
						for pi, nv := range w.navy[t] {
							if nv > 0 && w.byPower[pi] != b.i && w.byPower[pi] >= 0 {
								o.Strikes[0].Power = w.players[w.byPower[pi]].ID
								break
							}
						}
						break
					}
				}
			}
			if len(o.Strikes) > 0 {
				b.add(o)
			}
		default:
			if p.ICBM > 0 && b.chance(50) {
				if t, c := b.enemyCity(); t >= 0 {
					o := newOrder(KLaunch)
					o.Targets = []Launch{{N: min(p.ICBM, 1+b.rng.IntN(2)), Area: t, City: c}}
					b.add(o)
				}
			}
		}
	}
}

func (b *bot) moves() {
	w := b.w
	land, seas := b.mine()
	if a := b.pick(land); a >= 0 && w.armies(b.i, a) > 1 {
		if n := b.controlledNeighbour(a); n >= 0 {
			o := newOrder(KMove)
			o.Legs = []Leg{{N: 1 + b.rng.IntN(w.armies(b.i, a)-1), From: a, To: n}}
			b.add(o)
		}
	}
	if b.chance(30) {
		if a := b.pick(land); a >= 0 {
			var ctl []int
			for t := range b.sc.areas {
				if t != a && !w.isSea(t) && w.controls(b.i, t) {
					ctl = append(ctl, t)
				}
			}
			if t := b.pick(ctl); t >= 0 {
				k := KRail
				if b.chance(50) {
					k = KAirlift
				}
				o := newOrder(k)
				o.Legs = []Leg{{N: min(w.armies(b.i, a), b.sc.Rules.AirliftArmies), From: a, To: t}}
				b.add(o)
			}
		}
	}
	if s := b.pick(seas); s >= 0 {
		if t := b.pick(b.sc.areas[s].seas); t >= 0 {
			o := newOrder(KMove)
			o.Legs = []Leg{{From: s, To: t}}
			b.add(o)
		}
		if b.chance(30) {
			for _, l := range b.sc.areas[s].adj {
				if w.isSea(l) || w.armies(b.i, l) == 0 {
					continue
				}
				for _, t := range b.sc.areas[s].adj {
					if t != l && !w.isSea(t) && w.controls(b.i, t) {
						o := newOrder(KTransport)
						o.Legs = []Leg{{N: 1, From: l, To: t}}
						o.Via = s
						b.add(o)
						return
					}
				}
			}
		}
	}
}

func (b *bot) build() {
	w := b.w
	p := w.players[b.i]
	b.finance()
	if b.chance(40) {
		o := newOrder(KResearch)
		switch x := b.rng.IntN(5); {
		case x == 3 && !p.TechICBM:
			o.Tech = TechICBM
		case x == 4 && !p.TechABM:
			o.Tech = TechABM
		default:
			o.Res = Resource(b.rng.IntN(3))
		}
		o.N = 2 + b.rng.IntN(5)
		b.add(o)
	}
	sets := min(p.Oil, p.Minerals, p.Grain, p.Cash/b.sc.Costs.Forces.Cash)
	if sets > 0 {
		var homes []int
		for _, h := range b.homes() {
			if w.controls(b.i, h) && !w.dead[h] {
				homes = append(homes, h)
			}
		}
		if h := b.pick(homes); h >= 0 {
			o := newOrder(KBuild)
			if seas := b.sc.areas[h].seas; len(seas) > 0 && b.chance(30) {
				o.Parts = []Leg{{N: 2, From: -1, To: h}, {N: 1, From: -1, To: seas[0]}}
			} else {
				o.Parts = []Leg{{N: 3, From: -1, To: h}}
			}
			b.add(o)
			if b.chance(5) {
				var minors []int
				for a := range b.sc.areas {
					if w.minorOpen(a) {
						minors = append(minors, a)
					}
				}
				if m := b.pick(minors); m >= 0 {
					s := newOrder(KSellMinor)
					s.N, s.Unit, s.Area, s.Minor = 1, UArmy, h, m
					b.add(s)
				}
			}
		}
	}
	if (p.TechICBM || p.NewICBM) && p.Minerals > 2 && b.chance(60) {
		o := newOrder(KBuildWeapon)
		o.N, o.Unit = 1, UICBM
		b.add(o)
	}
	if (p.TechABM || p.NewABM) && p.Minerals > 3 && b.chance(50) {
		o := newOrder(KBuildWeapon)
		o.N, o.Unit = 1, UABM
		b.add(o)
	}
}

var _ adjudicator.Bot = (*Engine)(nil)

// BotOrders implements adjudicator.Bot: RandomOrders as the text of a mail.
func (e *Engine) BotOrders(state []byte, power string, seed int64) (string, error) {
	lines, err := RandomOrders(state, power, seed)
	return strings.Join(lines, "\n"), err
}
