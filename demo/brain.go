package demo

import (
	"math/rand/v2"
	"strings"

	"pbemd/adjudicator/diplomacy"
	"pbemd/orders"
)

// A scripted player's brain: it takes its power's share of a random legal
// order set drawn for the whole board, and spoils a few lines the way
// people do: a province nobody has heard of, a move the rules forbid, a
// misspelt province the parser can still read. It knows the orders it
// meant, so the demo can check that the daemon stored exactly what the
// mail said.

// planLine is one line of an order mail.
type planLine struct {
	text      string // as written in the mail
	canonical string // what the daemon should store for it ("" when unreadable)
	unit      string // province of the ordered unit ("" for builds and waives)
	meant     string // for a misorder: the canonical order the player meant
}

// plan is one player's orders for one phase.
type plan struct {
	lines                     []planLine
	typo, unknown, impossible bool
}

// text is the mail body: a comment line, the orders, a signature.
func (p *plan) text(power, title, signature string) string {
	var b strings.Builder
	b.WriteString("# " + power + ", " + title + "\n")
	for _, l := range p.lines {
		b.WriteString(l.text + "\n")
	}
	b.WriteString("\n-- \n" + signature + "\n")
	return b.String()
}

// canonical lists what the daemon should store for the mail, in order.
func (p *plan) canonical() []string {
	var out []string
	for _, l := range p.lines {
		if l.canonical != "" {
			out = append(out, l.canonical)
		}
	}
	return out
}

// correction is the plan of a second mail that puts right the misorders
// of p: the orders the player meant for the units it spoilt.
func (p *plan) correction() *plan {
	var c plan
	for _, l := range p.lines {
		if l.meant != "" {
			c.lines = append(c.lines, planLine{text: l.meant, canonical: l.meant, unit: l.unit})
		}
	}
	if len(c.lines) == 0 {
		return nil
	}
	return &c
}

// merge is what stands after a correction in a movement or retreat phase:
// a newer order for a unit replaces the standing one, the others stay (the
// engine's documented Merge).
func merge(standing, newer *plan) []string {
	replaced := map[string]bool{}
	for _, l := range newer.lines {
		replaced[l.unit] = true
	}
	var out []string
	for _, l := range standing.lines {
		if l.canonical != "" && !replaced[l.unit] {
			out = append(out, l.canonical)
		}
	}
	return append(out, newer.canonical()...)
}

// names that are no province on any map
var nowhere = []string{"Xanadu", "Atlantis", "Lemuria", "Hyperborea"}

// planOrders writes the mail of one power whose orders are mine. Misorders
// are drawn from r in movement phases only.
func planOrders(m *diplomacy.Map, pos *diplomacy.Position, mine []diplomacy.Order, r *rand.Rand) *plan {
	p := &plan{}
	for _, o := range mine {
		c := m.FormatOrder(o)
		p.lines = append(p.lines, planLine{text: c, canonical: c, unit: strings.ToLower(o.Loc.Province)})
	}
	if pos.Phase.Type != diplomacy.Movement || len(p.lines) == 0 {
		return p
	}
	opts := diplomacy.ParseOptions{Lexicon: m.Lexicon(), Position: pos, Phase: diplomacy.MovementPhase}
	spoilt := map[int]bool{}
	pick := func() int {
		k := r.IntN(len(p.lines))
		if spoilt[k] {
			return -1
		}
		spoilt[k] = true
		return k
	}
	// A province nobody has heard of: the line is not understood, the
	// unit has no order. Only with two orders or more, so the mail still
	// carries orders.
	if len(p.lines) >= 2 && r.IntN(6) == 0 {
		if k := pick(); k >= 0 {
			o := mine[k]
			text := unitText(m, o) + " - " + nowhere[r.IntN(len(nowhere))]
			if _, _, err := diplomacy.ParseOrder(text, opts); err != nil {
				l := &p.lines[k]
				l.meant, l.text, l.canonical = l.canonical, text, ""
				p.unknown = true
			}
		}
	}
	// A move the rules forbid (an army to sea, a fleet inland): stored as
	// written, it fails at the deadline and the unit holds.
	if r.IntN(6) == 0 {
		if k := pick(); k >= 0 {
			o := mine[k]
			want := diplomacy.Sea
			if o.Unit == diplomacy.Fleet {
				want = diplomacy.Land
			}
			var targets []string
			for _, pr := range m.Provinces {
				if pr.Kind == want {
					targets = append(targets, pr.ID)
				}
			}
			if len(targets) > 0 {
				bad := diplomacy.Order{Kind: diplomacy.Move, Unit: o.Unit, Loc: o.Loc, Target: diplomacy.Location{Province: targets[r.IntN(len(targets))]}}
				l := &p.lines[k]
				l.meant = l.canonical
				l.text = m.FormatOrder(bad)
				l.canonical = l.text
				p.impossible = true
			}
		}
	}
	// A misspelt destination the parser reads with a warning.
	if r.IntN(4) == 0 {
		var moves []int
		for k, o := range mine {
			if !spoilt[k] && o.Kind == diplomacy.Move && o.Target.Coast == "" && !o.ViaConvoy {
				moves = append(moves, k)
			}
		}
		if len(moves) > 0 {
			k := moves[r.IntN(len(moves))]
			if text, ok := misspell(m, mine[k], opts, r); ok {
				p.lines[k].text = text
				p.typo = true
			}
		}
	}
	return p
}

// unitText is "A Rom" for the unit an order is given to.
func unitText(m *diplomacy.Map, o diplomacy.Order) string {
	return m.UnitName(diplomacy.Unit{Type: o.Unit, Loc: o.Loc})
}

// misspell writes a move with its destination's full name missing one
// letter ("A Rom - Neapols"), if the parser reads that back as the same
// order with a warning.
func misspell(m *diplomacy.Map, o diplomacy.Order, opts diplomacy.ParseOptions, r *rand.Rand) (string, bool) {
	pr, ok := m.Province(o.Target.Province)
	if !ok {
		return "", false
	}
	name := pr.Full
	var at []int
	for i := 1; i < len(name); i++ {
		if c := name[i]; c >= 'a' && c <= 'z' && name[i-1] != ' ' {
			at = append(at, i)
		}
	}
	if len(name) < 6 || len(at) == 0 {
		return "", false
	}
	r.Shuffle(len(at), func(i, j int) { at[i], at[j] = at[j], at[i] })
	want := m.FormatOrder(o)
	for _, i := range at[:min(3, len(at))] {
		text := unitText(m, o) + " - " + name[:i] + name[i+1:]
		got, diags, err := diplomacy.ParseOrder(text, opts)
		if err != nil || m.FormatOrder(got) != want {
			continue
		}
		for _, d := range diags {
			if d.Severity == orders.Warning {
				return text, true
			}
		}
	}
	return "", false
}
