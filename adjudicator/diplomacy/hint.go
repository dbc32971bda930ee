package diplomacy

import (
	"slices"
	"strings"

	"pbemd/orders"
)

// This file is the grammar's hint for an order written as an English
// sentence ("my fleet in London moves to the North Sea", "The army in
// Rome holds"): instead of the first word it could not read, the player
// is told the order the sentence names, when its words name a unit and
// provinces of the map ("did you mean F Lon - Nth?"), else the order
// forms. It is only a hint: the line stays an error and has no effect.

// sentenceWords are English words that are no part of an order. A line
// that failed at one of them (or at a verb of englishVerbs) is read as a
// sentence.
var sentenceWords = map[string]bool{
	"my": true, "our": true, "your": true, "the": true, "an": true, "i": true, "we": true, "me": true, "us": true,
	"in": true, "at": true, "from": true, "of": true, "on": true, "with": true, "and": true, "then": true,
	"want": true, "wants": true, "would": true, "like": true, "please": true, "will": true, "shall": true,
	"should": true, "must": true, "can": true, "let": true, "is": true, "are": true, "be": true, "now": true,
	"which": true, "that": true, "who": true, "currently": true, "located": true, "stationed": true, "there": true,
	"its": true, "his": true, "her": true, "their": true, "toward": true, "towards": true, "up": true,
}

// englishVerbs are the verbs of a sentence, beyond the grammar's own
// keywords ("moves", "supports", "holds" are keywords already), by the
// order they name.
var englishVerbs = map[string]keyword{
	"go": kMove, "goes": kMove, "going": kMove, "march": kMove, "marches": kMove, "sail": kMove, "sails": kMove,
	"advance": kMove, "advances": kMove, "enter": kMove, "enters": kMove, "invade": kMove, "invades": kMove,
	"moving": kMove, "attacking": kMove, "head": kMove, "heads": kMove,
	"help": kSupport, "helps": kSupport, "assist": kSupport, "assists": kSupport, "back": kSupport, "backs": kSupport, "supported": kSupport,
	"stay": kHold, "stays": kHold, "remain": kHold, "remains": kHold, "defend": kHold, "defends": kHold, "holding": kHold,
	"carry": kConvoy, "carries": kConvoy, "ferry": kConvoy, "ferries": kConvoy,
	"flee": kRetreat, "flees": kRetreat, "retreating": kRetreat,
	"armies": kArmy, "fleets": kFleet,
	"raise": kBuild, "disbanded": kDisband,
}

// sentenceHint replaces the diagnostics of a line the grammar could not
// read with a hint of the order form when the line is an English
// sentence: it failed at an English word, or its words name an order.
// It reads the line's tokens once (names by exact spelling only), so it
// costs no more than the parse did.
func (p *dipParse) sentenceHint() {
	sc := p.sc
	if p.finishing {
		return // the order was read: what follows it is the problem ("A Par - Bur please")
	}
	toks := sc.Tokens()
	words := 0
	for _, t := range toks {
		if sentenceWords[t.Norm] || englishVerbs[t.Norm] != kNone {
			words++
		}
	}
	if words == 0 {
		return // nothing English in it: the parser's own message is the better one
	}
	failedAt := sc.Peek().Norm
	english := sentenceWords[failedAt] || englishVerbs[failedAt] != kNone || keywords[failedAt] == kArmy || keywords[failedAt] == kFleet
	r := sentence{g: p.g, sc: sc}
	r.read(toks)
	sugg := r.order()
	if !english && sugg == "" {
		return
	}
	sc.DropErrors()
	if sugg != "" {
		sc.Fail("an order is written short, not as a sentence: did you mean "+sugg+"?", "")
		return
	}
	sc.Fail("an order is written short, not as a sentence: the unit, its province, then the order, one per line", r.forms())
}

// sentence is what a sentence names: its units and provinces in order,
// and the orders its verbs name.
type sentence struct {
	g      *grammar
	sc     *orders.Scanner // (not the dipParse: it would escape to the heap on every line)
	places []place
	verbs  [kWaive + 1]bool
}

// place is one province of a sentence, with the unit word written before
// it ("fleet in London").
type place struct {
	loc  Location
	unit UnitType
}

func (r *sentence) read(toks []orders.Token) {
	sc, g := r.sc, r.g
	unit := NoUnit
	for i := 0; i < len(toks); {
		t := toks[i]
		sc.Seek(i)
		next := ""
		if i+1 < len(toks) {
			next = toks[i+1].Norm
		}
		k := keywords[t.Norm]
		switch {
		case t.Kind == orders.Punct && k != kMove:
			i++
			continue
		case (t.Norm == "a" || t.Norm == "f") && !sc.NameAhead(g.prov, 1):
			// the article "a", or a letter before no province
			i++
			continue
		case k == kArmy || k == kFleet:
			unit = map[keyword]UnitType{kArmy: Army, kFleet: Fleet}[k]
			i++
			continue
		case sentenceWords[t.Norm] && !(sc.NameAhead(g.prov, 0) && (next == "" || englishVerbs[next] != kNone || keywords[next] != kNone && keywords[next] != kArmy && keywords[next] != kFleet)):
			// an English word, unless it is a province's name followed by
			// a verb ("my army in The moves …": Thebes)
			i++
			continue
		case englishVerbs[t.Norm] != kNone:
			if v := englishVerbs[t.Norm]; v == kArmy || v == kFleet {
				unit = map[keyword]UnitType{kArmy: Army, kFleet: Fleet}[v]
			} else {
				r.verbs[v] = true
			}
			i++
			continue
		}
		if sc.NameAhead(g.prov, 0) {
			m, err := sc.Name(g.prov)
			if err == nil {
				loc := Location{Province: m.ID}
				next := max(sc.Pos(), i+1)
				loc.Coast, next = coastIn(toks, next, g.prov.At(m.Index))
				r.places = append(r.places, place{loc: loc, unit: unit})
				unit = NoUnit
				i = next
				continue
			}
		}
		if k != kNone {
			r.verbs[k] = true
		}
		i++
	}
}

