package orders

import "strings"

// Format prints o in the canonical short form both the daemon and the
// engines store (see canonical.md): "A Par - Bur", "F Mao - Spa/nc",
// "A Tyr S A Ven - Tri", "F Nth C A Lon - Bel", "A Lon - Nth - Bel",
// "A Par R Bur", "A Par D", "Build F StP/nc", "Waive". Provinces are printed
// with their map abbreviation (falling back to the id); an omitted unit type
// (NoUnit) prints no letter. Power is not printed. lex may be nil.
func Format(o Order, lex *Lexicon) string {
	var prov *Names
	if lex != nil {
		prov = lex.provinces
		if prov == nil {
			prov, _, _ = lex.index()
		}
	}
	return format(o, prov)
}

func format(o Order, prov *Names) string {
	var b strings.Builder
	b.Grow(32)
	loc := func(l Location) {
		s := l.Province
		if prov != nil {
			if n, ok := prov.Get(l.Province); ok {
				s = abbrevOf(n)
			}
		}
		b.WriteString(s)
		if l.Coast != "" {
			b.WriteByte('/')
			b.WriteString(l.Coast)
		}
	}
	unit := func(u UnitType, l Location) {
		switch u {
		case Army:
			b.WriteString("A ")
		case Fleet:
			b.WriteString("F ")
		}
		loc(l)
	}
	switch o.Kind {
	case Waive:
		return "Waive"
	case Build:
		b.WriteString("Build ")
		unit(o.Unit, o.Loc)
		return b.String()
	}
	unit(o.Unit, o.Loc)
	switch o.Kind {
	case Hold:
		b.WriteString(" H")
	case Move:
		b.WriteString(" - ")
		for _, p := range o.Path {
			loc(Location{Province: p})
			b.WriteString(" - ")
		}
		loc(o.Target)
		if o.ViaConvoy {
			b.WriteString(" via convoy")
		}
	case SupportHold:
		b.WriteString(" S ")
		unit(o.AuxUnit, o.Aux)
	case SupportMove:
		b.WriteString(" S ")
		unit(o.AuxUnit, o.Aux)
		b.WriteString(" - ")
		loc(o.Target)
	case Convoy:
		b.WriteString(" C ")
		unit(o.AuxUnit, o.Aux)
		b.WriteString(" - ")
		loc(o.Target)
	case Retreat:
		b.WriteString(" R ")
		loc(o.Target)
	case Disband:
		b.WriteString(" D")
	default:
		b.WriteString(" ?")
	}
	return b.String()
}
