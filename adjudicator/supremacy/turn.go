package supremacy

import (
	"fmt"
	"sort"
	"strings"
)

// stepped reports whether a phase is played one player's step at a time
// (a daemon phase per step) rather than as one mail round.
func (w *world) stepped(ph Phase) bool {
	switch w.opt.Steps {
	case StepsAttack:
		return ph == PhaseAttack
	case StepsAll:
		switch ph {
		case PhaseTrade, PhaseAttack, PhaseMove:
			return true
		case PhaseBuild:
			return !w.opt.BuildTogether
		}
	}
	return false
}

// waiting lists the players who act now.
func (w *world) waiting() []int {
	if w.over {
		return nil
	}
	if !w.stepped(w.phase) {
		return w.alivePlayers()
	}
	if w.phase == PhaseAttack && w.attack != nil && w.attack.Stage == "counter" && len(w.attack.Defenders) > 0 {
		return []int{w.playerIndex(strings.Fields(w.attack.Defenders[0])[0])}
	}
	if w.slot < len(w.order) {
		return []int{w.order[w.slot]}
	}
	return nil
}

// resolve runs the current phase (or step) with every player's orders.
func (r *run) resolve(ords [][]*Order) {
	w := r.w
	for i, p := range w.players {
		if p.alive() {
			r.applyStanding(i, ords[i])
		}
	}
	switch {
	case w.phase == PhaseSetup:
		r.setup(ords)
		r.endOfPhase()
	case w.phase == PhaseSalaries:
		r.salaries(ords)
		r.endOfPhase()
	case !w.stepped(w.phase):
		r.rep.public("%s phase, in the drawn order: %s", w.phase.Title(), r.orderText())
		for _, i := range w.order {
			if w.over {
				break
			}
			if w.players[i].alive() {
				r.script(i, ords[i])
			}
		}
		r.endOfPhase()
	case w.phase == PhaseAttack:
		r.attackStep(ords)
	default:
		active := w.order[w.slot]
		r.others(active, ords)
		r.rep.public("%s phase: %s's step.", w.phase.Title(), w.pname(active))
		r.script(active, ords[active])
		w.step++
		r.nextSlot()
	}
	if !w.over && len(w.alivePlayers()) <= 1 && w.phase != PhaseSetup {
		r.rep.public("Only one player is left: the game ends.")
		r.endGame()
	}
}

// others carries out the anytime orders of the players whose step it is
// not.
func (r *run) others(active int, ords [][]*Order) {
	w := r.w
	for j, p := range w.players {
		if j == active || !p.alive() {
			continue
		}
		for _, o := range ords[j] {
			r.anytime(j, o)
		}
	}
}

// script carries out one player's orders for the phase, in the order
// written.
func (r *run) script(i int, ords []*Order) {
	w := r.w
	for k := 0; k < len(ords); k++ {
		o := ords[k]
		if w.over || !w.players[i].alive() {
			return
		}
		if r.anytime(i, o) {
			continue
		}
		if o.phaseOf() != w.phase {
			continue // Check refused it; a stored line of another phase does nothing
		}
		if !r.condsHold(i, o.Conds, nil) {
			r.skipped(i, o)
			continue
		}
		switch o.Kind {
		case KBuy, KSell:
			r.market(i, o)
		case KAttack, KLaunch:
			var rf *Order
			if k+1 < len(ords) && ords[k+1].Kind == KReinforce {
				rf = ords[k+1]
				k++
			}
			var at *attacked
			if o.Kind == KAttack {
				at = r.conventional(i, o, "attack")
			} else {
				at = r.strategic(i, o, "strategic attack")
				rf = nil
			}
			r.afterAttack(i, at, rf, true)
		case KPass:
			return
		case KMove, KRail, KAirlift, KTransport:
			r.move(i, o)
		case KBuild:
			r.build(i, o)
		case KBuildWeapon:
			r.buildWeapon(i, o)
		case KResearch:
			r.research(i, o)
		case KSellMinor:
			r.sellMinor(i, o)
		case KBuyBack:
			r.buyBack(i, o)
		}
	}
}

