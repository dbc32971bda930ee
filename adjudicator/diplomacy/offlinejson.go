package diplomacy

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// appendJSON appends out as encoding/json's Encoder writes it with
// SetIndent("", "  "), byte for byte, its newline included
// (TestOfflineJSONAsEncoder). It is written out rather than reflected
// because `pbemd adjudicate` is one process per phase: there the
// reflection (each type's fields and encoder, built at their first use)
// was most of what writing the outcome cost.
func (out *offlineOut) appendJSON(b []byte) []byte {
	w := jsonWriter{b: b}
	w.open('{')
	if out.Phase != nil {
		w.key("phase")
		w.phase(out.Phase)
	}
	w.key("results")
	if out.Results == nil {
		w.null()
	} else {
		w.open('[')
		for _, r := range out.Results {
			w.elem()
			w.open('{')
			w.key("power")
			w.string(r.Power)
			w.key("order")
			w.string(r.Order)
			w.key("outcome")
			w.string(r.Outcome.String())
			if r.Reason != "" {
				w.key("reason")
				w.string(r.Reason)
			}
			w.close('}')
		}
		w.close(']')
	}
	if len(out.Standoffs) > 0 {
		w.key("standoffs")
		w.strings(out.Standoffs)
	}
	w.key("next")
	if out.Next == nil {
		w.null()
	} else {
		w.position(out.Next)
	}
	w.key("winner")
	w.string(out.Winner)
	w.close('}')
	return append(w.b, '\n')
}

// jsonWriter appends indented JSON: an object's or array's first member
// opens a new line, every member stands on its own line two spaces in
// per level, and an empty one stays "{}" or "[]".
type jsonWriter struct {
	b     []byte
	depth int
	some  uint64 // bit d: the object or array at depth d has a member
}

func (w *jsonWriter) open(c byte) {
	w.b = append(w.b, c)
	w.depth++
	w.some &^= 1 << w.depth
}

func (w *jsonWriter) close(c byte) {
	some := w.some&(1<<w.depth) != 0
	w.depth--
	if some {
		w.newline()
	}
	w.b = append(w.b, c)
}

// elem starts an array's member.
func (w *jsonWriter) elem() {
	if w.some&(1<<w.depth) != 0 {
		w.b = append(w.b, ',')
	}
	w.some |= 1 << w.depth
	w.newline()
}

// key starts an object's member.
func (w *jsonWriter) key(k string) {
	w.elem()
	w.string(k)
	w.b = append(w.b, ':', ' ')
}

func (w *jsonWriter) newline() {
	w.b = append(w.b, '\n')
	for range w.depth {
		w.b = append(w.b, ' ', ' ')
	}
}

func (w *jsonWriter) null() { w.b = append(w.b, "null"...) }

func (w *jsonWriter) phase(p *jsonPhase) {
	w.open('{')
	w.key("season")
	w.string(p.Season)
	w.key("year")
	w.b = strconv.AppendInt(w.b, int64(p.Year), 10)
	w.key("type")
	w.string(p.Type)
	w.close('}')
}

func (w *jsonWriter) position(j *jsonPosition) {
	w.open('{')
	if j.Version != 0 {
		w.key("version")
		w.b = strconv.AppendInt(w.b, int64(j.Version), 10)
	}
	w.key("variant")
	w.string(j.Variant)
	if j.Phase != nil {
		w.key("phase")
		w.phase(j.Phase)
	}
	w.key("units")
	w.units(j.Units)
	if len(j.Dislodged) > 0 {
		w.key("dislodged")
		w.units(j.Dislodged)
	}
	if len(j.Standoffs) > 0 {
		w.key("standoffs")
		w.strings(j.Standoffs)
	}
	w.key("supply_centers")
	if j.SupplyCenters == nil {
		w.null()
	} else {
		keys := make([]string, 0, len(j.SupplyCenters))
		for k := range j.SupplyCenters {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		w.open('{')
		for _, k := range keys {
			w.key(k)
			w.string(j.SupplyCenters[k])
		}
		w.close('}')
	}
	if j.Over {
		w.key("over")
		w.b = append(w.b, "true"...)
	}
	if len(j.Winners) > 0 {
		w.key("winners")
		w.strings(j.Winners)
	}
	w.close('}')
}

func (w *jsonWriter) units(us []jsonUnit) {
	if us == nil {
		w.null()
		return
	}
	w.open('[')
	for _, u := range us {
		w.elem()
		w.open('{')
		w.key("power")
		w.string(u.Power)
		w.key("type")
		w.string(u.Type)
		w.key("province")
		w.string(u.Province)
		if u.Coast != "" {
			w.key("coast")
			w.string(u.Coast)
		}
		if u.AttackerFrom != "" {
			w.key("attacker_from")
			w.string(u.AttackerFrom)
		}
		if u.ByConvoy {
			w.key("by_convoy")
			w.b = append(w.b, "true"...)
		}
		if len(u.Options) > 0 {
			w.key("retreat_options")
			w.strings(u.Options)
		}
		w.close('}')
	}
	w.close(']')
}

func (w *jsonWriter) strings(ss []string) {
	if ss == nil {
		w.null()
		return
	}
	w.open('[')
	for _, s := range ss {
		w.elem()
		w.string(s)
	}
	w.close(']')
}

// string appends s quoted as encoding/json quotes it by default: `"` and
// `\` escaped, control characters as \b \f \n \r \t or \u00XX, "<", ">"
// and "&" as \u003c \u003e \u0026, U+2028 and U+2029 as \u2028 and
// \u2029, an invalid UTF-8 byte as \ufffd.
func (w *jsonWriter) string(s string) {
	const hex = "0123456789abcdef"
	b := append(w.b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	w.b = append(b, '"')
}
