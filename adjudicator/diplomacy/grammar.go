package diplomacy

import (
	"fmt"
	"strings"

	"pbemd/orders"
)

// grammar is the Diplomacy order grammar over a lexicon (an
// orders.Grammar and orders.Vocabulary).
type grammar struct {
	prov, pow *orders.Names
	pos       UnitFinder
	phase     ParsePhase
	err       error // the lexicon's names are inconsistent: no order can be read
}

// Names implements orders.Vocabulary: the provinces.
func (g *grammar) Names() *orders.Names { return g.prov }

// Keyword implements orders.Vocabulary.
func (g *grammar) Keyword(norm string) bool {
	_, ok := keywords[norm]
	return ok
}

// keyword classes of the Diplomacy grammar.
type keyword uint8

const (
	kNone keyword = iota
	kArmy
	kFleet
	kHold
	kMove
	kTo
	kSupport
	kConvoy
	kVia
	kRetreat
	kDisband
	kBuild
	kWaive
)

// keywords maps every accepted spelling of an order word to its class.
var keywords = map[string]keyword{
	"a": kArmy, "army": kArmy,
	"f": kFleet, "fleet": kFleet, "flt": kFleet,
	"h": kHold, "hold": kHold, "holds": kHold, "stand": kHold, "stands": kHold,
	"m": kMove, "move": kMove, "moves": kMove, "mv": kMove, "attack": kMove, "attacks": kMove,
	"-": kMove, "->": kMove,
	"to": kTo, "into": kTo,
	"s": kSupport, "support": kSupport, "supports": kSupport, "sup": kSupport, "supp": kSupport, "supporting": kSupport,
	"c": kConvoy, "convoy": kConvoy, "convoys": kConvoy, "cvy": kConvoy, "convoying": kConvoy, "transport": kConvoy, "transports": kConvoy,
	"via": kVia, "by": kVia,
	"r": kRetreat, "retreat": kRetreat, "retreats": kRetreat,
	"d": kDisband, "disband": kDisband, "disbands": kDisband, "remove": kDisband, "removes": kDisband,
	"b": kBuild, "build": kBuild, "builds": kBuild,
	"waive": kWaive, "waives": kWaive, "waived": kWaive,
}

// coastWords are the words a coast may be written with.
var coastWords = map[string]byte{
	"nc": 'n', "sc": 's', "ec": 'e', "wc": 'w',
	"north": 'n', "south": 's', "east": 'e', "west": 'w',
	"northern": 'n', "southern": 's', "eastern": 'e', "western": 'w',
}

// strictKeywords are the order words strict mode accepts: the canonical short
// form and the seed's long form.
var strictKeywords = map[string]bool{
	"a": true, "army": true, "f": true, "fleet": true,
	"h": true, "hold": true, "holds": true,
	"-": true, "->": true, "move": true, "moves": true,
	"s": true, "support": true, "supports": true,
	"c": true, "convoy": true, "convoys": true, "via": true,
	"r": true, "retreat": true, "retreats": true,
	"d": true, "disband": true, "disbands": true, "remove": true,
	"b": true, "build": true, "builds": true, "waive": true,
}

// grammarWords are the words the grammar compares against, shared by the
// tokenizer (see newProvinceNames).
func grammarWords() []string {
	out := []string{"coast"}
	for w := range keywords {
		out = append(out, w)
	}
	for w := range coastWords {
		out = append(out, w)
	}
	return out
}

func dipStop(norm string) bool {
	if _, ok := keywords[norm]; ok {
		return true
	}
	if _, ok := coastWords[norm]; ok {
		return true
	}
	return norm == "coast" || norm == "convoy"
}

// dipParse is the state of reading one Diplomacy order.
type dipParse struct {
	g     *grammar
	sc    *orders.Scanner
	o     *Order
	ambig *orders.NameError // an ambiguous name, read as its first candidate to build the suggestion
	// ambigDone: the ambiguity was reported with a full example.
	ambigDone bool
	// finishing: the order was read, finish checks what follows it
	// (hint.go gives no sentence hint then).
	finishing bool
}

func (p *dipParse) kw() keyword {
	t := p.sc.Peek()
	k := keywords[t.Norm]
	if k != kNone && p.sc.Strict() && (!strictKeywords[t.Norm] || t.Norm == "->" && t.Text != "->") {
		return kNone // strict: "->" as written, not "=>", ">" or "→"
	}
	return k
}

