package diplomacy

import (
	"fmt"

	"pbemd/orders"
)

// This file is the vocabulary of Diplomacy orders, shared by the grammar,
// the resolver, the demo's players and the tests: the types an order line
// reads into, and the entry points that read them.

// UnitType is the kind of a Diplomacy unit.
type UnitType uint8

const (
	NoUnit UnitType = iota // not written by the player
	Army
	Fleet
)

// OrderKind is what a Diplomacy order asks a unit to do.
type OrderKind uint8

const (
	Hold OrderKind = iota + 1
	Move
	SupportHold
	SupportMove
	Convoy
	Retreat
	Disband
	Build
	Waive
)

// Location is a province id from the map (lower case, e.g. "stp") and, for a
// multi-coast province, the coast id ("nc", "sc", "ec"); Coast is "" when the
// order did not name one.
type Location struct {
	Province string
	Coast    string
}

// Order is one typed Diplomacy order.
//
//	Hold:        Unit at Loc holds.
//	Move:        Unit at Loc moves to Target (ViaConvoy when "via convoy"; Path
//	             holds the sea provinces of a judge-style path "A Lon-Nth-Bel").
//	SupportHold: Unit at Loc supports AuxUnit at Aux (to hold).
//	SupportMove: Unit at Loc supports AuxUnit at Aux moving to Target.
//	Convoy:      Fleet at Loc convoys AuxUnit (an army) at Aux to Target.
//	Retreat:     Unit at Loc retreats to Target.
//	Disband:     Unit at Loc disbands (retreat or adjustment phase).
//	Build:       build Unit at Loc (Loc.Coast for a fleet on a split coast).
//	Waive:       a build the power gives up.
//
// The one-byte fields come first, so that an Order (copied into every
// OrderResult) packs into 144 bytes, not 160.
type Order struct {
	Kind      OrderKind
	Unit      UnitType
	AuxUnit   UnitType
	ViaConvoy bool
	Loc       Location
	Aux       Location
	Target    Location
	Path      []string
	// Power is the power id written before the order ("England: F Nth - Pic")
	// or by a heading line ("England:") above it; "" when none. Format does
	// not print it.
	Power string
}

// ParsePhase tells the grammar which kind of phase the orders are for; it
// decides readings such as a move written in a retreat phase.
type ParsePhase uint8

const (
	AnyPhase        ParsePhase = iota // unknown: every order is read as written
	MovementPhase                     // spring and fall orders
	RetreatPhase                      // "A Par - Bur" is read as the retreat "A Par R Bur"
	AdjustmentPhase                   // builds, disbands and waives
)

// ParseOptions control Parse and ParseOrder.
type ParseOptions struct {
	// Lexicon holds the names of the map's provinces and powers. Nil: no
	// orders are expected, only mail commands (power names in commands are
	// then kept as written).
	Lexicon *Lexicon
	// Position, optional, tells what stands where: it fills in an omitted
	// unit type and corrects a wrong one (with a warning). In a retreat
	// phase it should answer for the dislodged units.
	Position UnitFinder
	// Phase decides readings like "A Par - Bur" in a retreat phase.
	Phase ParsePhase
	// Strict turns every leniency of the grammar and of the mail reader
	// off (see Parse and package orders).
	Strict bool
}

// Options are the orders.Options of a parse with the Diplomacy grammar over
// the lexicon: its Grammar returns *Order values, and the lexicon's powers
// resolve power names in commands and headings.
func (o ParseOptions) Options() orders.Options {
	if o.Lexicon == nil {
		return orders.Options{Strict: o.Strict}
	}
	prov, pow, err := o.Lexicon.index()
	g := &grammar{prov: prov, pow: pow, pos: o.Position, phase: o.Phase, err: err}
	return orders.Options{Grammar: g, Powers: pow, Strict: o.Strict}
}

