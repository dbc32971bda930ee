package supremacy

import (
	"strconv"
	"strings"
)

// Kind is what an order asks for.
type Kind uint8

const (
	KNone Kind = iota
	// any phase
	KLoan      // LOAN n
	KRepay     // REPAY n
	KBuyBonds  // BUY BONDS n
	KSellBonds // SELL BONDS n
	KSeize     // SEIZE company | SEIZE ALL [IN area]
	KOffer     // OFFER [n] TO power: items [FOR items]
	KAccept    // ACCEPT power [n] [PLACE areas]
	KReaction  // IF ATTACKED …: order (standing counterattack or reinforcement)
	KNoReact   // NO REACTIONS
	KContest   // CONTEST sea|ALL [AGAINST power] [ROUNDS n] (standing)
	KNoContest // NO CONTEST
	KPermit    // PERMIT|DENY power|ALL THROUGH choke|ALL (standing)
	KABM       // ABM DEFEND OWN|ALL|OFF|powers (standing)
	KLosses    // LOSSES places | LOSSES DEFAULT (standing): who loses pieces first
	KIntercept // ABM n AT place, … (step play: against a declared launch)
	// set-up
	KMisdeal // MISDEAL
	KPlace   // PLACE n ARMIES IN area, n NAVIES IN sea
	// salaries
	KOpen     // OPEN company|ALL
	KClose    // CLOSE company|ALL
	KDisband  // DISBAND n|ALL ARMIES|NAVIES IN area
	KBlockade // BLOCKADE company
	// trade
	KBuy  // BUY n resource
	KSell // SELL n resource
	// attack
	KAttack    // ATTACK strikes [STAY | LEAVE n IN area, …]
	KLaunch    // LAUNCH n AT place, …
	KReinforce // REINFORCE move
	KPass      // PASS
	KConfirm   // CONFIRM (a declared launch)
	KCallOff   // CALL OFF (a declared launch)
	// move
	KMove      // MOVE legs
	KRail      // RAIL legs
	KAirlift   // AIRLIFT legs
	KTransport // TRANSPORT [n] land - land VIA sea [TO sea]
	// build
	KBuild       // BUILD n ARMIES IN area, n NAVIES IN sea
	KBuildWeapon // BUILD n ICBM|ABM
	KResearch    // RESEARCH oil|minerals|grain|icbm|abm [MAX n]
	KSellMinor   // SELL n ARMIES IN area|NAVIES IN sea|ICBM|ABM TO minor
	KBuyBack     // BUY BACK n ARMIES|NAVIES|ICBM|ABM FROM minor
	// any phase (offers.go)
	KRefuse // REFUSE power [n]
)

// lossAfloat stands in a LOSSES order for the attacker's armies carried by
// sea.
const lossAfloat = -2

// Unit is a kind of piece.
type Unit uint8

const (
	UArmy Unit = iota + 1
	UNavy
	UICBM
	UABM
)

func (u Unit) word(n int) string {
	switch u {
	case UArmy:
		if n == 1 {
			return "ARMY"
		}
		return "ARMIES"
	case UNavy:
		if n == 1 {
			return "NAVY"
		}
		return "NAVIES"
	case UICBM:
		return "ICBM"
	case UABM:
		return "ABM"
	}
	return "?"
}

// CondKind is what a condition tests.
type CondKind uint8

const (
	CondPrice    CondKind = iota + 1 // resource price op n
	CondCash                         // my cash op n
	CondControl                      // power (or I) controls area
	CondAttacked                     // this reaction's trigger: attacked [by power] [in area]
)

// Op compares two numbers.
type Op uint8

const (
	OpLT Op = iota + 1
	OpLE
	OpGT
	OpGE
	OpEQ
)

var opWords = map[Op]string{OpLT: "BELOW", OpLE: "AT MOST", OpGT: "ABOVE", OpGE: "AT LEAST", OpEQ: "IS"}