// ParseOrder implements orders.Grammar: it reads one Diplomacy order and
// returns an *Order. An order without a power of its own gets the power of
// the heading above it.
func (g *grammar) ParseOrder(sc *orders.Scanner) any {
	if g.err != nil {
		sc.Fail("the game's names are inconsistent, so orders cannot be read: "+g.err.Error(), "")
		return nil
	}
	sc.SetStop(dipStop)
	p := dipParse{g: g, sc: sc, o: &Order{}}
	ok := p.order()
	if p.ambig != nil && !ok && !p.ambigDone {
		// The ambiguous name is the first problem: what failed after it may
		// only be a consequence of reading it as its first candidate.
		sc.DropErrors()
		sc.Fail(p.ambig.Error(), "write "+choices(p.ambig.Candidates))
	}
	if !ok && p.ambig == nil && !sc.Strict() {
		p.sentenceHint() // hint.go: "my fleet in London moves to the North Sea"
	}
	if !ok {
		return nil
	}
	if p.o.Power == "" {
		p.o.Power = sc.Heading()
	}
	return p.o
}

func (p *dipParse) order() bool {
	sc, o := p.sc, p.o
	p.skipBullet()
	p.powerPrefix()
	switch p.kw() {
	case kWaive:
		sc.Next()
		p.acceptKw(kBuild)
		o.Kind = Waive
		return p.finish()
	case kBuild:
		// "Build A Rom", "B F Nea", "build waive"
		sc.Next()
		if p.kw() == kWaive {
			sc.Next()
			o.Kind = Waive
			return p.finish()
		}
		o.Kind = Build
		o.Unit = p.unit()
		if !p.location(&o.Loc, "the province to build in") {
			return false
		}
		if o.Unit == NoUnit {
			sc.Fail("say which unit to build", "Build A "+p.abbr(o.Loc)+" or Build F "+p.abbr(o.Loc))
			return false
		}
		return p.finish()
	case kDisband:
		// "Remove F Gulf of Lyon", "Disband A Par"
		if k := keywords[sc.PeekAt(1).Norm]; k == kArmy || k == kFleet || p.isProvince(1) {
			sc.Next()
			o.Kind = Disband
			o.Unit = p.unit()
			if !p.location(&o.Loc, "the unit to disband") {
				return false
			}
			return p.finish()
		}
	}
	o.Unit = p.unit()
	if !p.location(&o.Loc, "the unit's province") {
		return false
	}
	switch p.kw() {
	case kHold:
		sc.Next()
		o.Kind = Hold
	case kMove, kTo:
		p.moveOperator()
		o.Kind = Move
		if !p.location(&o.Target, "where the unit moves") {
			return false
		}
		for sc.Peek().Kind == orders.Punct && p.kw() == kMove {
			// a judge-style convoy path: A Lon - Nth - Bel
			sc.Next()
			o.Path = append(o.Path, o.Target.Province)
			if o.Target.Coast != "" {
				sc.Fail("a convoy path goes through sea provinces, without coasts", "")
				return false
			}
			o.Target = Location{}
			if !p.location(&o.Target, "where the convoy path goes") {
				return false
			}
		}
		o.ViaConvoy = p.viaConvoy()
	case kSupport:
		sc.Next()
		o.AuxUnit = p.unit()
		if !p.location(&o.Aux, "the supported unit") {
			return false
		}
		switch p.kw() {
		case kHold:
			sc.Next()
			o.Kind = SupportHold
		case kMove, kTo:
			p.moveOperator()
			o.Kind = SupportMove
			if !p.location(&o.Target, "where the supported unit moves") {
				return false
			}
			p.viaConvoy() // the supported move may go by convoy; the support is the same
		default:
			o.Kind = SupportHold
			if p.isProvince(0) {
				sc.Fail("a supported move needs \"-\" between its provinces",
					fmt.Sprintf("%s S %s - %s", p.unitAt(o.Unit, o.Loc), p.unitAt(o.AuxUnit, o.Aux), sc.Peek().Text))
				return false
			}
		}
	case kConvoy:
		sc.Next()
		o.Kind = Convoy
		o.AuxUnit = p.unit()
		if !p.location(&o.Aux, "the convoyed army") {
			return false
		}
		if k := p.kw(); k != kMove && k != kTo {
			sc.Fail("a convoy order names the army and where it goes",
				fmt.Sprintf("%s C %s - <province>", p.unitAt(o.Unit, o.Loc), p.unitAt(o.AuxUnit, o.Aux)))
			return false
		}
		p.moveOperator()
		if !p.location(&o.Target, "where the convoyed army goes") {
			return false
		}
	case kRetreat:
		sc.Next()
		o.Kind = Retreat
		if k := p.kw(); k == kMove || k == kTo {
			p.moveOperator()
		}
		if sc.Done() {
			sc.Fail("a retreat needs a province to retreat to (or disband the unit)",
				p.unitAt(o.Unit, o.Loc)+" R <province>, or "+p.unitAt(o.Unit, o.Loc)+" D")
			return false
		}
		if !p.location(&o.Target, "where the unit retreats") {
			return false
		}
	case kDisband:
		sc.Next()
		o.Kind = Disband
	case kBuild:
		sc.Next()
		o.Kind = Build
		if o.Unit == NoUnit {
			sc.Fail("say which unit to build", "Build A "+p.abbr(o.Loc)+" or Build F "+p.abbr(o.Loc))
			return false
		}
	default:
		ex := p.unitAt(o.Unit, o.Loc)
		if sc.Done() {
			sc.Fail("the order for "+ex+" is missing", ex+" H, or "+ex+" - <province>")
			return false
		}
		if p.isProvince(0) {
			sc.Fail("a move needs \"-\" between its provinces", ex+" - "+sc.Peek().Text)
			return false
		}
		sc.Fail(fmt.Sprintf("%q is not an order word", sc.Peek().Text),
			ex+" H (hold), - (move), S (support), C (convoy), R (retreat) or D (disband)")
		return false
	}
	return p.finish()
}

