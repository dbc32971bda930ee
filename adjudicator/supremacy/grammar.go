package supremacy

import (
	"fmt"
	"strconv"
	"strings"

	"pbemd/orders"
)

// grammar is the orders.Grammar of one scenario: it reads a Supremacy
// order line into an *Order.
type grammar struct{ sc *Scenario }

// stopWords end a name: the matcher never reads them as part of one.
var stopWords = map[string]bool{
	"from": true, "to": true, "via": true, "in": true, "at": true, "for": true, "by": true,
	"blitz": true, "stay": true, "leave": true, "afloat": true, "and": true, "then": true, "max": true, "rounds": true,
	"against": true, "through": true, "place": true, "with": true, "times": true, "x": true,
	"controls": true, "control": true, "armies": true, "army": true, "navies": true, "navy": true,
}

func isStop(w string) bool { return stopWords[w] }

var numberWords = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "a": 1, "an": 1,
}

// ParseOrder implements orders.Grammar.
func (g grammar) ParseOrder(s *orders.Scanner) any {
	s.SetStop(isStop)
	p := &parser{s: s, sc: g.sc}
	s.Accept("*", "-") // a list bullet
	o := p.order(true)
	if o == nil || s.Failed() {
		return nil
	}
	s.Accept(".", "!", ";")
	if !s.Done() {
		p.fail(fmt.Sprintf("%q at the end is not understood", s.Rest()), g.sc.format(o))
		return nil
	}
	return o
}

type parser struct {
	s  *orders.Scanner
	sc *Scenario
}

func (p *parser) fail(msg, suggestion string) { p.s.Fail(msg, suggestion) }

func (p *parser) word() string { return p.s.Peek().Norm }

func (p *parser) accept(words ...string) bool { return p.s.Accept(words...) }

// expect reads one of words or fails with msg.
func (p *parser) expect(msg, example string, words ...string) bool {
	if p.s.Accept(words...) {
		return true
	}
	p.fail(msg, example)
	return false
}