// Parse reads a mail body (or a power's order text) with the Diplomacy
// grammar; see Parse for the mail structure and the commands. The
// Value of every order line is an *Order.
//
// Keywords and names are case-insensitive. Every line below reads the same
// in both modes (strict and lenient):
//
//	A Par H          Army "Paris" hold           Fleet London holds
//	A Par - Bur      Army "Paris" move "Burgundy"   A Par -> Bur   A Lon - Nth - Bel
//	A Tun - Smy via convoy
//	F Eng S A Bel    Fleet "English Channel" support Army "Belgium" hold
//	A Tyr S A Ven - Tri    Army Rome support Fleet Adriatic Sea move Venice
//	F Nth C A Lon - Bel    Fleet "Ionian Sea" convoy Army "Tunis" move "Smyrna"
//	A Par R Gas      Army "Paris" retreat "Gascony"
//	A Par D          F Kie disband    Remove F Kie
//	Build F StP/nc   B F Nea    Army "Rome" build    Waive    build waive
//	England: F Nth - Pic       (the power before the order: Order.Power)
//
// Names are a province's id, map abbreviation, full name (spaces and
// hyphens as printed, quoted or not, accents folded: "Sinaï" = "Sinai") or
// an alias the map declares, read by the name matcher of package orders
// with its leniencies (close typos, unique prefixes, short forms). Coasts:
// "Spa/nc", "Spa(nc)", "Spa (n.c.)", "Spa/n", "Spa nc", "Spain north
// coast", "Spa (north coast)", "Bul e/c". Judge-style paths ("A
// Lon-Nth-Bel") fill Order.Path. Phase decides one reading: in RetreatPhase
// a move ("A Par - Bur") is the retreat "A Par R Bur". A heading line
// ("England:") gives the orders below it that Power.
//
// Leniencies of the grammar (all off with Strict):
//
//  1. An omitted unit type ("Par-Bur", "Rom hold", "F Eng S Bel") is filled
//     in from Position. Without a Position it is left NoUnit for the engine
//     in both modes (Format then prints no letter, and the canonical line
//     reads back strictly); strict with a Position refuses it.
//  2. A wrong unit type corrected from Position ("Army Nth" for the fleet
//     in the North Sea is read as F Nth, with a warning).
//  3. A coast written on a province without separate coasts ("Bre/nc") is
//     dropped with a warning.
//  4. More order words: "=>", ">", "→", "to", "into", "moves to", "m", "mv",
//     "attack(s)", "stand(s)", "sup", "supp", "supporting", "cvy",
//     "convoying", "transport(s)", "by convoy", "flt" (strict keeps the
//     canonical and seed words: H hold holds - -> move moves S support
//     supports C convoy convoys via R retreat retreats D disband disbands
//     remove B build builds waive).
//  5. List bullets and numbering before an order ("1.", "2)", "*", "-", "•").
//  6. Trailing punctuation after an order ("A Par H!", "A Par - Bur;"), and
//     a missing closing bracket at the end of a line ("Spa(nc").
//  7. A power abbreviated before an order ("ENG: F Nth - Pic").
//
// Hints, not leniencies (the line stays an error; off with Strict): an
// order written as an English sentence ("my fleet in London moves to the
// North Sea") is answered with the order its unit and provinces name
// ("did you mean F Lon - Nth?"), or the order forms when they name none
// (hint.go).
//
// Parse ⇒ Format ⇒ Parse is stable.
func Parse(body string, opts ParseOptions) *orders.Result {
	return orders.Parse(body, opts.Options())
}

// ParseOrder reads one order line: no mail structure (a trailing "#" or
// "//" comment is dropped) and no commands. The error wraps
// orders.ErrNotUnderstood and repeats the first error diagnostic; the
// diagnostics also hold warnings for an order that was read.
func ParseOrder(line string, opts ParseOptions) (Order, []orders.Diagnostic, error) {
	if opts.Lexicon == nil {
		d := orders.Diagnostic{Severity: orders.Error, Message: "no map is known, so no orders can be read"}
		return Order{}, []orders.Diagnostic{d}, fmt.Errorf("%w: %s", orders.ErrNotUnderstood, d.Message)
	}
	v, diags, err := orders.ParseLine(line, opts.Options())
	if err != nil {
		return Order{}, diags, err
	}
	return *v.(*Order), diags, nil
}

// Orders returns the Diplomacy orders of a parsed body, in line order.
func Orders(r *orders.Result) []Order {
	var out []Order
	for i := range r.Lines {
		if l := &r.Lines[i]; l.Kind == orders.OrderLine {
			if o, ok := l.Value.(*Order); ok {
				out = append(out, *o)
			}
		}
	}
	return out
}