func (o Op) holds(a, b int) bool {
	switch o {
	case OpLT:
		return a < b
	case OpLE:
		return a <= b
	case OpGT:
		return a > b
	case OpGE:
		return a >= b
	}
	return a == b
}

// Cond is one condition of an IF order.
type Cond struct {
	Kind  CondKind
	Res   Resource
	Op    Op
	N     int
	Power string // CondControl: "" = the ordering player; CondAttacked: the attacker ("" = anyone)
	Area  int    // CondControl: the area; CondAttacked: where (-1 = anywhere)
	Not   bool
}

// Leg is one part of a group move: N pieces (0 = all) from one area to
// another.
type Leg struct {
	N        int
	From, To int
}

// Source is one activated area of a conventional attack: armies or navies
// in Area. For armies carried by sea, Via is the sea whose navies carry
// them (and To the sea they sail to first, or -1). For navies, To is the
// sea they sail to before they fight (-1: they fight from Area).
type Source struct {
	Area int
	Via  int
	To   int
}

// Strike is the attack on one target area.
type Strike struct {
	Power   string // the defender named for a sea area ("" = whoever is there)
	Target  int
	Sources []Source
	Rounds  int // 1, or more for a blitz
}

// Launch is one salvo of a strategic attack.
type Launch struct {
	N    int
	Area int
	City int // -1: the area (or its only city)
}

// ItemKind is a kind of thing traded between players.
type ItemKind uint8

const (
	ItemCash ItemKind = iota + 1
	ItemResource
	ItemCompany
	ItemArmies
	ItemNavies
	ItemICBM
	ItemABM
)

// Item is one thing given in a private trade.
type Item struct {
	Kind ItemKind
	N    int
	Res  Resource
	Card int // ItemCompany
	Area int // ItemArmies/ItemNavies: where the pieces stand
}

// Order is one typed order. Which fields matter depends on Kind.
type Order struct {
	Kind    Kind
	Conds   []Cond
	N       int
	Unit    Unit
	Res     Resource
	Tech    Tech // KResearch of a weapon
	Power   string
	Powers  []string
	Area    int // -1 when none (KSellMinor: where the armies or navies stand)
	Card    int // -1 when none
	Choke   int // -1 = all
	All     bool
	Deny    bool
	Stay    bool
	Leave   []Leg // KAttack: N armies stay in From when the rest occupy
	Losses  []int // KLosses: areas (or lossAfloat) in the order they lose pieces
	Rounds  int
	Policy  string // KABM: own | all | off | powers
	Legs    []Leg
	Strikes []Strike
	Targets []Launch
	Parts   []Leg // KBuild/KPlace: N pieces (Unit by area kind) in To
	Give    []Item
	Get     []Item
	Place   []int // KAccept: where bought forces go
	Via     int   // KTransport
	ViaTo   int   // KTransport: -1 when the navies stay
	Minor   int   // KSellMinor, KBuyBack: the minor power's area
	Sub     *Order
}

func newOrder(k Kind) *Order {
	return &Order{Kind: k, Area: -1, Card: -1, Choke: -1, Via: -1, ViaTo: -1, Minor: -1}
}

// anytime reports whether an order may be given in any phase.
func (o *Order) anytime() bool {
	switch o.Kind {
	case KLoan, KRepay, KBuyBonds, KSellBonds, KSeize, KOffer, KAccept, KRefuse, KReaction, KNoReact,
		KContest, KNoContest, KPermit, KABM, KIntercept, KLosses:
		return true
	}
	return false
}

// standing reports whether an order changes the standing orders rather
// than acting now.
func (o *Order) standing() bool {
	switch o.Kind {
	case KReaction, KNoReact, KContest, KNoContest, KPermit, KABM, KLosses:
		return true
	}
	return false
}

