package demo

import (
	"encoding/json"
	"fmt"
	"strings"

	"pbemd/adjudicator/diplomacy"
	"pbemd/store"
)

// line is the one line printed for a processed phase: its id and title,
// every power's supply centres after it, and what happened:
//
//	S451M  Spring 451 AUC Movement     Car  4  Egy  5  Gre  3  Per  4  Rom  5  | 21 orders, 2 misorders, 1 corrected, 1 typo read, 1 dislodged; Persia forgot
func (d *driver) line(ph *Phase, rec *store.PhaseRecord, mails []written, corrected int) (string, error) {
	var rd diplomacy.ResultData
	if err := json.Unmarshal(rec.Data, &rd); err != nil {
		return "", fmt.Errorf("%s: result data: %w", ph.Title, err)
	}
	st, err := d.e.Status(rec.StateAfter)
	if err != nil {
		return "", err
	}
	before, err := d.e.Position(rec.StateBefore)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-6s %-26s", ph.ID, ph.Title)
	for _, p := range d.m.Powers {
		if n, ok := st.Scores[p.ID]; ok {
			fmt.Fprintf(&b, "  %.3s %2d", p.Name, n)
		} else {
			fmt.Fprintf(&b, "  %.3s  -", p.Name)
		}
	}
	var events []string
	add := func(n int, one, many string) {
		switch {
		case n == 1:
			events = append(events, "1 "+one)
		case n > 1:
			events = append(events, fmt.Sprintf("%d %s", n, many))
		}
	}
	switch before.Phase.Type {
	case diplomacy.Movement:
		stored, misorders, typos := 0, 0, 0
		for _, o := range rec.Orders {
			stored += len(o)
		}
		for _, w := range mails {
			if w.plan.unknown {
				misorders++
			}
			if w.plan.impossible {
				misorders++
			}
			if w.plan.typo {
				typos++
			}
		}
		events = append(events, fmt.Sprintf("%d orders", stored))
		add(misorders, "misorder", "misorders")
		add(corrected, "corrected", "corrected")
		add(typos, "typo read", "typos read")
		add(len(rd.Dislodged), "dislodged", "dislodged")
	case diplomacy.Retreats:
		retreats := 0
		for _, o := range rd.Orders {
			if o.Outcome == diplomacy.Succeeded && strings.Contains(o.Text, " R ") {
				retreats++
			}
		}
		add(retreats, "retreat", "retreats")
		add(len(rd.Disbanded), "disbanded", "disbanded")
	case diplomacy.Adjustments:
		built := map[string]int{}
		for _, u := range rd.Built {
			built[u.Power]++
		}
		waived := 0
		for p, n := range diplomacy.Owed(before) {
			if n > 0 {
				waived += n - built[p]
			}
		}
		add(len(rd.Built), "built", "built")
		add(len(rd.Disbanded), "disbanded", "disbanded")
		add(waived, "waived", "waived")
	}
	if len(events) == 0 {
		events = append(events, "nothing happened")
	}
	fmt.Fprintf(&b, "  | %s", strings.Join(events, ", "))
	var notes []string
	for _, p := range ph.Forgot {
		notes = append(notes, d.m.PowerName(p)+" forgot")
	}
	for _, p := range rd.Eliminated {
		notes = append(notes, d.m.PowerName(p)+" is out")
	}
	if rd.Winner != "" {
		notes = append(notes, fmt.Sprintf("%s WINS with %d centres", d.m.PowerName(rd.Winner), st.Scores[rd.Winner]))
	}
	if len(notes) > 0 {
		fmt.Fprintf(&b, "; %s", strings.Join(notes, ", "))
	}
	return b.String(), nil
}
