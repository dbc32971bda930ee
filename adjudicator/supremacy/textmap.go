package supremacy

import (
	"fmt"
	"sort"
	"strings"

	"pbemd/adjudicator"
)

var _ adjudicator.TextMapper = (*Engine)(nil)

// TextMap implements adjudicator.TextMapper: the scenario's map as text a
// player can write orders from — every area's id and name, home cities,
// companies, who holds it and with what, and its borders (impassable ones
// marked, straits named) — then the choke points. Like the picture it is
// public, the same for every viewer.
func (e *Engine) TextMap(state []byte, viewer string) (string, error) {
	w, err := decodeWorld(state)
	if err != nil {
		return "", err
	}
	return w.textMap(), nil
}

// textWidth is where the text map wraps its lines.
const textWidth = 78

func (w *world) textMap() string {
	sc := w.sc
	var b strings.Builder
	land, seas := 0, 0
	for _, a := range sc.areas {
		if a.sea {
			seas++
		} else {
			land++
		}
	}
	wrap(&b, "", "", fmt.Sprintf("The map of %s — %s.", sc.Title, w.phaseTitle()))
	wrap(&b, "", "", fmt.Sprintf("%d land areas and %d seas. Name an area in orders by its id (the first column) or its name. "+
		"\"x\" before a neighbour marks an impassable border (armies cannot cross it); a choke point's id in brackets after a sea "+
		"marks a strait navies cross only with the permission of the player who controls it.", land, seas))
	b.WriteString("\nLand areas\n")
	for a, ar := range sc.areas {
		if !ar.sea {
			w.areaText(&b, a)
		}
	}
	b.WriteString("\nSeas\n")
	for a, ar := range sc.areas {
		if ar.sea {
			w.areaText(&b, a)
		}
	}
	if len(sc.chokes) > 0 {
		b.WriteString("\nChoke points\n")
		for _, ch := range sc.chokes {
			ctl := "nobody controls it: every navy may pass"
			if i := w.controller(ch.control); i >= 0 {
				ctl = "controlled by " + w.pname(i)
			}
			wrap(&b, fmt.Sprintf("%-10s", ch.ID), "          ", fmt.Sprintf("%s, between %s and %s, from %s (%s): %s", ch.Name,
				sc.areas[ch.seas[0]].ID, sc.areas[ch.seas[1]].ID, sc.areas[ch.control].ID, sc.areas[ch.control].Name, ctl))
		}
	}
	return b.String()
}

// areaText writes one area's entry.
func (w *world) areaText(b *strings.Builder, a int) {
	sc := w.sc
	ar := sc.areas[a]
	head := ar.Name
	if h := ar.home; h >= 0 {
		cities := w.cityList(a)
		if w.byPower[h] >= 0 {
			head += " — home of " + sc.powers[h].Name + " (" + cities + ")"
		} else {
			head += " — cities " + cities
		}
	}
	wrap(b, fmt.Sprintf("%-6s", ar.ID), "      ", head)
	if s := w.holder(a); s != "" {
		wrap(b, "      ", "      ", s)
	}
	var cos []string
	for c, cd := range sc.cards {
		co := cd.company
		if co == nil || co.area != a {
			continue
		}
		var st string
		switch h := w.cardAt[c]; {
		case w.cardDed[c]:
			st = "destroyed"
		case h >= 0:
			st = w.pname(h)
			if w.cardBlk[c] {
				st += ", blockaded"
			}
		case h == cardLoose:
			st = "open to seizure"
		default:
			st = "in the deck"
		}
		where := ""
		if co.city >= 0 {
			where = ", " + ar.Cities[co.city]
		}
		cos = append(cos, fmt.Sprintf("%s %s (%s %d%s; %s)", co.ID, co.Name, co.res, co.Output, where, st))
	}
	if len(cos) > 0 {
		wrap(b, "      companies: ", "        ", strings.Join(cos, ", "))
	}
	var lands, seas []string
	for _, n := range ar.adj {
		id := sc.areas[n].ID
		switch {
		case sc.areas[n].sea:
			if ar.sea {
				if ch := sc.chokeBetween(a, n); ch >= 0 {
					id += " [" + sc.chokes[ch].ID + "]"
				}
			}
			seas = append(seas, id)
		default:
			if !ar.sea && sc.impass[pair(a, n)] {
				id = "x " + id
			}
			lands = append(lands, id)
		}
	}
	byID := func(xs []string) {
		sort.Slice(xs, func(i, j int) bool { return strings.TrimPrefix(xs[i], "x ") < strings.TrimPrefix(xs[j], "x ") })
	}
	byID(lands)
	byID(seas)
	var parts []string
	if len(lands) > 0 {
		parts = append(parts, "land "+strings.Join(lands, ", "))
	}
	if len(seas) > 0 {
		parts = append(parts, "seas "+strings.Join(seas, ", "))
	}
	wrap(b, "      borders: ", "        ", strings.Join(parts, "; "))
}

// cityList names an area's cities, marking destroyed ones.
func (w *world) cityList(a int) string {
	ar := w.sc.areas[a]
	var out []string
	for k, c := range ar.Cities {
		if k < len(w.cities[a]) && w.cities[a][k] {
			c += " (destroyed)"
		}
		out = append(out, c)
	}
	return strings.Join(out, ", ")
}

// holder says who holds an area and with what: a player's armies, the
// navies in a sea, a minor power's bought arms.
func (w *world) holder(a int) string {
	sc := w.sc
	if sc.areas[a].sea {
		var navies []string
		for pi, n := range w.navy[a] {
			if n > 0 {
				navies = append(navies, fmt.Sprintf("%s %d", sc.powers[pi].Name, n))
			}
		}
		if len(navies) == 0 {
			return ""
		}
		s := "navies: " + strings.Join(navies, ", ")
		if i := w.controller(a); i >= 0 {
			s += " (controlled by " + w.pname(i) + ")"
		}
		return s
	}
	if w.dead[a] {
		return "contaminated: out of play"
	}
	var s string
	switch i := w.controller(a); {
	case i >= 0:
		s = "held by " + w.pname(i)
		if n := w.armies(i, a); n > 0 {
			s += ": " + plural(n, "army", "armies")
		} else {
			s += " (no armies)"
		}
	case w.minor(a):
		s = "minor power"
	default:
		s = "held by nobody"
	}
	var arms []string
	if n := w.minorA[a]; n > 0 {
		arms = append(arms, plural(n, "army", "armies"))
	}
	if n := w.minorN[a]; n > 0 {
		arms = append(arms, plural(n, "navy", "navies")+" off its coast")
	}
	if n := w.minorI[a]; n > 0 {
		arms = append(arms, fmt.Sprintf("%d ICBM", n))
	}
	if n := w.minorB[a]; n > 0 {
		arms = append(arms, fmt.Sprintf("%d ABM", n))
	}
	if len(arms) > 0 {
		s += "; the minor power bought " + strings.Join(arms, ", ")
	}
	return s
}

// wrap writes first and then body's words as lines of at most textWidth
// characters (a longer word stands alone), continuation lines starting
// with indent.
func wrap(b *strings.Builder, first, indent, body string) {
	b.WriteString(first)
	line := len([]rune(first))
	fresh := true
	for _, word := range strings.Fields(body) {
		n := len([]rune(word))
		if !fresh && line+1+n > textWidth {
			b.WriteString("\n" + indent)
			line, fresh = len(indent), true
		}
		if !fresh {
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += n
		fresh = false
	}
	b.WriteByte('\n')
}