// finish checks the end of the line, then applies the position and phase.
func (p *dipParse) finish() bool {
	sc, o := p.sc, p.o
	p.finishing = true
	for !sc.Done() {
		t := sc.Peek()
		if t.Kind == orders.Punct && (t.Norm == "!" || t.Norm == "?" || t.Norm == "," || t.Norm == ";") && !sc.Strict() {
			// trailing punctuation; but a second order after it is not allowed
			sc.Next()
			if (t.Norm == "," || t.Norm == ";") && sc.Peek().Kind == orders.Word {
				sc.Fail("write one order per line", p.suggest())
				return false
			}
			continue
		}
		sc.Fail(fmt.Sprintf("%q after the order is not understood", sc.Rest()), p.suggest())
		return false
	}
	if p.ambig != nil {
		p.ambigDone = true
		sc.Fail(p.ambig.Error(), "for example "+p.suggest()+"; the choices are "+choices(p.ambig.Candidates))
		return false
	}
	if o.Kind != Build && o.Kind != Waive {
		if !p.fixUnit(&o.Unit, o.Loc, false) {
			return false
		}
	}
	if o.Kind == SupportHold || o.Kind == SupportMove || o.Kind == Convoy {
		if !p.fixUnit(&o.AuxUnit, o.Aux, true) {
			return false
		}
	}
	if p.g.phase == RetreatPhase && o.Kind == Move {
		if len(o.Path) > 0 || o.ViaConvoy {
			sc.Fail("a retreat cannot go by convoy", p.unitAt(o.Unit, o.Loc)+" R "+p.abbr(o.Target))
			return false
		}
		o.Kind = Retreat
	}
	return true
}

// fixUnit fills in an omitted unit type from the position and corrects a
// wrong one, with a warning (lenient mode). In strict mode an omitted type
// is an error.
func (p *dipParse) fixUnit(u *UnitType, loc Location, aux bool) bool {
	var have UnitType
	known := false
	if p.g.pos != nil {
		if ut, _, _, ok := p.g.pos.UnitAt(loc.Province); ok && ut != NoUnit {
			have, known = ut, true
		}
	}
	if p.sc.Strict() {
		// Without a position an omitted type is left to the engine in both
		// modes: that is how Format prints an order whose unit is unknown,
		// and stored canonical lines must read back strictly.
		if *u == NoUnit && p.g.pos != nil {
			fixed := *p.o
			ex := ""
			if known {
				if aux {
					fixed.AuxUnit = have
				} else {
					fixed.Unit = have
				}
				ex = p.format(fixed)
			}
			p.sc.Fail("the unit type (A or F) is missing before "+p.abbr(loc), ex)
			return false
		}
		return true
	}
	if !known {
		return true
	}
	if *u == NoUnit {
		*u = have
		return true
	}
	if *u != have {
		p.sc.Warn(fmt.Sprintf("%s %s read as %s %s: the unit there is %s", unitWord(*u), p.abbr(loc), unitWord(have), p.abbr(loc), aUnit(have)), "")
		*u = have
	}
	return true
}

func unitWord(u UnitType) string {
	switch u {
	case Army:
		return "Army"
	case Fleet:
		return "Fleet"
	}
	return "unit"
}

func aUnit(u UnitType) string {
	if u == Army {
		return "an army"
	}
	return "a fleet"
}