// nextSlot moves a stepped phase on to the next player still playing.
func (r *run) nextSlot() {
	w := r.w
	w.slot++
	for w.slot < len(w.order) && !w.players[w.order[w.slot]].alive() {
		w.slot++
	}
	if w.slot >= len(w.order) {
		r.endOfPhase()
	}
}

// endOfPhase settles the phase and opens the next one.
func (r *run) endOfPhase() {
	w := r.w
	if w.over {
		return
	}
	r.settleOffers()
	switch w.phase {
	case PhaseAttack:
		r.conquest()
	case PhaseBuild:
		for _, p := range w.players {
			p.Built = built{}
			p.NewICBM, p.NewABM = false, false
		}
		if w.turn >= w.opt.Turns {
			r.rep.public("Turn %d was the last: the game ends.", w.turn)
			r.endGame()
			return
		}
	}
	if w.over {
		return
	}
	next := w.phase + 1
	if w.phase == PhaseBuild || w.phase == PhaseSetup {
		next = PhaseSalaries
		w.turn++
	}
	r.enter(next)
}

// enter opens a phase: the order of play is drawn (seed: Sequence of Play;
// the cup is a seeded draw).
func (r *run) enter(ph Phase) {
	w := r.w
	w.phase = ph
	w.slot, w.step = 0, 0
	w.attack = nil
	w.order = r.shuffle(w.alivePlayers())
	if ph == PhaseSalaries {
		for _, p := range w.players {
			p.Trades, p.Bought, p.Sold, p.Research = 0, 0, 0, 0
		}
	}
	if ph == PhaseAttack && w.stepped(ph) {
		w.attack = &attackJSON{Stage: "attack"}
	}
	r.rep.public("Next: turn %d, %s phase; order drawn: %s.", w.turn, ph.Title(), r.orderText())
}

// attackStep plays one step of a stepped attack phase: the active player's
// attack, the confirmation of a declared launch, or a defender's
// counterattack (seed: Attack, Step Sequence).
func (r *run) attackStep(ords [][]*Order) {
	w := r.w
	st := w.attack
	if st == nil {
		st = &attackJSON{Stage: "attack"}
		w.attack = st
	}
	active := w.order[w.slot]
	w.step++
	switch st.Stage {
	case "counter":
		fields := strings.Fields(st.Defenders[0])
		d := w.playerIndex(fields[0])
		st.Defenders = st.Defenders[1:]
		r.others(d, ords)
		if d >= 0 && w.players[d].alive() {
			var ca *Order
			answered := false
			for _, o := range ords[d] {
				if r.anytime(d, o) {
					continue
				}
				answered = true
				if (o.Kind == KAttack || o.Kind == KLaunch) && r.condsHold(d, o.Conds, nil) {
					ca = o
					break
				}
				if o.Kind == KPass {
					break
				}
			}
			if !answered {
				var areas []int
				for _, id := range fields[1:] {
					areas = append(areas, r.sc.areaByID[id])
				}
				ca = r.reaction(d, &trigger{attacker: active, areas: areas}, true)
				if ca != nil {
					r.rep.public("  %s sent no answer; its standing counterattack order stands.", w.pname(d))
				}
			}
			if ca != nil {
				r.counterattack(d, ca)
			} else {
				r.rep.public("  %s does not counterattack.", w.pname(d))
			}
		}
		if len(st.Defenders) == 0 {
			st.Stage = "attack"
		}
	case "confirm":
		r.others(active, ords)
		launch, err := r.sc.parseLine(st.Launch)
		st.Launch = ""
		st.Stage = "attack"
		called := false
		for _, o := range ords[active] {
			if r.anytime(active, o) {
				continue
			}
			if o.Kind == KCallOff {
				called = true
			}
		}
		if called || err != nil {
			r.rep.public("  %s calls off the launch.", w.pname(active))
			break
		}
		aim := map[int][]Launch{}
		for j, list := range ords {
			if j == active {
				continue
			}
			for _, o := range list {
				if o.Kind == KIntercept {
					aim[j] = append(aim[j], o.Targets...)
				}
			}
		}
		r.afterStep(active, r.strategicWith(active, launch, "strategic attack", aim), nil)
	default:
		r.others(active, ords)
		var act, rf *Order
		list := ords[active]
		for k := 0; k < len(list); k++ {
			o := list[k]
			if r.anytime(active, o) {
				continue
			}
			if o.Kind == KPass {
				break
			}
			if (o.Kind == KAttack || o.Kind == KLaunch) && act == nil {
				if !r.condsHold(active, o.Conds, nil) {
					r.skipped(active, o)
					continue
				}
				act = o
				if k+1 < len(list) && list[k+1].Kind == KReinforce {
					rf = list[k+1]
				}
			}
		}
		if act == nil || st.Attacks >= maxStepAttacks {
			r.rep.public("  %s makes no further attack.", w.pname(active))
			r.nextSlot()
			if w.phase == PhaseAttack && w.attack != nil {
				w.attack.Attacks = 0
			}
			return
		}
		st.Attacks++
		if act.Kind == KLaunch {
			if why := r.strategicCheck(active, act); why != "" {
				r.rep.public("  %s's launch is not made: %s.", w.pname(active), why)
				return
			}
			st.Launch = r.sc.format(act)
			st.Stage = "confirm"
			var parts []string
			for _, t := range act.Targets {
				parts = append(parts, fmt.Sprintf("%d at %s", t.N, r.sc.placeName(t.Area, t.City)))
			}
			r.rep.public("  %s DECLARES A LAUNCH: %s ICBMs. Until %s confirms (or calls it off) at the next step, players may negotiate and set their ABM orders.", w.pname(active), strings.Join(parts, ", "), w.pname(active))
			return
		}
		r.afterStep(active, r.conventional(active, act, "attack"), rf)
	}
}