// phaseOf is the phase a phase order belongs to.
func (o *Order) phaseOf() Phase {
	switch o.Kind {
	case KMisdeal, KPlace:
		return PhaseSetup
	case KOpen, KClose, KDisband, KBlockade:
		return PhaseSalaries
	case KBuy, KSell:
		return PhaseTrade
	case KAttack, KLaunch, KReinforce, KPass, KConfirm, KCallOff:
		return PhaseAttack
	case KMove, KRail, KAirlift, KTransport:
		return PhaseMove
	case KBuild, KBuildWeapon, KResearch, KSellMinor, KBuyBack:
		return PhaseBuild
	}
	return PhaseNone
}

// isMove reports a movement order (what a reinforcement may be).
func (o *Order) isMove() bool {
	switch o.Kind {
	case KMove, KRail, KAirlift, KTransport:
		return true
	}
	return false
}

// format writes the canonical line of an order, which the strict parser
// reads back to the same order.
func (sc *Scenario) format(o *Order) string {
	var b strings.Builder
	if len(o.Conds) > 0 && o.Kind != KReaction {
		sc.formatConds(&b, o.Conds)
	}
	sc.formatBody(&b, o)
	return b.String()
}

func (sc *Scenario) formatConds(b *strings.Builder, cs []Cond) {
	b.WriteString("IF ")
	for i, c := range cs {
		if i > 0 {
			b.WriteString(" AND ")
		}
		switch c.Kind {
		case CondPrice:
			b.WriteString(strings.ToUpper(c.Res.String()) + " PRICE " + opWords[c.Op] + " " + strconv.Itoa(c.N))
		case CondCash:
			b.WriteString("CASH " + opWords[c.Op] + " " + strconv.Itoa(c.N))
		case CondControl:
			if c.Power != "" {
				b.WriteString(c.Power + " ")
			}
			if c.Not {
				b.WriteString("NOT ")
			}
			if c.Power != "" {
				b.WriteString("CONTROLS ")
			} else {
				b.WriteString("CONTROL ")
			}
			b.WriteString(sc.areas[c.Area].ID)
		case CondAttacked:
			b.WriteString("ATTACKED")
			if c.Power != "" {
				b.WriteString(" BY " + c.Power)
			}
			if c.Area >= 0 {
				b.WriteString(" IN " + sc.areas[c.Area].ID)
			}
		}
	}
	b.WriteString(": ")
}

