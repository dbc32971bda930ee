package supremacy

import (
	"fmt"
	"sort"
	"strings"

	"pbemd/adjudicator"
	"pbemd/orders"
)

// Orders ahead (issue 15 item 16). A turn is five phases that each wait
// for every player; by mail that was five rounds a turn. A player may
// instead send the orders of later phases of the turn in the same mail,
// each group under a section line naming its phase:
//
//	OPEN ALL
//	PHASE trade
//	IF OIL PRICE AT MOST 600: BUY 3 OIL
//	PHASE attack
//	ATTACK mex FROM tex
//	PHASE move
//	IF I CONTROL mex: MOVE 3 tex - mex
//	PHASE build
//	BUILD 3 ARMIES IN tex
//
// The lines before the first section line, and those under a section line
// naming the open phase, are the open phase's orders, as before. The
// orders of a later section are checked now only as far as the position
// cannot change them (the grammar, the phase each order belongs to, what
// never changes about an attack or a move, sets of three); the daemon
// holds them and, when their phase opens, hands them to Check against
// the position then, as if the player had mailed them at that moment.
// Conditions (IF …:) are read when the orders are carried out, as for any
// order, so a held order can wait on what the earlier phases did. A
// section line alone, with no orders under it, withdraws what is held for
// that phase. Phases played step by step (steps=attack, steps=all) are
// not ordered ahead: each step has its own mail.

// maxSections caps the section lines read in one mail (bounded work:
// liveSections).
const maxSections = 16

// sectionFillers are the words a section line may hold besides the phase.
var sectionFillers = map[string]bool{"in": true, "for": true, "the": true, "phase": true, "orders": true, "of": true, "my": true, "during": true}

// sectionWords are the names of the phases of a turn in section lines.
var sectionWords = map[string]Phase{
	"salaries": PhaseSalaries, "salary": PhaseSalaries,
	"trade": PhaseTrade, "trading": PhaseTrade,
	"attack": PhaseAttack, "attacks": PhaseAttack,
	"move": PhaseMove, "moves": PhaseMove, "movement": PhaseMove,
	"build": PhaseBuild, "builds": PhaseBuild, "building": PhaseBuild,
}

// sectionLine reads a section line: PHASE attack, Attack phase:, In the
// attack phase:, Orders for the attack phase. ok is false for any other
// line; bad is set (and ph PhaseNone) for a line that starts with PHASE
// but names no phase of the turn.
func sectionLine(text string) (ph Phase, ok bool, bad string) {
	t := strings.ToLower(strings.TrimSpace(text))
	if len(t) > 60 || t == "" {
		return PhaseNone, false, ""
	}
	t = strings.TrimRight(t, ":.- ")
	words := strings.Fields(strings.ReplaceAll(t, ":", " "))
	if len(words) < 2 {
		return PhaseNone, false, ""
	}
	hasPhase, ph := false, PhaseNone
	if _, named := sectionWords[words[1]]; len(words) > 2 && words[0] == "phase" && named && !sectionFillers[words[2]] {
		return PhaseNone, true, "a PHASE line stands alone: write the phase's orders on the lines below it"
	}
	for _, w := range words {
		switch {
		case w == "phase":
			hasPhase = true
		case sectionFillers[w]:
		default:
			p, known := sectionWords[w]
			if !known || ph != PhaseNone {
				if len(words) > 0 && words[0] == "phase" {
					return PhaseNone, true, "PHASE names one phase of the turn: salaries, trade, attack, move or build"
				}
				return PhaseNone, false, ""
			}
			ph = p
		}
	}
	switch {
	case !hasPhase:
		return PhaseNone, false, ""
	case ph == PhaseNone && words[0] == "phase":
		return PhaseNone, true, "PHASE names one phase of the turn: salaries, trade, attack, move or build"
	case ph == PhaseNone:
		return PhaseNone, false, ""
	}
	return ph, true, ""
}

// Turn implements adjudicator.Aheader: the five phases of the turn open
// in state; the later ones that are one mail round may be ordered ahead.
// Set-up is a turn of its own, with nothing ahead.
func (e *Engine) Turn(state []byte) ([]adjudicator.TurnPhase, error) {
	w, err := decodeWorld(state)
	if err != nil {
		return nil, err
	}
	return w.turnPhases(), nil
}

func (w *world) turnPhases() []adjudicator.TurnPhase {
	if w.over || w.phase == PhaseSetup {
		return nil
	}
	var out []adjudicator.TurnPhase
	for ph := PhaseSalaries; ph <= PhaseBuild; ph++ {
		tp := adjudicator.TurnPhase{
			Key: ph.String(), Title: fmt.Sprintf("Turn %d %s", w.turn, ph.Title()),
			ID: fmt.Sprintf("T%02d-%d", w.turn, int(ph)), Open: ph == w.phase,
			Ahead: ph > w.phase && !w.stepped(ph),
		}
		if w.stepped(ph) {
			tp.ID += "-000"
		}
		out = append(out, tp)
	}
	return out
}

// sectionMark is the phase splitSections gives a section line itself.
const sectionMark = PhaseNone - 1

// mailSections is which phase each line of a mail is for.
type mailSections struct {
	of    []Phase        // per line: its phase, PhaseNone in a refused section, sectionMark for a section line
	void  map[int]string // lines in a refused section: why they are not stored
	named map[Phase]bool // the phases a valid section line named
	open  Phase          // the open phase
}

// forOpen reports whether line k is for the open phase.
func (ms *mailSections) forOpen(k int) bool { return ms.of[k] == ms.open }