// maxStepAttacks bounds the attacks of one player in one attack phase (a
// guard; supplies run out long before).
const maxStepAttacks = 50

// afterStep follows an attack in a stepped attack phase: reinforcements
// now, the defenders' counterattacks as steps of their own.
func (r *run) afterStep(i int, at *attacked, rf *Order) {
	w := r.w
	r.afterAttack(i, at, rf, false)
	if at == nil || w.over {
		return
	}
	for _, d := range r.shuffle(at.defenders) {
		if !w.players[d].alive() {
			continue
		}
		entry := w.pid(d)
		for _, a := range at.areas[d] {
			entry += " " + r.sc.areas[a].ID
		}
		w.attack.Defenders = append(w.attack.Defenders, entry)
	}
	if len(w.attack.Defenders) > 0 {
		w.attack.Stage = "counter"
		var names []string
		for _, e := range w.attack.Defenders {
			names = append(names, w.pname(w.playerIndex(strings.Fields(e)[0])))
		}
		r.rep.public("  Counterattacks, in the drawn order: %s.", strings.Join(names, ", "))
	}
}

// conquest settles, at the end of the attack phase, every player whose
// undestroyed home cities are all held by others, or who has none left
// (seed: Conquest).
func (r *run) conquest() {
	w := r.w
	for v, p := range w.players {
		if !p.alive() {
			continue
		}
		held, by, at := true, -1, -1
		cities := w.homeCities(v)
		for _, c := range cities {
			occ := w.armiesIn(c[0])
			if occ < 0 || occ == v {
				held = false
				break
			}
			if by < 0 || w.capAt[c[0]] > at {
				by, at = occ, w.capAt[c[0]]
			}
		}
		switch {
		case len(cities) == 0:
			r.destroyed(v)
		case held && p.NukedAt > at:
			r.destroyed(v) // the last free city was destroyed, not taken
		case held:
			r.conquered(v, by)
		}
	}
}