func (sc *Scenario) formatBody(b *strings.Builder, o *Order) {
	itoa := strconv.Itoa
	area := func(a int) string { return sc.areas[a].ID }
	switch o.Kind {
	case KLoan:
		b.WriteString("LOAN " + itoa(o.N))
	case KRepay:
		b.WriteString("REPAY " + itoa(o.N))
	case KBuyBonds:
		b.WriteString("BUY BONDS " + itoa(o.N))
	case KSellBonds:
		b.WriteString("SELL BONDS " + itoa(o.N))
	case KSeize:
		switch {
		case o.All && o.Area >= 0:
			b.WriteString("SEIZE ALL IN " + area(o.Area))
		case o.All:
			b.WriteString("SEIZE ALL")
		default:
			b.WriteString("SEIZE " + sc.cards[o.Card].id)
		}
	case KOffer:
		b.WriteString("OFFER " + itoa(o.N) + " TO " + o.Power + ": ")
		sc.formatItems(b, o.Give)
		if len(o.Get) > 0 {
			b.WriteString(" FOR ")
			sc.formatItems(b, o.Get)
		}
	case KAccept:
		b.WriteString("ACCEPT " + o.Power + " " + itoa(o.N))
		if len(o.Place) > 0 {
			b.WriteString(" PLACE ")
			for i, a := range o.Place {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(area(a))
			}
		}
		sc.formatTerms(b, o)
	case KRefuse:
		b.WriteString("REFUSE " + o.Power + " " + itoa(o.N))
	case KReaction:
		sc.formatConds(b, o.Conds)
		sc.formatBody(b, o.Sub)
	case KNoReact:
		b.WriteString("NO REACTIONS")
	case KContest:
		b.WriteString("CONTEST ")
		if o.Area < 0 {
			b.WriteString("ALL")
		} else {
			b.WriteString(area(o.Area))
		}
		if o.Power != "" {
			b.WriteString(" AGAINST " + o.Power)
		}
		if o.Rounds > 0 {
			b.WriteString(" ROUNDS " + itoa(o.Rounds))
		}
	case KNoContest:
		b.WriteString("NO CONTEST")
	case KPermit:
		if o.Deny {
			b.WriteString("DENY ")
		} else {
			b.WriteString("PERMIT ")
		}
		if o.Power == "" {
			b.WriteString("ALL")
		} else {
			b.WriteString(o.Power)
		}
		b.WriteString(" THROUGH ")
		if o.Choke < 0 {
			b.WriteString("ALL")
		} else {
			b.WriteString(sc.chokes[o.Choke].ID)
		}
	case KABM:
		b.WriteString("ABM DEFEND ")
		if o.Policy == "powers" {
			b.WriteString(strings.Join(o.Powers, ", "))
		} else {
			b.WriteString(strings.ToUpper(o.Policy))
		}
	case KLosses:
		b.WriteString("LOSSES ")
		if len(o.Losses) == 0 {
			b.WriteString("DEFAULT")
		}
		for i, a := range o.Losses {
			if i > 0 {
				b.WriteString(", ")
			}
			if a == lossAfloat {
				b.WriteString("AFLOAT")
			} else {
				b.WriteString(area(a))
			}
		}
	case KIntercept:
		b.WriteString("ABM ")
		for i, t := range o.Targets {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(itoa(t.N) + " AT " + sc.placeID(t.Area, t.City))
		}
	case KMisdeal:
		b.WriteString("MISDEAL")
	case KPlace, KBuild:
		if o.Kind == KPlace {
			b.WriteString("PLACE ")
		} else {
			b.WriteString("BUILD ")
		}
		for i, p := range o.Parts {
			if i > 0 {
				b.WriteString(", ")
			}
			u := UArmy
			if sc.areas[p.To].sea {
				u = UNavy
			}
			b.WriteString(itoa(p.N) + " " + u.word(p.N) + " IN " + area(p.To))
		}
	case KOpen, KClose, KBlockade:
		b.WriteString(map[Kind]string{KOpen: "OPEN ", KClose: "CLOSE ", KBlockade: "BLOCKADE "}[o.Kind])
		if o.All {
			b.WriteString("ALL")
		} else {
			b.WriteString(sc.cards[o.Card].id)
		}
	case KDisband:
		b.WriteString("DISBAND ")
		if o.All {
			b.WriteString("ALL " + o.Unit.word(2))
		} else {
			b.WriteString(itoa(o.N) + " " + o.Unit.word(o.N))
		}
		b.WriteString(" IN " + area(o.Area))
	case KBuy:
		b.WriteString("BUY " + itoa(o.N) + " " + strings.ToUpper(o.Res.String()))
	case KSell:
		b.WriteString("SELL " + itoa(o.N) + " " + strings.ToUpper(o.Res.String()))
	case KAttack:
		b.WriteString("ATTACK ")
		for i, s := range o.Strikes {
			if i > 0 {
				b.WriteString(" AND ")
			}
			if s.Power != "" {
				b.WriteString(s.Power + " IN ")
			}
			b.WriteString(area(s.Target) + " FROM ")
			for k, src := range s.Sources {
				if k > 0 {
					b.WriteString(", ")
				}
				b.WriteString(area(src.Area))
				if src.Via >= 0 {
					b.WriteString(" VIA " + area(src.Via))
				}
				if src.To >= 0 {
					b.WriteString(" TO " + area(src.To))
				}
			}
			if s.Rounds > 1 {
				b.WriteString(" BLITZ " + itoa(s.Rounds))
			}
		}
		if o.Stay {
			b.WriteString(" STAY")
		}
		for i, l := range o.Leave {
			if i == 0 {
				b.WriteString(" LEAVE ")
			} else {
				b.WriteString(", ")
			}
			b.WriteString(itoa(l.N) + " IN " + area(l.From))
		}
	case KLaunch:
		b.WriteString("LAUNCH ")
		for i, t := range o.Targets {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(itoa(t.N) + " AT " + sc.placeID(t.Area, t.City))
		}
	case KReinforce:
		b.WriteString("REINFORCE ")
		sc.formatBody(b, o.Sub)
	case KPass:
		b.WriteString("PASS")
	case KConfirm:
		b.WriteString("CONFIRM")
	case KCallOff:
		b.WriteString("CALL OFF")
	case KMove, KRail, KAirlift:
		b.WriteString(map[Kind]string{KMove: "MOVE ", KRail: "RAIL ", KAirlift: "AIRLIFT "}[o.Kind])
		sc.formatLegs(b, o.Legs)
	case KTransport:
		b.WriteString("TRANSPORT ")
		sc.formatLegs(b, o.Legs)
		b.WriteString(" VIA " + area(o.Via))
		if o.ViaTo >= 0 {
			b.WriteString(" TO " + area(o.ViaTo))
		}
	case KBuildWeapon:
		b.WriteString("BUILD " + itoa(o.N) + " " + o.Unit.word(o.N))
	case KResearch:
		b.WriteString("RESEARCH ")
		switch o.Tech {
		case TechICBM:
			b.WriteString("ICBM")
		case TechABM:
			b.WriteString("ABM")
		default:
			b.WriteString(strings.ToUpper(o.Res.String()))
		}
		if o.N > 0 {
			b.WriteString(" MAX " + itoa(o.N))
		}
	case KSellMinor:
		b.WriteString("SELL " + itoa(o.N) + " " + o.Unit.word(o.N))
		if o.Unit == UArmy || o.Unit == UNavy {
			b.WriteString(" IN " + area(o.Area))
		}
		b.WriteString(" TO " + area(o.Minor))
	case KBuyBack:
		b.WriteString("BUY BACK " + itoa(o.N) + " " + o.Unit.word(o.N) + " FROM " + area(o.Minor))
	}
}

