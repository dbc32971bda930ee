package diplomacy

import (
	"strings"
)

// Outcome of one order. It is one byte (an OrderResult is made for every
// order of every phase) and reads and prints as its word: "succeeded",
// "failed", "invalid", "illegal" (the zero Outcome is "").
type Outcome uint8

const (
	Succeeded Outcome = iota + 1 // the order did what it asked
	Failed                       // valid, but beaten: bounced, cut, dislodged, no convoy route
	Invalid                      // legal but unmatched: support or convoy of an order not given
	Illegal                      // not allowed: foreign or missing unit, impossible move; the unit holds

	// dup marks, while a phase is resolved, an order for a unit that
	// already has one; no Result holds it.
	dup
)

var outcomeWords = [...]string{"", "succeeded", "failed", "invalid", "illegal", "dup"}

func (o Outcome) String() string {
	if int(o) < len(outcomeWords) {
		return outcomeWords[o]
	}
	return "?"
}

// MarshalText writes the outcome's word (JSON: a string, as before the
// Outcome was a byte).
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an outcome's word; any other word reads as the zero
// Outcome (a picture drawn from a results file only asks whether an order
// succeeded or failed).
func (o *Outcome) UnmarshalText(b []byte) error {
	*o = 0
	for i, w := range outcomeWords[:Illegal+1] {
		if i > 0 && string(b) == w {
			*o = Outcome(i)
		}
	}
	return nil
}

// PowerOrder is one typed order and the power that gave it.
type PowerOrder struct {
	Power string
	Order Order
}

// OrderResult is what became of one order.
type OrderResult struct {
	Power string `json:"power"`
	// Order is the order as given: it points into the orders passed to
	// Adjudicate (an OrderResult then costs 64 bytes, not 208).
	Order  *Order `json:"-"`
	Text   string `json:"order"`            // canonical short form
	Reason string `json:"reason,omitempty"` // e.g. "bounced with A Mun"
	// Outcome comes last, where its one byte packs.
	Outcome Outcome `json:"outcome"`
}

// Result is the plain-data account of one adjudicated phase.
type Result struct {
	Phase  Phase
	Orders []OrderResult
	// Movement: dislodged units with their retreat options, and the
	// provinces left vacant by a standoff.
	Dislodged []Dislodged
	Standoffs []string
	// Retreats and adjustments: units removed (by order, failed retreat or
	// civil disorder) and units built.
	Disbanded []Unit
	Built     []Unit
	// Owners is set when supply centres changed hands (after Fall).
	Owners map[string]string
	// Adjustments is, when the next phase is an adjustment phase, each
	// power's builds (positive) or disbands (negative) owed.
	Adjustments map[string]int
	Eliminated  []string // powers left with no units and no centres by this phase
	Winner      string   // power with a solo victory, if any
	Next        *Position
}

// FormatOrder prints an order in the canonical short form of the orders
// package ("A Par - Bur", "F Mao - Spa/nc", "Build F StP/nc").
func (m *Map) FormatOrder(o Order) string { return Format(o, m.lex) }

func (m *Map) writeLoc(b *strings.Builder, l Location) {
	if i, ok := m.provIdx[l.Province]; ok {
		b.WriteString(m.Provinces[i].Abbrev)
	} else {
		b.WriteString(l.Province)
	}
	if l.Coast != "" {
		b.WriteByte('/')
		b.WriteString(l.Coast)
	}
}

// UnitName prints a unit as "A Mun" or "F StP/sc".
func (m *Map) UnitName(u Unit) string {
	var b strings.Builder
	if u.Type == Fleet {
		b.WriteString("F ")
	} else {
		b.WriteString("A ")
	}
	m.writeLoc(&b, u.Loc)
	return b.String()
}

// LocName prints a location as the map abbreviates it ("Spa/nc").
func (m *Map) LocName(l Location) string {
	var b strings.Builder
	m.writeLoc(&b, l)
	return b.String()
}