// conquered hands a conquered player's cash, bonds and Strategic Reserve
// to the conqueror (seed: Conquest).
func (r *run) conquered(v, by int) {
	w := r.w
	p, q := w.players[v], w.players[by]
	nw := w.netWorth(v)
	r.removePieces(v)
	q.Cash += p.Cash
	q.Bonds += p.Bonds
	q.Oil += p.Oil
	q.Minerals += p.Minerals
	q.Grain += p.Grain
	q.ICBM += p.ICBM
	q.ABM += p.ABM
	q.Cards += p.Cards
	for _, c := range w.companies(v) {
		w.cardAt[c] = cardLoose
	}
	r.rep.public("%s IS CONQUERED by %s (net worth %s): its forces are removed, its loans erased; %s takes its cash, bonds and Strategic Reserve; its companies are open to seizure.",
		strings.ToUpper(w.pname(v)), w.pname(by), money(nw), w.pname(by))
	r.rep.private(q.ID, "  From %s you take %s cash, %s bonds, %d oil, %d minerals, %d grain, %d ICBM, %d ABM and a second Strategic Reserve card.",
		w.pname(v), money(p.Cash), money(p.Bonds), p.Oil, p.Minerals, p.Grain, p.ICBM, p.ABM)
	p.Cash, p.Bonds, p.Loans, p.LoanPeak = 0, 0, 0, 0
	p.Oil, p.Minerals, p.Grain, p.ICBM, p.ABM = 0, 0, 0, 0, 0
	p.Status, p.OutTurn = statusConquered, w.turn
}

// destroyed removes a player whose cities were destroyed by ICBMs: his net
// worth is written down for the end; his cash goes back to the bank and his
// Strategic Reserve out of play (seed: Conquest).
func (r *run) destroyed(v int) {
	w := r.w
	p := w.players[v]
	p.SavedNW = w.netWorth(v)
	r.removePieces(v)
	w.pay(v, p.Cash)
	for _, c := range w.companies(v) {
		w.cardAt[c] = cardLoose
	}
	r.rep.public("%s's home cities are destroyed: it leaves the game with a net worth of %s, which still counts for victory.", w.pname(v), money(p.SavedNW))
	p.Cash, p.Bonds, p.Loans, p.LoanPeak = 0, 0, 0, 0
	p.Oil, p.Minerals, p.Grain, p.ICBM, p.ABM = 0, 0, 0, 0, 0
	p.Status, p.OutTurn = statusDestroyed, w.turn
}

// endGame ranks the players and ends the game (seed: Ending the Game, Net
// Worth, Nuclear Winter).
func (r *run) endGame() {
	w := r.w
	type entry struct {
		i     int
		nw    int
		class int // 0 in the running, 1 triggered nuclear winter, 2 out
	}
	var es []entry
	for i, p := range w.players {
		e := entry{i: i}
		switch p.Status {
		case statusPlaying:
			e.nw = w.netWorth(i)
		case statusDestroyed:
			e.nw = p.SavedNW
		default:
			e.class = 2
			e.nw = -p.OutTurn
		}
		if w.winter && p.ID == w.winBy {
			e.class = 1
		}
		es = append(es, e)
	}
	sort.SliceStable(es, func(a, b int) bool {
		if es[a].class != es[b].class {
			return es[a].class < es[b].class
		}
		return es[a].nw > es[b].nw
	})
	w.ranking = nil
	w.winners = nil
	r.rep.public("FINAL NET WORTH:")
	for k, e := range es {
		p := w.players[e.i]
		w.ranking = append(w.ranking, p.ID)
		note := ""
		switch {
		case e.class == 1:
			note = " (triggered nuclear winter: ranked last)"
		case p.Status == statusDestroyed:
			note = " (written down when its cities were destroyed)"
		case e.class == 2:
			note = " (" + p.Status + ")"
		}
		if e.class == 2 {
			r.rep.public("  %d. %s%s", k+1, w.pname(e.i), note)
		} else {
			r.rep.public("  %d. %s: %s%s", k+1, w.pname(e.i), money(e.nw), note)
		}
		if e.class == 0 && e.nw == es[0].nw && es[0].class == 0 {
			w.winners = append(w.winners, p.ID)
		}
	}
	sort.Strings(w.winners)
	w.over = true
	w.phase = PhaseOver
	w.order, w.attack = nil, nil
}