// number reads a count or an amount: "3", "three", "$5,000", "5000 BL",
// "5k".
func (p *parser) number() (int, bool) {
	s := p.s
	start := s.Pos()
	dollar := s.Accept("$")
	t := s.Peek()
	if t.Kind != orders.Word {
		s.Seek(start)
		return 0, false
	}
	if n, ok := numberWords[t.Norm]; ok && !dollar {
		s.Next()
		return n, true
	}
	digits := t.Norm
	mult := 1
	switch {
	case strings.HasSuffix(digits, "k"):
		digits, mult = digits[:len(digits)-1], 1000
	case strings.HasSuffix(digits, "bl"):
		digits = digits[:len(digits)-2]
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 0 || len(digits) > 9 {
		s.Seek(start)
		return 0, false
	}
	s.Next()
	// thousands written with commas: "5,000"
	for {
		c, d := s.Peek(), s.PeekAt(1)
		prev := s.Tokens()[s.Pos()-1]
		if c.Norm != "," || d.Kind != orders.Word || len(d.Norm) != 3 || !allDigits(d.Norm) ||
			prev.Pos+len(prev.Text) != c.Pos || c.Pos+1 != d.Pos || n > 1e6 {
			break
		}
		v, _ := strconv.Atoi(d.Norm)
		n = n*1000 + v
		s.Next()
		s.Next()
	}
	s.Accept("bl", "billion", "billions", "bn")
	return n * mult, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// count reads a positive count, failing with what the order needs.
func (p *parser) count(what, example string) (int, bool) {
	n, ok := p.number()
	if !ok || n <= 0 || n > 999 {
		p.fail("say how many "+what, example)
		return 0, false
	}
	return n, true
}

// amount reads a sum of money.
func (p *parser) amount(example string) (int, bool) {
	n, ok := p.number()
	if !ok || n <= 0 {
		p.fail("say how much, in $BL", example)
		return 0, false
	}
	return n, true
}

func (p *parser) skipArticle() { p.s.Accept("the") }

// place reads an area or a city of a multi-city area.
func (p *parser) place() (area, city int, ok bool) {
	p.skipArticle()
	m, err := p.s.Name(p.sc.places)
	if err != nil {
		p.fail(err.Error(), "")
		return 0, 0, false
	}
	r := p.sc.placeRefs[m.Index]
	return r.area, r.city, true
}

// area reads an area (a city names its area).
func (p *parser) area() (int, bool) {
	a, _, ok := p.place()
	return a, ok
}

func (p *parser) power() (string, bool) {
	m, err := p.s.Name(p.sc.powerSet)
	if err != nil {
		p.fail(err.Error(), "")
		return "", false
	}
	return m.ID, true
}

func (p *parser) company() (int, bool) {
	p.accept("company")
	m, err := p.s.Name(p.sc.cardSet)
	if err != nil {
		p.fail(err.Error(), "")
		return 0, false
	}
	return p.sc.cardByID[m.ID], true
}

func (p *parser) resource() (Resource, bool) {
	switch p.word() {
	case "oil", "oils":
		p.s.Next()
		return Oil, true
	case "minerals", "mineral", "min":
		p.s.Next()
		return Minerals, true
	case "grain", "grains":
		p.s.Next()
		return Grain, true
	}
	return 0, false
}

func (p *parser) unitWord() (Unit, bool) {
	switch p.word() {
	case "army", "armies":
		p.s.Next()
		return UArmy, true
	case "navy", "navies", "fleet", "fleets":
		p.s.Next()
		return UNavy, true
	case "icbm", "icbms", "missile", "missiles", "nuke", "nukes":
		p.s.Next()
		return UICBM, true
	case "abm", "abms":
		p.s.Next()
		return UABM, true
	}
	return 0, false
}

// sep reads a list separator: a comma or AND.
func (p *parser) sep() bool { return p.accept(",", "and", "&", "+") }

// order reads one order; top is false inside IF and REINFORCE.
func (p *parser) order(top bool) *Order {
	s := p.s
	w := p.word()
	switch w {
	case "if", "when":
		if !top {
			p.fail("an IF inside another order is not understood", "")
			return nil
		}
		s.Next()
		return p.conditional()
	case "counterattack", "counter", "counterattacks":
		if !top {
			p.fail("a counterattack inside another order is not understood", "")
			return nil
		}
		s.Next()
		return p.counterattack()
	}
	s.Next()
	switch w {
	case "loan", "borrow":
		n, ok := p.amount("LOAN 5000")
		if !ok {
			return nil
		}
		o := newOrder(KLoan)
		o.N = n
		return o
	case "repay":
		p.accept("loan", "loans")
		n, ok := p.amount("REPAY 1000")
		if !ok {
			return nil
		}
		o := newOrder(KRepay)
		o.N = n
		return o
	case "buy", "purchase":
		return p.buy()
	case "sell":
		return p.sell()
	case "seize":
		o := newOrder(KSeize)
		if p.accept("all") {
			o.All = true
			if p.accept("in") {
				a, ok := p.area()
				if !ok {
					return nil
				}
				o.Area = a
			}
			return o
		}
		c, ok := p.company()
		if !ok {
			return nil
		}
		o.Card = c
		return o
	case "offer":
		return p.offer()
	case "accept":
		return p.acceptOffer()
	case "refuse", "decline", "reject":
		return p.refuseOffer()
	case "no", "clear":
		switch {
		case p.accept("reactions", "reaction", "counterattacks", "counterattack", "reinforcements"):
			return newOrder(KNoReact)
		case p.accept("contest", "contests"):
			return newOrder(KNoContest)
		}
		p.fail("NO what? NO REACTIONS or NO CONTEST", "NO REACTIONS")
		return nil
	case "contest":
		return p.contest()
	case "losses", "loss":
		return p.losses()
	case "permit", "allow", "deny", "forbid":
		return p.permit(w == "deny" || w == "forbid")
	case "abm", "abms":
		if _, ok := numberWords[p.word()]; ok || allDigits(p.word()) {
			o := p.launch()
			if o == nil {
				return nil
			}
			o.Kind = KIntercept
			return o
		}
		return p.abmPolicy()
	case "misdeal":
		return newOrder(KMisdeal)
	case "place", "deploy":
		return p.parts(KPlace, "PLACE 3 ARMIES IN "+p.exampleHome())
	case "open", "close", "blockade":
		k := map[string]Kind{"open": KOpen, "close": KClose, "blockade": KBlockade}[w]
		o := newOrder(k)
		if k != KBlockade && p.accept("all") {
			o.All = true
			p.accept("companies")
			return o
		}
		c, ok := p.company()
		if !ok {
			return nil
		}
		o.Card = c
		return o
	case "disband":
		return p.disband()
	case "attack":
		return p.attack()
	case "launch", "fire", "nuke":
		return p.launch()
	case "reinforce":
		if !top {
			p.fail("REINFORCE cannot stand inside another order", "")
			return nil
		}
		s.Accept(":")
		sub := p.order(false)
		if sub == nil {
			return nil
		}
		if !sub.isMove() {
			p.fail("a reinforcement is one move: MOVE, RAIL, AIRLIFT or TRANSPORT", "REINFORCE MOVE mos - ukr")
			return nil
		}
		o := newOrder(KReinforce)
		o.Sub = sub
		return o
	case "pass", "done", "stop":
		return newOrder(KPass)
	case "confirm":
		return newOrder(KConfirm)
	case "call", "cancel":
		if w == "call" && !p.expect("CALL OFF calls off a declared launch", "CALL OFF", "off") {
			return nil
		}
		return newOrder(KCallOff)
	case "move":
		return p.legs(KMove)
	case "rail":
		return p.legs(KRail)
	case "airlift":
		return p.legs(KAirlift)
	case "air":
		if !p.expect("AIR LIFT or AIRLIFT", "AIRLIFT 3 mos - ukr", "lift") {
			return nil
		}
		return p.legs(KAirlift)
	case "transport", "ship":
		return p.transport()
	case "build":
		return p.build()
	case "research":
		return p.research()
	}
	p.fail(fmt.Sprintf("%q does not start an order I know", s.TextFrom(max(0, s.Pos()-1))),
		"ATTACK ukr FROM mos / MOVE mos - ukr / BUY 3 OIL / BUILD 3 ARMIES IN mos")
	return nil
}

func (p *parser) exampleHome() string { return p.sc.areas[p.sc.powers[0].homes[0]].ID }

func (p *parser) buy() *Order {
	switch {
	case p.accept("bonds", "bond"):
		n, ok := p.amount("BUY BONDS 2000")
		if !ok {
			return nil
		}
		o := newOrder(KBuyBonds)
		o.N = n
		return o
	case p.accept("back"):
		o := newOrder(KBuyBack)
		n, ok := p.count("pieces", "BUY BACK 1 ICBM FROM mex")
		if !ok {
			return nil
		}
		o.N = n
		u, ok := p.unitWord()
		if !ok {
			p.fail("minors sell back armies, navies, ICBMs and ABMs", "BUY BACK 1 ICBM FROM mex")
			return nil
		}
		o.Unit = u
		if !p.expect("say FROM which minor power", "BUY BACK 1 ICBM FROM mex", "from") {
			return nil
		}
		a, ok := p.area()
		if !ok {
			return nil
		}
		o.Minor = a
		return o
	}
	n, ok := p.number()
	if !ok {
		p.fail("say how many", "BUY 3 OIL")
		return nil
	}
	if p.accept("bonds", "bond") {
		o := newOrder(KBuyBonds)
		o.N = n
		return o
	}
	r, ok := p.resource()
	if !ok {
		p.fail("buy oil, minerals or grain (or BONDS)", "BUY 3 OIL")
		return nil
	}
	if n <= 0 {
		p.fail("buy at least one", "BUY 3 OIL")
		return nil
	}
	o := newOrder(KBuy)
	o.N, o.Res = n, r
	return o
}

func (p *parser) sell() *Order {
	if p.accept("bonds", "bond") {
		n, ok := p.amount("SELL BONDS 2000")
		if !ok {
			return nil
		}
		o := newOrder(KSellBonds)
		o.N = n
		return o
	}
	n, ok := p.number()
	if !ok || n <= 0 {
		p.fail("say how many", "SELL 3 GRAIN")
		return nil
	}
	if p.accept("bonds", "bond") {
		o := newOrder(KSellBonds)
		o.N = n
		return o
	}
	if r, ok := p.resource(); ok {
		o := newOrder(KSell)
		o.N, o.Res = n, r
		return o
	}
	u, ok := p.unitWord()
	if !ok {
		p.fail("sell oil, minerals or grain on the market, or armies, navies, ICBMs or ABMs to a minor power", "SELL 3 GRAIN")
		return nil
	}
	o := newOrder(KSellMinor)
	o.N, o.Unit = n, u
	if u == UArmy || u == UNavy {
		ex := "SELL 3 ARMIES IN mos TO kaz"
		if u == UNavy {
			ex = "SELL 3 NAVIES IN blt TO pol"
		}
		if !p.expect("say where the "+strings.ToLower(u.word(2))+" stand", ex, "in") {
			return nil
		}
		a, ok := p.area()
		if !ok {
			return nil
		}
		if p.sc.areas[a].sea != (u == UNavy) {
			p.fail("armies stand on land, navies at sea", ex)
			return nil
		}
		o.Area = a
	}
	if !p.expect("say TO which minor power", "SELL 1 ICBM TO mex", "to") {
		return nil
	}
	a, ok := p.area()
	if !ok {
		return nil
	}
	o.Minor = a
	return o
}

func (p *parser) items() ([]Item, bool) {
	var out []Item
	for {
		it, ok := p.item()
		if !ok {
			return nil, false
		}
		if it.Kind != 0 {
			out = append(out, it)
		}
		if !p.sep() {
			return out, true
		}
	}
}

func (p *parser) item() (Item, bool) {
	s := p.s
	if p.accept("nothing") {
		return Item{}, true
	}
	if s.Done() {
		p.fail("say what is traded: $500, 2 OIL, a company, 3 ARMIES IN <area>, 1 ICBM (or NOTHING)", "OFFER TO china: $1000 FOR 2 OIL")
		return Item{}, false
	}
	if s.Peek().Norm == "$" || allDigits(strings.TrimSuffix(strings.TrimSuffix(s.Peek().Norm, "k"), "bl")) || numberWords[s.Peek().Norm] > 0 {
		dollar := s.Peek().Norm == "$"
		n, ok := p.number()
		if !ok || n <= 0 {
			p.fail("an amount must be positive", "$1000")
			return Item{}, false
		}
		if dollar || p.accept("cash", "dollars", "$", "money") {
			return Item{Kind: ItemCash, N: n}, true
		}
		if r, ok := p.resource(); ok {
			return Item{Kind: ItemResource, N: n, Res: r}, true
		}
		u, ok := p.unitWord()
		if !ok {
			p.fail("trade cash ($1000), resources (2 OIL), a company, or pieces (3 ARMIES IN mos, 1 ICBM)", "$1000")
			return Item{}, false
		}
		switch u {
		case UICBM:
			return Item{Kind: ItemICBM, N: n}, true
		case UABM:
			return Item{Kind: ItemABM, N: n}, true
		}
		if !p.expect("say where the pieces stand", "3 ARMIES IN mos", "in") {
			return Item{}, false
		}
		a, ok := p.area()
		if !ok {
			return Item{}, false
		}
		k := ItemArmies
		if u == UNavy {
			k = ItemNavies
		}
		return Item{Kind: k, N: n, Area: a}, true
	}
	c, ok := p.company()
	if !ok {
		return Item{}, false
	}
	return Item{Kind: ItemCompany, N: 1, Card: c}, true
}

func (p *parser) offer() *Order {
	o := newOrder(KOffer)
	o.N = 1
	if n, ok := p.number(); ok {
		o.N = n
	}
	p.accept("to")
	pw, ok := p.power()
	if !ok {
		return nil
	}
	o.Power = pw
	p.accept(":")
	if o.Give, ok = p.items(); !ok {
		return nil
	}
	if p.accept("for", "in") {
		p.accept("exchange")
		p.accept("for")
		if o.Get, ok = p.items(); !ok {
			return nil
		}
	}
	if len(o.Give) == 0 && len(o.Get) == 0 {
		p.fail("an offer gives or asks for something", "OFFER TO china: $1000 FOR 2 OIL")
		return nil
	}
	return o
}

// offerRef reads the offer an ACCEPT or REFUSE names: [OFFER] [n]
// [FROM|OF] <power> [n].
func (p *parser) offerRef(k Kind) *Order {
	o := newOrder(k)
	o.N = 1
	p.accept("offer")
	if n, ok := p.number(); ok {
		o.N = n
	}
	p.accept("from", "of")
	pw, ok := p.power()
	if !ok {
		return nil
	}
	o.Power = pw
	if n, ok := p.number(); ok {
		o.N = n
	}
	return o
}

func (p *parser) acceptOffer() *Order {
	o := p.offerRef(KAccept)
	if o == nil {
		return nil
	}
	if p.accept("place") {
		for {
			a, ok := p.area()
			if !ok {
				return nil
			}
			o.Place = append(o.Place, a)
			if !p.sep() {
				break
			}
		}
	}
	if !p.terms(o) {
		return nil
	}
	return o
}

func (p *parser) contest() *Order {
	o := newOrder(KContest)
	if !p.accept("all") {
		a, ok := p.area()
		if !ok {
			return nil
		}
		if !p.sc.areas[a].sea {
			p.fail("navies contest sea areas", "CONTEST nth")
			return nil
		}
		o.Area = a
	}
	for {
		switch {
		case p.accept("against"):
			pw, ok := p.power()
			if !ok {
				return nil
			}
			o.Power = pw
		case p.accept("rounds"):
			n, ok := p.count("rounds", "CONTEST nth ROUNDS 2")
			if !ok {
				return nil
			}
			o.Rounds = n
		case p.accept("for"):
			n, ok := p.count("rounds", "CONTEST nth FOR 2 ROUNDS")
			if !ok {
				return nil
			}
			p.accept("rounds", "round")
			o.Rounds = n
		default:
			return o
		}
	}
}

func (p *parser) permit(deny bool) *Order {
	o := newOrder(KPermit)
	o.Deny = deny
	if !p.accept("all", "everyone", "everybody") {
		pw, ok := p.power()
		if !ok {
			return nil
		}
		o.Power = pw
	}
	if p.accept("through", "at", "in") {
		if !p.accept("all") {
			m, err := p.s.Name(p.sc.chokeSet)
			if err != nil {
				p.fail(err.Error(), "PERMIT usa THROUGH suez")
				return nil
			}
			o.Choke = m.Index
		}
	}
	return o
}

func (p *parser) abmPolicy() *Order {
	o := newOrder(KABM)
	p.accept("defend", "policy", "defends")
	switch {
	case p.accept("own", "mine", "myself"):
		o.Policy = "own"
	case p.accept("all", "everyone"):
		o.Policy = "all"
	case p.accept("off", "none", "nothing", "hold"):
		o.Policy = "off"
	default:
		o.Policy = "powers"
		for {
			pw, ok := p.power()
			if !ok {
				return nil
			}
			o.Powers = append(o.Powers, pw)
			if !p.sep() {
				break
			}
		}
		o.Powers = sortedUnique(o.Powers)
	}
	return o
}

// parts reads "3 ARMIES IN mos, 3 NAVIES IN blt" for PLACE and BUILD.
func (p *parser) parts(k Kind, example string) *Order {
	o := newOrder(k)
	for {
		n, ok := p.count("pieces", example)
		if !ok {
			return nil
		}
		u, ok := p.unitWord()
		if !ok || (u != UArmy && u != UNavy) {
			p.fail("say ARMIES or NAVIES", example)
			return nil
		}
		if !p.expect("say where: IN an area", example, "in", "at", "to") {
			return nil
		}
		a, ok := p.area()
		if !ok {
			return nil
		}
		if (u == UNavy) != p.sc.areas[a].sea {
			if u == UNavy {
				p.fail(p.sc.areas[a].Name+" is a land area: navies go to sea areas", example)
			} else {
				p.fail(p.sc.areas[a].Name+" is a sea area: armies go to land areas", example)
			}
			return nil
		}
		o.Parts = append(o.Parts, Leg{N: n, From: -1, To: a})
		if !p.sep() {
			return o
		}
	}
}

func (p *parser) build() *Order {
	s := p.s
	start := s.Pos()
	n, ok := p.count("pieces", "BUILD 3 ARMIES IN "+p.exampleHome())
	if !ok {
		return nil
	}
	if u, ok := p.unitWord(); ok && (u == UICBM || u == UABM) {
		o := newOrder(KBuildWeapon)
		o.N, o.Unit = n, u
		return o
	}
	s.Seek(start)
	return p.parts(KBuild, "BUILD 3 ARMIES IN "+p.exampleHome())
}

func (p *parser) research() *Order {
	o := newOrder(KResearch)
	switch w := p.word(); w {
	case "icbm", "icbms":
		p.s.Next()
		o.Tech = TechICBM
	case "abm", "abms":
		p.s.Next()
		o.Tech = TechABM
	default:
		r, ok := p.resource()
		if !ok {
			p.fail("research oil, minerals, grain, ICBM or ABM", "RESEARCH OIL MAX 4")
			return nil
		}
		o.Res = r
	}
	switch {
	case p.accept("max", "maximum"):
	case p.accept("up"):
		if !p.expect("UP TO n cards", "RESEARCH OIL UP TO 4", "to") {
			return nil
		}
	default:
		return o
	}
	n, ok := p.count("cards at most", "RESEARCH OIL MAX 4")
	if !ok {
		return nil
	}
	p.accept("cards", "card")
	o.N = n
	return o
}

func (p *parser) disband() *Order {
	o := newOrder(KDisband)
	if p.accept("all") {
		o.All = true
	} else {
		n, ok := p.count("pieces", "DISBAND 2 ARMIES IN mos")
		if !ok {
			return nil
		}
		o.N = n
	}
	u, ok := p.unitWord()
	if !ok || (u != UArmy && u != UNavy) {
		p.fail("say ARMIES or NAVIES", "DISBAND 2 ARMIES IN mos")
		return nil
	}
	o.Unit = u
	if !p.expect("say where: IN an area", "DISBAND 2 ARMIES IN mos", "in", "from", "at") {
		return nil
	}
	a, ok := p.area()
	if !ok {
		return nil
	}
	if (u == UNavy) != p.sc.areas[a].sea {
		p.fail("armies stand on land, navies at sea", "")
		return nil
	}
	o.Area = a
	return o
}

// legs reads "3 mos - ukr, vol - ukr" (also "3 ARMIES FROM mos TO ukr").
func (p *parser) legs(k Kind) *Order {
	o := newOrder(k)
	ex := map[Kind]string{KMove: "MOVE mos - ukr", KRail: "RAIL 3 mos - ukr", KAirlift: "AIRLIFT 3 mos - ukr", KTransport: "TRANSPORT 3 jap - kor VIA soj"}[k]
	for {
		l := Leg{}
		if n, ok := p.number(); ok {
			if n <= 0 {
				p.fail("move at least one piece", ex)
				return nil
			}
			l.N = n
		} else if p.accept("all") {
			l.N = 0
		}
		p.unitWord()
		p.accept("from")
		a, ok := p.area()
		if !ok {
			return nil
		}
		l.From = a
		if !p.accept("-", "->", "to", "into") {
			p.fail("write the move as FROM - TO", ex)
			return nil
		}
		b, ok := p.area()
		if !ok {
			return nil
		}
		l.To = b
		o.Legs = append(o.Legs, l)
		if k == KTransport && p.word() == "via" {
			return o
		}
		if !p.sep() {
			return o
		}
	}
}

func (p *parser) transport() *Order {
	o := p.legs(KTransport)
	if o == nil {
		return nil
	}
	if !p.expect("say VIA which sea the navies carry the armies", "TRANSPORT 3 jap - kor VIA soj", "via", "by") {
		return nil
	}
	a, ok := p.area()
	if !ok {
		return nil
	}
	o.Via = a
	if p.accept("to", "-", "->") {
		b, ok := p.area()
		if !ok {
			return nil
		}
		o.ViaTo = b
	}
	return o
}

// strikeAhead reports whether the tokens from the scanner's position up to
// the next AND, ';' or the end hold a FROM: the start of another strike.
func (p *parser) strikeAhead() bool {
	toks := p.s.Tokens()
	for i := p.s.Pos(); i < len(toks); i++ {
		switch toks[i].Norm {
		case "from":
			return true
		case "and", ";", "&":
			return false
		}
	}
	return false
}

// powerAhead reports whether the strike starting here names a defender
// ("china IN nth FROM …"): an IN comes before the FROM.
func (p *parser) powerAhead() bool {
	toks := p.s.Tokens()
	for i := p.s.Pos(); i < len(toks); i++ {
		switch toks[i].Norm {
		case "in":
			return true
		case "from", "and", ";":
			return false
		}
	}
	return false
}

func (p *parser) attack() *Order {
	o := newOrder(KAttack)
	ex := "ATTACK ukr FROM mos, vol"
	p.accept(":")
	for {
		st := Strike{Rounds: 1}
		if p.powerAhead() {
			pw, ok := p.power()
			if !ok {
				return nil
			}
			st.Power = pw
			p.accept("in")
		}
		t, ok := p.area()
		if !ok {
			return nil
		}
		st.Target = t
		if !p.expect("say FROM where", ex, "from") {
			return nil
		}
		for {
			a, ok := p.area()
			if !ok {
				return nil
			}
			src := Source{Area: a, Via: -1, To: -1}
			if p.accept("via", "by") {
				p.accept("sea")
				v, ok := p.area()
				if !ok {
					return nil
				}
				src.Via = v
			}
			if p.accept("to") {
				v, ok := p.area()
				if !ok {
					return nil
				}
				src.To = v
			}
			st.Sources = append(st.Sources, src)
			if p.accept(",") {
				continue
			}
			if (p.word() == "and" || p.word() == "&") && !p.strikeAheadAfter() {
				p.s.Next()
				continue
			}
			break
		}
		switch {
		case p.accept("blitz"):
			n, ok := p.count("rounds", "ATTACK ukr FROM mos BLITZ 3")
			if !ok {
				return nil
			}
			st.Rounds = n
		case p.accept("for"):
			n, ok := p.count("rounds", "ATTACK ukr FROM mos FOR 2 ROUNDS")
			if !ok {
				return nil
			}
			p.accept("rounds", "round")
			st.Rounds = n
		case strings.HasPrefix(p.word(), "x") && allDigits(p.word()[1:]):
			st.Rounds, _ = strconv.Atoi(p.word()[1:])
			p.s.Next()
		case p.word() == "x":
			p.s.Next()
			n, ok := p.count("rounds", "ATTACK ukr FROM mos BLITZ 3")
			if !ok {
				return nil
			}
			st.Rounds = n
		default:
			start := p.s.Pos()
			if n, ok := p.number(); ok {
				if p.accept("times", "rounds") {
					st.Rounds = n
				} else {
					p.s.Seek(start)
				}
			}
		}
		if st.Rounds < 1 || st.Rounds > 9 {
			p.fail("a blitz lasts 2 or 3 rounds", "ATTACK ukr FROM mos BLITZ 3")
			return nil
		}
		o.Strikes = append(o.Strikes, st)
		if p.accept("and", ";", "&") {
			continue
		}
		break
	}
	switch {
	case p.accept("stay", "hold"):
		o.Stay = true
	case p.accept("leave"):
		// LEAVE 1 IN mos, 2 IN vol: armies that stay where they attacked
		// from when the rest occupy (seed: Occupy "may").
		ex := "ATTACK ukr FROM mos, vol LEAVE 1 IN mos"
		for {
			n, ok := p.count("armies", ex)
			if !ok {
				return nil
			}
			p.accept("armies", "army")
			if !p.expect("say IN which area they stay", ex, "in") {
				return nil
			}
			a, ok := p.area()
			if !ok {
				return nil
			}
			o.Leave = append(o.Leave, Leg{N: n, From: a, To: -1})
			if !p.accept(",", "and", "&") {
				break
			}
			p.accept("leave")
		}
	}
	return o
}

// losses reads LOSSES mos, vol, AFLOAT, ecs | LOSSES DEFAULT: the order in
// which the player's attacking pieces are removed for hits.
func (p *parser) losses() *Order {
	o := newOrder(KLosses)
	if p.accept("default", "none", "clear") {
		return o
	}
	p.accept("from", ":")
	for {
		if p.accept("afloat") {
			o.Losses = append(o.Losses, lossAfloat)
		} else {
			a, ok := p.area()
			if !ok {
				return nil
			}
			o.Losses = append(o.Losses, a)
		}
		if !p.sep() {
			break
		}
	}
	if len(o.Losses) > 16 {
		p.fail("name at most 16 places", "LOSSES mos, vol, AFLOAT")
		return nil
	}
	return o
}

// strikeAheadAfter looks past the AND at the scanner's position.
func (p *parser) strikeAheadAfter() bool {
	pos := p.s.Pos()
	p.s.Seek(pos + 1)
	ahead := p.strikeAhead()
	p.s.Seek(pos)
	return ahead
}

func (p *parser) launch() *Order {
	o := newOrder(KLaunch)
	ex := "LAUNCH 2 AT mos"
	for {
		t := Launch{N: 1}
		if n, ok := p.number(); ok {
			if n <= 0 {
				p.fail("launch at least one ICBM", ex)
				return nil
			}
			t.N = n
		}
		p.unitWord()
		if !p.expect("say the target: AT an area or city", ex, "at", "on", "against", "to") {
			return nil
		}
		a, c, ok := p.place()
		if !ok {
			return nil
		}
		t.Area, t.City = a, c
		o.Targets = append(o.Targets, t)
		if !p.sep() {
			return o
		}
	}
}

// conditional reads what follows IF: conditions, then the order.
func (p *parser) conditional() *Order {
	var conds []Cond
	attacked := false
	for {
		c, ok := p.cond()
		if !ok {
			return nil
		}
		if c.Kind == CondAttacked {
			if attacked {
				p.fail("one ATTACKED condition per order", "IF ATTACKED IN ukr: ATTACK ukr FROM blr")
				return nil
			}
			attacked = true
		}
		conds = append(conds, c)
		if !p.accept("and") {
			break
		}
	}
	if !p.accept(":", ",", "then") {
		p.fail("end the condition with ':' or THEN", "IF OIL PRICE BELOW 600: BUY 3 OIL")
		return nil
	}
	p.accept("then")
	if p.accept("counterattack", "counter") {
		p.accept(":")
		if !attacked {
			p.fail("a counterattack answers an attack: IF ATTACKED …", "IF ATTACKED IN ukr: COUNTERATTACK ukr FROM blr")
			return nil
		}
		if p.word() != "attack" && p.word() != "launch" {
			sub := p.attack()
			if sub == nil {
				return nil
			}
			return reaction(conds, sub)
		}
	}
	if p.accept("reinforce") {
		p.accept(":")
	}
	sub := p.order(false)
	if sub == nil {
		return nil
	}
	if attacked {
		switch {
		case sub.Kind == KAttack, sub.Kind == KLaunch, sub.isMove():
		default:
			p.fail("the answer to an attack is an ATTACK, a LAUNCH or one move (the defender's reinforcement)", "IF ATTACKED IN ukr: ATTACK ukr FROM blr")
			return nil
		}
		return reaction(conds, sub)
	}
	if sub.standing() || sub.Kind == KMisdeal || sub.Kind == KPass || sub.Kind == KConfirm || sub.Kind == KCallOff {
		p.fail("this order cannot be conditional", "")
		return nil
	}
	sub.Conds = conds
	return sub
}

func reaction(conds []Cond, sub *Order) *Order {
	o := newOrder(KReaction)
	// the ATTACKED condition first: the canonical line starts IF ATTACKED
	for i, c := range conds {
		if c.Kind == CondAttacked && i > 0 {
			conds[0], conds[i] = conds[i], conds[0]
		}
	}
	o.Conds = conds
	o.Sub = sub
	return o
}

func (p *parser) counterattack() *Order {
	conds := []Cond{{Kind: CondAttacked, Area: -1}}
	if p.accept("if", "when") {
		o := p.conditional()
		if o == nil {
			return nil
		}
		if o.Kind != KReaction {
			p.fail("a counterattack answers an attack: COUNTERATTACK IF ATTACKED …", "COUNTERATTACK IF ATTACKED IN ukr: ATTACK ukr FROM blr")
			return nil
		}
		if o.Sub.Kind != KAttack && o.Sub.Kind != KLaunch {
			p.fail("a counterattack is an ATTACK or a LAUNCH", "COUNTERATTACK IF ATTACKED IN ukr: ATTACK ukr FROM blr")
			return nil
		}
		return o
	}
	p.accept(":")
	var sub *Order
	if p.word() == "attack" || p.word() == "launch" {
		sub = p.order(false)
	} else {
		sub = p.attack()
	}
	if sub == nil {
		return nil
	}
	return reaction(conds, sub)
}

func (p *parser) op() (Op, bool) {
	s := p.s
	t := s.Peek()
	switch {
	case p.accept("below", "under", "less", "lower"):
		p.accept("than")
		return OpLT, true
	case p.accept("above", "over", "more", "higher", "greater"):
		p.accept("than")
		return OpGT, true
	case p.accept("at"):
		switch {
		case p.accept("most"):
			return OpLE, true
		case p.accept("least"):
			return OpGE, true
		}
		p.fail("AT MOST or AT LEAST", "IF OIL PRICE AT MOST 600: BUY 3 OIL")
		return 0, false
	case p.accept("is", "equals", "=="):
		if p.accept("at") {
			switch {
			case p.accept("most"):
				return OpLE, true
			case p.accept("least"):
				return OpGE, true
			}
		}
		p.accept("=")
		return OpEQ, true
	case t.Norm == "<":
		s.Next()
		if p.accept("=") {
			return OpLE, true
		}
		return OpLT, true
	case t.Norm == "->" && t.Text == ">":
		s.Next()
		if p.accept("=") {
			return OpGE, true
		}
		return OpGT, true
	case t.Norm == "->" && t.Text == "=>":
		s.Next()
		return OpGE, true
	case t.Norm == "=":
		s.Next()
		if p.accept("<") {
			return OpLE, true
		}
		return OpEQ, true
	}
	p.fail("compare with BELOW, ABOVE, AT MOST, AT LEAST or IS", "IF OIL PRICE BELOW 600: BUY 3 OIL")
	return 0, false
}

func (p *parser) cond() (Cond, bool) {
	s := p.s
	ex := "IF OIL PRICE BELOW 600: BUY 3 OIL"
	if p.accept("attacked", "attack") {
		c := Cond{Kind: CondAttacked, Area: -1}
		for {
			switch {
			case p.accept("by"):
				pw, ok := p.power()
				if !ok {
					return c, false
				}
				c.Power = pw
			case p.accept("in", "at"):
				a, ok := p.area()
				if !ok {
					return c, false
				}
				c.Area = a
			default:
				return c, true
			}
		}
	}
	if p.accept("i", "we") {
		p.accept("am", "are")
		if p.accept("attacked") {
			s.Seek(s.Pos() - 1)
			return p.cond()
		}
	}
	if p.accept("cash", "money") {
		op, ok := p.op()
		if !ok {
			return Cond{}, false
		}
		n, ok := p.number()
		if !ok {
			p.fail("compare with an amount", "IF CASH AT LEAST 2000: BUY BONDS 1000")
			return Cond{}, false
		}
		return Cond{Kind: CondCash, Op: op, N: n}, true
	}
	if r, ok := p.resource(); ok {
		p.accept("price")
		p.accept("is")
		op, ok := p.op()
		if !ok {
			return Cond{}, false
		}
		n, ok := p.number()
		if !ok {
			p.fail("compare the price with an amount in $BL", ex)
			return Cond{}, false
		}
		return Cond{Kind: CondPrice, Res: r, Op: op, N: n}, true
	}
	c := Cond{Kind: CondControl}
	if p.accept("not") {
		c.Not = true
	}
	switch p.word() {
	case "control", "controls", "hold", "holds", "do", "does", "dont", "doesnt":
	default:
		pw, ok := p.power()
		if !ok {
			s.Seek(s.Pos())
			return c, false
		}
		c.Power = pw
	}
	switch {
	case p.accept("do", "does"):
		if !p.expect("DOES NOT CONTROL", "IF china DOES NOT CONTROL ukr: …", "not") {
			return c, false
		}
		c.Not = !c.Not
	case p.accept("dont", "doesnt"):
		c.Not = !c.Not
	case p.accept("not"):
		c.Not = !c.Not
	}
	if !p.accept("control", "controls", "hold", "holds") {
		p.fail("a condition tests a price (OIL PRICE BELOW 600), your CASH, who CONTROLS an area, or ATTACKED", ex)
		return c, false
	}
	a, ok := p.area()
	if !ok {
		return c, false
	}
	c.Area = a
	return c, true
}

func sortedUnique(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sortStrings(out)
	return out
}