// coastIn reads a coast of province name written from token i on ("north
// coast", "(sc)", "/nc"): the coast id and the token after it, or "" and
// i when none of the province's coasts is written there.
func coastIn(toks []orders.Token, i int, name orders.Name) (string, int) {
	if len(name.Coasts) == 0 {
		return "", i
	}
	j := i
	for j < len(toks) && (toks[j].Norm == "(" || toks[j].Norm == "/") {
		j++
	}
	if j >= len(toks) {
		return "", i
	}
	letter, ok := coastWords[toks[j].Norm]
	if !ok {
		return "", i
	}
	c := string(letter) + "c"
	if !slices.Contains(name.Coasts, c) {
		return "", i
	}
	j++
	for j < len(toks) && (toks[j].Norm == "coast" || toks[j].Norm == ")") {
		j++
	}
	return c, j
}

// unitOf is the unit a place names, or the one the position has there.
func (r *sentence) unitOf(pl place) UnitType {
	if pl.unit != NoUnit {
		return pl.unit
	}
	if pos := r.g.pos; pos != nil {
		if u, _, _, ok := pos.UnitAt(pl.loc.Province); ok {
			return u
		}
	}
	return NoUnit
}

// order is the order the sentence names, in canonical form, or "" when
// its words name none.
func (r *sentence) order() string {
	v, ps := r.verbs, r.places
	var o Order
	switch {
	case v[kSupport] && len(ps) >= 3:
		o = Order{Kind: SupportMove, Unit: r.unitOf(ps[0]), Loc: ps[0].loc, AuxUnit: r.unitOf(ps[1]), Aux: ps[1].loc, Target: ps[2].loc}
	case v[kSupport] && len(ps) == 2:
		o = Order{Kind: SupportHold, Unit: r.unitOf(ps[0]), Loc: ps[0].loc, AuxUnit: r.unitOf(ps[1]), Aux: ps[1].loc}
	case v[kConvoy] && len(ps) >= 3:
		o = Order{Kind: Convoy, Unit: Fleet, Loc: ps[0].loc, AuxUnit: Army, Aux: ps[1].loc, Target: ps[2].loc}
	case v[kBuild] && len(ps) == 1:
		o = Order{Kind: Build, Unit: ps[0].unit, Loc: ps[0].loc}
		if o.Unit == NoUnit {
			return ""
		}
	case v[kDisband] && len(ps) == 1:
		o = Order{Kind: Disband, Unit: r.unitOf(ps[0]), Loc: ps[0].loc}
	case v[kRetreat] && len(ps) == 2:
		o = Order{Kind: Retreat, Unit: r.unitOf(ps[0]), Loc: ps[0].loc, Target: ps[1].loc}
	case (v[kMove] || v[kTo] || v[kRetreat]) && len(ps) == 2 && !v[kSupport] && !v[kConvoy]:
		o = Order{Kind: Move, Unit: r.unitOf(ps[0]), Loc: ps[0].loc, Target: ps[1].loc}
		if r.g.phase == RetreatPhase {
			o.Kind = Retreat
		}
	case v[kHold] && len(ps) == 1 && !v[kMove] && !v[kSupport] && !v[kConvoy]:
		o = Order{Kind: Hold, Unit: r.unitOf(ps[0]), Loc: ps[0].loc}
	default:
		return ""
	}
	return format(o, r.g.prov)
}

// forms are the order forms, written with the sentence's first unit when
// it names one.
func (r *sentence) forms() string {
	if len(r.places) > 0 {
		ex := format(Order{Kind: Hold, Unit: r.unitOf(r.places[0]), Loc: r.places[0].loc}, r.g.prov)
		ex = strings.TrimSuffix(ex, " H")
		return ex + " H (hold), " + ex + " - <province> (move), " + ex + " S <unit> <province> [- <province>] (support), " +
			"F <sea> C A <province> - <province> (convoy)"
	}
	return "A <province> - <province> (move), A <province> H (hold), A <province> S A <province> - <province> (support), " +
		"F <sea> C A <province> - <province> (convoy)"
}

// reachHint is what a unit that was ordered somewhere it cannot reach can
// do instead, for its misorder: " (from Memphis an army can move to Ale,
// Sii, The)". A player on a phone has no map to look at; the mail names
// the moves. Army moves are by land (a convoy can take it further);
// a fleet's are from its coast.
func (m *Map) reachHint(t UnitType, pi, loc int) string {
	var to []string
	if t == Army {
		for i := range m.Provinces {
			if m.army[pi].has(i) {
				to = append(to, m.Provinces[i].Abbrev)
			}
		}
	} else {
		for l := range m.locs {
			if m.fleet[loc].has(l) {
				to = append(to, m.LocName(m.locOrder(l)))
			}
		}
	}
	slices.Sort(to)
	from, kind := m.Provinces[pi].Full, "an army"
	if from == "" {
		from = m.Provinces[pi].Abbrev
	}
	if t == Fleet {
		kind = "a fleet"
		if l := m.locOrder(loc); l.Coast != "" {
			from = m.LocName(l)
		}
	}
	if len(to) == 0 {
		if t == Army {
			return " (from " + from + " an army moves only by convoy)"
		}
		return " (from " + from + " a fleet can move nowhere)"
	}
	return " (from " + from + " " + kind + " can move to " + strings.Join(to, ", ") + ")"
}
