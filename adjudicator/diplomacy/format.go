package diplomacy

import "pbemd/orders"

// Format prints o in the canonical short form the engine stores and the
// daemon shows: "A Par - Bur", "F Mao - Spa/nc",
// "A Tyr S A Ven - Tri", "F Nth C A Lon - Bel", "A Lon - Nth - Bel",
// "A Par R Bur", "A Par D", "Build F StP/nc", "Waive". Provinces are printed
// with their map abbreviation (falling back to the id); an omitted unit type
// (NoUnit) prints no letter. Power is not printed. lex may be nil.
func Format(o Order, lex *Lexicon) string {
	var buf [48]byte
	return string(AppendFormat(buf[:0], o, lex))
}

// AppendFormat appends the canonical short form of o (see Format) to dst
// and returns the extended slice: an engine that prints many orders at once
// writes them into one buffer.
func AppendFormat(dst []byte, o Order, lex *Lexicon) []byte {
	if lex == nil {
		return appendOrder(dst, o, nil)
	}
	prov := lex.provinces
	if prov == nil {
		prov, _, _ = lex.index()
	}
	return appendOrder(dst, o, prov)
}

// Abbreviations tell how provinces are printed: Abbrev returns the
// abbreviation of a province id, false when it knows none (the id is
// printed then). A prepared lexicon's provinces (*orders.Names) are one; a
// map's own faster index is another.
type Abbreviations interface {
	Abbrev(id string) (string, bool)
}

// AppendFormatAbbrev is AppendFormat with the provinces printed as a
// says; a nil a prints ids.
func AppendFormatAbbrev(dst []byte, o Order, a Abbreviations) []byte {
	return appendOrder(dst, o, a)
}

func format(o Order, prov *orders.Names) string {
	var buf [48]byte
	return string(appendOrder(buf[:0], o, prov))
}

// appendLoc appends a location: the province's abbreviation (its id when
// prov is nil or does not know it), then "/coast".
func appendLoc(b []byte, l Location, prov Abbreviations) []byte {
	s := l.Province
	if prov != nil {
		if a, ok := prov.Abbrev(l.Province); ok {
			s = a
		}
	}
	b = append(b, s...)
	if l.Coast != "" {
		b = append(b, '/')
		b = append(b, l.Coast...)
	}
	return b
}

func appendUnit(b []byte, u UnitType, l Location, prov Abbreviations) []byte {
	switch u {
	case Army:
		b = append(b, "A "...)
	case Fleet:
		b = append(b, "F "...)
	}
	return appendLoc(b, l, prov)
}

func appendOrder(b []byte, o Order, prov Abbreviations) []byte {
	switch o.Kind {
	case Waive:
		return append(b, "Waive"...)
	case Build:
		b = append(b, "Build "...)
		return appendUnit(b, o.Unit, o.Loc, prov)
	}
	b = appendUnit(b, o.Unit, o.Loc, prov)
	switch o.Kind {
	case Hold:
		b = append(b, " H"...)
	case Move:
		b = append(b, " - "...)
		for _, p := range o.Path {
			b = appendLoc(b, Location{Province: p}, prov)
			b = append(b, " - "...)
		}
		b = appendLoc(b, o.Target, prov)
		if o.ViaConvoy {
			b = append(b, " via convoy"...)
		}
	case SupportHold:
		b = append(b, " S "...)
		b = appendUnit(b, o.AuxUnit, o.Aux, prov)
	case SupportMove:
		b = append(b, " S "...)
		b = appendUnit(b, o.AuxUnit, o.Aux, prov)
		b = append(b, " - "...)
		b = appendLoc(b, o.Target, prov)
	case Convoy:
		b = append(b, " C "...)
		b = appendUnit(b, o.AuxUnit, o.Aux, prov)
		b = append(b, " - "...)
		b = appendLoc(b, o.Target, prov)
	case Retreat:
		b = append(b, " R "...)
		b = appendLoc(b, o.Target, prov)
	case Disband:
		b = append(b, " D"...)
	default:
		b = append(b, " ?"...)
	}
	return b
}