func (p *dipParse) acceptKw(k keyword) bool {
	if p.kw() == k {
		p.sc.Next()
		return true
	}
	return false
}

// skipBullet drops a list bullet or number before an order ("1.", "2)", "*", "-").
func (p *dipParse) skipBullet() {
	sc := p.sc
	if sc.Strict() || sc.Pos() != 0 {
		return
	}
	t := sc.Peek()
	switch {
	case t.Kind == orders.Punct && (t.Norm == "*" || t.Norm == "-" || t.Norm == "+"):
		sc.Next()
	case t.Kind == orders.Word && isNumber(t.Norm) && len(t.Norm) <= 3:
		if strings.HasSuffix(t.Text, ".") {
			sc.Next()
		} else if n := sc.PeekAt(1).Norm; n == ")" || n == ":" {
			sc.Next()
			sc.Next()
		}
	}
}

// powerPrefix reads "England:" before an order.
func (p *dipParse) powerPrefix() {
	sc := p.sc
	if p.g.pow == nil || p.g.pow.Len() == 0 {
		return
	}
	start := sc.Pos()
	for i := 1; i <= 4; i++ {
		t := sc.PeekAt(i)
		if t.Kind == orders.Word || t.Norm == "-" {
			continue
		}
		if t.Norm != ":" {
			return
		}
		// a power's name, or unless strict a unique prefix of it: "ENG: F
		// nth -> pic", as the DATC test files abbreviate powers
		if n, ok := sc.NameSpan(p.g.pow, start+i); ok {
			p.o.Power = strings.ToLower(n.ID)
			sc.Seek(start + i + 1)
		}
		return
	}
}

func (p *dipParse) unit() UnitType {
	switch p.kw() {
	case kArmy:
		p.sc.Next()
		return Army
	case kFleet:
		p.sc.Next()
		return Fleet
	}
	return NoUnit
}

// moveOperator reads "-", "->", "to", "move", "moves to", "m".
func (p *dipParse) moveOperator() {
	switch p.kw() {
	case kMove:
		p.sc.Next()
		p.acceptKw(kTo)
	case kTo:
		p.sc.Next()
	}
}

// viaConvoy reads "via convoy", "by convoy", "(via convoy)".
func (p *dipParse) viaConvoy() bool {
	sc := p.sc
	start := sc.Pos()
	paren := sc.Accept("(")
	if p.kw() != kVia {
		sc.Seek(start)
		return false
	}
	sc.Next()
	if p.kw() != kConvoy {
		sc.Seek(start)
		return false
	}
	sc.Next()
	if paren && !sc.Accept(")") {
		sc.Seek(start)
		return false
	}
	return true
}

// isProvince reports whether the token n ahead starts a province name.
func (p *dipParse) isProvince(n int) bool {
	return p.sc.NameAhead(p.g.prov, n)
}

// location reads a province and its coast, quoted or not.
func (p *dipParse) location(loc *Location, what string) bool {
	sc := p.sc
	quoted := sc.EnterQuote()
	m, err := sc.Name(p.g.prov)
	if err != nil {
		ne, _ := err.(*orders.NameError)
		if ne != nil && len(ne.Candidates) > 0 && p.ambig == nil {
			// Diagnose, never guess: read the first candidate only to build
			// a corrected example, and report the line as an error.
			p.ambig = ne
			for _, c := range ne.Candidates[:1] {
				m = orders.NameMatch{ID: strings.ToLower(c.ID)}
				if i, ok := p.g.prov.Index(m.ID); ok {
					m.Index = i
				}
			}
			sc.Seek(ne.Next)
		} else {
			if quoted {
				sc.LeaveQuote()
			}
			msg := err.Error()
			if ne != nil && ne.Text == "" {
				msg = what + " is missing"
			}
			sc.Fail(msg, p.nameHint(ne))
			return false
		}
	}
	loc.Province = m.ID
	if !p.coast(loc, p.g.prov.At(m.Index)) {
		return false
	}
	if quoted && !sc.LeaveQuote() {
		sc.Fail("the quotes should hold one "+p.g.prov.Noun()+" name", "")
		return false
	}
	return true
}

// nameHint suggests the closest names to an unknown one.
func (p *dipParse) nameHint(ne *orders.NameError) string {
	if ne == nil || len(ne.Candidates) > 0 {
		return ""
	}
	return p.sc.Hint(p.g.prov, ne.Text)
}