func (sc *Scenario) formatLegs(b *strings.Builder, legs []Leg) {
	for i, l := range legs {
		if i > 0 {
			b.WriteString(", ")
		}
		if l.N > 0 {
			b.WriteString(strconv.Itoa(l.N) + " ")
		}
		b.WriteString(sc.areas[l.From].ID + " - " + sc.areas[l.To].ID)
	}
}

func (sc *Scenario) formatItems(b *strings.Builder, items []Item) {
	for i, it := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(sc.itemText(it, false))
	}
}

// itemText writes an item canonically, or for players when human is set.
func (sc *Scenario) itemText(it Item, human bool) string {
	n := strconv.Itoa(it.N)
	switch it.Kind {
	case ItemCash:
		return "$" + n
	case ItemResource:
		if human {
			return n + " " + it.Res.String()
		}
		return n + " " + strings.ToUpper(it.Res.String())
	case ItemCompany:
		if human {
			return sc.cards[it.Card].name
		}
		return "COMPANY " + sc.cards[it.Card].id
	case ItemArmies, ItemNavies:
		u := UArmy
		if it.Kind == ItemNavies {
			u = UNavy
		}
		if human {
			return n + " " + strings.ToLower(u.word(it.N)) + " in " + sc.areas[it.Area].Name
		}
		return n + " " + u.word(it.N) + " IN " + sc.areas[it.Area].ID
	case ItemICBM:
		return n + " ICBM"
	case ItemABM:
		return n + " ABM"
	}
	return "?"
}

// placeID is the canonical name of an area or one city of it.
func (sc *Scenario) placeID(area, city int) string {
	if city < 0 {
		return sc.areas[area].ID
	}
	return strings.ToLower(strings.Join(strings.Fields(sc.areas[area].Cities[city]), ""))
}

// placeName is an area or a city for players.
func (sc *Scenario) placeName(area, city int) string {
	if city < 0 || len(sc.areas[area].Cities) < 2 {
		return sc.areas[area].Name
	}
	return sc.areas[area].Cities[city] + " (" + sc.areas[area].Name + ")"
}