// splitSections gives each line of a mail the phase its orders are for:
// the open phase until a section line names another. A section the
// player may not order now (an earlier phase, one played step by step, a
// section line naming none) is PhaseNone, its refusal in void. Valid
// section lines become Ignored; refused ones carry the error.
func (w *world) splitSections(lines []orders.Line) *mailSections {
	ms := &mailSections{of: make([]Phase, len(lines)), open: w.phase, named: map[Phase]bool{}}
	turn := w.turnPhases()
	cur, why, seen := w.phase, "", 0
	live := liveSections(lines)
	for k := range lines {
		l := &lines[k]
		ms.of[k] = cur
		if cur == PhaseNone {
			ms.void[k] = why
		}
		if l.Kind != orders.OrderLine && l.Kind != orders.ErrorLine && l.Kind != orders.Ignored {
			continue
		}
		ph, ok, bad := sectionLine(l.Text)
		if !ok || seen >= maxSections || (l.Kind == orders.Ignored && !live[k]) {
			continue
		}
		seen++
		delete(ms.void, k)
		ms.of[k] = sectionMark
		l.Kind, l.Value, l.Diags = orders.Ignored, nil, nil
		msg := bad
		switch {
		case msg != "":
		case ph == w.phase:
		case len(turn) == 0:
			msg = "no orders are sent ahead now: set-up is a turn of its own; send each phase's orders once it has opened"
		case ph < w.phase:
			msg = fmt.Sprintf("the %s phase of this turn is over (this is the %s phase)", ph.Title(), w.phase.Title())
		case w.stepped(ph):
			msg = fmt.Sprintf("the %s phase is played step by step in this game: send its orders at your step", ph.Title())
		}
		if msg == "" {
			cur, why = ph, ""
			ms.named[ph] = true
			continue
		}
		l.Kind = orders.ErrorLine
		l.Diags = []orders.Diagnostic{{Severity: orders.Error, Message: msg, Suggestion: "PHASE attack"}}
		cur, why = PhaseNone, "not stored: the section line above it was refused"
		if ms.void == nil {
			ms.void = map[int]string{}
		}
	}
	return ms
}

// liveSections finds the section lines among the lines the mail reader
// ignored that it reads at all (not below the signature or a quoted
// original): a section line it took for chatter ("Build phase:") counts
// only then. Reading stops for good, so these are the first of the
// candidates: a binary search finds where they end, each probe two passes
// of orders.ReadLines (bounded work: at most maxSections candidates).
func liveSections(lines []orders.Line) map[int]bool {
	var cand []int
	for k := range lines {
		if _, ok, _ := sectionLine(lines[k].Text); ok && lines[k].Kind == orders.Ignored && len(cand) < maxSections {
			cand = append(cand, k)
		}
	}
	if len(cand) == 0 {
		return nil
	}
	texts := make([]string, cand[len(cand)-1]+1)
	for j := range texts {
		texts[j] = lines[j].Text
	}
	read := func(k int) bool { // line k is read: it counts
		return orders.ReadLines(strings.Join(texts[:k+1], "\n"), 0) > orders.ReadLines(strings.Join(texts[:k], "\n"), 0)
	}
	n := sort.Search(len(cand), func(j int) bool { return !read(cand[j]) })
	live := make(map[int]bool, n)
	for _, k := range cand[:n] {
		live[k] = true
	}
	return live
}

// checkHeld reads the orders of the mail's later sections for player i:
// each section's lines checked as far as they can be before its phase
// opens, an empty section withdrawing what is held for it.
func (w *world) checkHeld(i int, lines []orders.Line, ms *mailSections) []adjudicator.Held {
	sc := w.sc
	var held []adjudicator.Held
	for _, tp := range w.turnPhases() {
		ph := sectionWords[tp.Key]
		if !tp.Ahead || !ms.named[ph] {
			continue
		}
		written := false // any order line, read or not
		var canon []string
		prev := KNone
		for k := range lines {
			if ms.of[k] != ph {
				if ms.of[k] == sectionMark {
					prev = KNone
				}
				continue
			}
			l := &lines[k]
			o, ok := l.Value.(*Order)
			if l.Kind == orders.ErrorLine {
				written = true
			}
			if l.Kind != orders.OrderLine || !ok {
				continue
			}
			written = true
			errs := w.vetAhead(i, o, ph)
			if o.Kind == KReinforce {
				if why := reinforceAfter(prev); why != "" {
					errs = append(errs, why)
				}
			}
			for _, m := range errs {
				l.Diags = append(l.Diags, orders.Diagnostic{Severity: orders.Error, Message: m})
			}
			if len(errs) > 0 {
				prev = KNone
				continue
			}
			prev = o.Kind
			canon = append(canon, sc.format(o))
		}
		switch {
		case len(canon) > 0:
			held = append(held, adjudicator.Held{Phase: tp, Lines: canon})
		case !written:
			held = append(held, adjudicator.Held{Phase: tp}) // an empty section: withdraw
		}
	}
	for k, why := range ms.void {
		if l := &lines[k]; l.Kind == orders.OrderLine {
			l.Diags = append(l.Diags, orders.Diagnostic{Severity: orders.Error, Message: why})
		}
	}
	return held
}

// vetAhead checks an order for a later phase ph of the turn as far as the
// position cannot change it: vet's errors as if ph were open (they depend
// on the rules and on what stays true within a turn); its warnings, which
// read the position, wait for the phase to open.
func (w *world) vetAhead(i int, o *Order, ph Phase) []string {
	if !o.anytime() && o.phaseOf() != ph {
		return []string{fmt.Sprintf("%s is an order of the %s phase, not of the %s phase its section names", strings.Fields(w.sc.format(o))[0], o.phaseOf().Title(), ph.Title())}
	}
	open := w.phase
	w.phase = ph
	errs, _ := w.vet(i, o, true)
	w.phase = open
	return errs
}

var _ adjudicator.Aheader = (*Engine)(nil)