// coast reads a coast after a province: "/nc", "(nc)", "(n.c.)", "nc",
// "north coast", and checks it against the province.
func (p *dipParse) coast(loc *Location, name orders.Name) bool {
	sc := p.sc
	start := sc.Pos()
	var c byte
	switch t := sc.Peek(); {
	case t.Norm == "/":
		sc.Next()
		if c = p.coastSpec(name, true); c == 0 {
			sc.Fail("a coast after \"/\" is nc, sc, ec or wc", p.abbr(*loc)+"/nc")
			return false
		}
	case t.Norm == "(":
		sc.Next()
		if c = p.coastSpec(name, true); c == 0 {
			sc.Seek(start)
			return true
		}
		if !sc.Accept(")") && (sc.Strict() || !sc.Done()) {
			sc.Fail("a coast in brackets needs its closing bracket", p.abbr(*loc)+"("+string(c)+"c)")
			return false
		}
	case t.Kind == orders.Word:
		if c = p.coastSpec(name, false); c == 0 {
			return true
		}
	default:
		return true
	}
	coast := string(c) + "c"
	if len(name.Coasts) == 0 {
		if sc.Strict() {
			sc.Fail(name.Describe()+" has no separate coasts", p.abbr(*loc))
			return false
		}
		sc.Warn(fmt.Sprintf("%s has no separate coasts: %q ignored", name.Describe(), sc.TextFrom(start)), "")
		return true
	}
	for _, have := range name.Coasts {
		if strings.EqualFold(have, coast) {
			loc.Coast = strings.ToLower(have)
			return true
		}
	}
	sc.Fail(fmt.Sprintf("%s has no %s; its coasts are %s", name.Describe(), coastName(coast), strings.Join(name.Coasts, ", ")),
		p.abbr(*loc)+"/"+strings.ToLower(name.Coasts[0]))
	return false
}

func coastName(c string) string {
	switch c {
	case "nc":
		return "north coast"
	case "sc":
		return "south coast"
	case "ec":
		return "east coast"
	case "wc":
		return "west coast"
	}
	return "coast " + c
}

// coastSpec reads the words of a coast. single allows one letter ("n"),
// which is only unambiguous after "/" or inside brackets.
func (p *dipParse) coastSpec(name orders.Name, single bool) byte {
	sc := p.sc
	start := sc.Pos()
	t := sc.Peek()
	if t.Kind != orders.Word {
		return 0
	}
	for _, have := range name.Coasts {
		if t.Norm == strings.ToLower(have) && len(have) > 0 {
			if _, std := coastWords[t.Norm]; !std {
				sc.Next()
				return have[0] // a map's own coast id
			}
		}
	}
	switch {
	case len(t.Norm) == 2 && t.Norm[1] == 'c' && coastWords[t.Norm] != 0:
		sc.Next()
		sc.Accept("coast")
		return t.Norm[0]
	case coastWords[t.Norm] != 0:
		d := coastWords[t.Norm]
		sc.Next()
		if sc.Accept("coast", "c", "cst") || single || len(name.Coasts) > 0 {
			return d
		}
	case len(t.Norm) == 1 && strings.IndexByte("nsew", t.Norm[0]) >= 0 &&
		(single || sc.PeekAt(1).Norm == "/" && sc.PeekAt(2).Norm == "c"):
		sc.Next()
		if sc.Peek().Norm == "/" && sc.PeekAt(1).Norm == "c" {
			sc.Next()
			sc.Next()
		} else {
			sc.Accept("coast", "c")
		}
		return t.Norm[0]
	}
	sc.Seek(start)
	return 0
}

// abbr prints a location as the canonical form does.
func (p *dipParse) abbr(l Location) string {
	s := l.Province
	if n, ok := p.g.prov.Get(l.Province); ok {
		s = n.Short()
	}
	if l.Coast != "" {
		s += "/" + l.Coast
	}
	return s
}

func (p *dipParse) unitAt(u UnitType, l Location) string {
	switch u {
	case Army:
		return "A " + p.abbr(l)
	case Fleet:
		return "F " + p.abbr(l)
	}
	return p.abbr(l)
}

func (p *dipParse) format(o Order) string { return format(o, p.g.prov) }

// suggest is the order read so far in canonical form.
func (p *dipParse) suggest() string { return p.format(*p.o) }

// choices lists the abbreviations of ambiguous candidates: "Sad or Sam".
func choices(ns []orders.Name) string {
	var b strings.Builder
	for i, n := range ns {
		if i > 0 {
			if i == len(ns)-1 {
				b.WriteString(" or ")
			} else {
				b.WriteString(", ")
			}
		}
		b.WriteString(n.Short())
	}
	return b.String()
}

// isNumber reports whether s holds only digits.
func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
