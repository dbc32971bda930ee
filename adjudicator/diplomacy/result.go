package diplomacy

import (
	"strings"

	"pbemd/orders"
)

// Outcome of one order.
type Outcome string

const (
	Succeeded Outcome = "succeeded" // the order did what it asked
	Failed    Outcome = "failed"    // valid, but beaten: bounced, cut, dislodged, no convoy route
	Invalid   Outcome = "invalid"   // legal but unmatched: support or convoy of an order not given
	Illegal   Outcome = "illegal"   // not allowed: foreign or missing unit, impossible move; the unit holds
)

// PowerOrder is one typed order and the power that gave it.
type PowerOrder struct {
	Power string
	Order orders.Order
}

// OrderResult is what became of one order.
type OrderResult struct {
	Power   string       `json:"power"`
	Order   orders.Order `json:"-"`
	Text    string       `json:"order"` // canonical short form
	Outcome Outcome      `json:"outcome"`
	Reason  string       `json:"reason,omitempty"` // e.g. "bounced with A Mun"
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

// FormatOrder prints an order in the canonical short form agreed with the
// orders package ("A Par - Bur", "F Mao - Spa/nc", "Build F StP/nc").
func (m *Map) FormatOrder(o orders.Order) string {
	var b strings.Builder
	m.formatOrder(&b, o)
	return b.String()
}

func (m *Map) formatOrder(b *strings.Builder, o orders.Order) {
	unit := func(t orders.UnitType, l orders.Location) {
		switch t {
		case orders.Army:
			b.WriteString("A ")
		case orders.Fleet:
			b.WriteString("F ")
		}
		m.writeLoc(b, l)
	}
	switch o.Kind {
	case orders.Waive:
		b.WriteString("Waive")
		return
	case orders.Build:
		b.WriteString("Build ")
		unit(o.Unit, o.Loc)
		return
	}
	unit(o.Unit, o.Loc)
	switch o.Kind {
	case orders.Hold:
		b.WriteString(" H")
	case orders.Move:
		for _, p := range o.Path {
			b.WriteString(" - ")
			m.writeLoc(b, orders.Location{Province: p})
		}
		b.WriteString(" - ")
		m.writeLoc(b, o.Target)
		if o.ViaConvoy && len(o.Path) == 0 {
			b.WriteString(" via convoy")
		}
	case orders.SupportHold:
		b.WriteString(" S ")
		unit(o.AuxUnit, o.Aux)
	case orders.SupportMove:
		b.WriteString(" S ")
		unit(o.AuxUnit, o.Aux)
		b.WriteString(" - ")
		m.writeLoc(b, o.Target)
	case orders.Convoy:
		b.WriteString(" C ")
		unit(o.AuxUnit, o.Aux)
		b.WriteString(" - ")
		m.writeLoc(b, o.Target)
	case orders.Retreat:
		b.WriteString(" R ")
		m.writeLoc(b, o.Target)
	case orders.Disband:
		b.WriteString(" D")
	}
}

func (m *Map) writeLoc(b *strings.Builder, l orders.Location) {
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
	if u.Type == orders.Fleet {
		b.WriteString("F ")
	} else {
		b.WriteString("A ")
	}
	m.writeLoc(&b, u.Loc)
	return b.String()
}

// LocName prints a location as the map abbreviates it ("Spa/nc").
func (m *Map) LocName(l orders.Location) string {
	var b strings.Builder
	m.writeLoc(&b, l)
	return b.String()
}
