package diplomacy

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Brief is adjudicator.Briefer: for each power that had a part in a
// processed phase, a line or two of what it did to that power, read from
// the phase's ResultData and the positions around it: how many of its
// orders succeeded and which failed (with the reason), its units
// dislodged, built or disbanded, and the supply centres it gained or
// lost.
func (e *Engine) Brief(before, after, data []byte) (map[string]string, error) {
	var rd ResultData
	if err := json.Unmarshal(data, &rd); err != nil {
		return nil, fmt.Errorf("diplomacy: brief: results: %w", err)
	}
	pb, err := e.Position(before)
	if err != nil {
		return nil, fmt.Errorf("diplomacy: brief: %w", err)
	}
	pa, err := e.Position(after)
	if err != nil {
		return nil, fmt.Errorf("diplomacy: brief: %w", err)
	}
	m := e.m
	out := map[string]string{}
	for _, pw := range m.Powers {
		p := pw.ID
		var lines []string
		var n, ok int
		var failed []string
		for _, r := range rd.Orders {
			if r.Power != p {
				continue
			}
			n++
			if r.Outcome == Succeeded {
				ok++
			} else if len(failed) < 3 {
				f := r.Text + " " + r.Outcome.String()
				if r.Reason != "" {
					f += " (" + r.Reason + ")"
				}
				failed = append(failed, f)
			}
		}
		if n > 0 {
			s := fmt.Sprintf("%d of %s succeeded", ok, plural(n, "order"))
			if len(failed) > 0 {
				s += "; " + strings.Join(failed, "; ")
			}
			lines = append(lines, s+".")
		}
		var units []string
		add := func(what string, us []jsonUnit) {
			var names []string
			for _, u := range us {
				if u.Power == p {
					names = append(names, briefUnit(m, u))
				}
			}
			if len(names) > 0 {
				units = append(units, what+" "+strings.Join(names, ", "))
			}
		}
		add("Dislodged:", rd.Dislodged)
		add("Built:", rd.Built)
		add("Disbanded:", rd.Disbanded)
		if len(units) > 0 {
			lines = append(lines, strings.Join(units, "; ")+".")
		}
		var gained, lost []string
		for _, pr := range m.Provinces {
			was, now := pb.Owners[pr.ID], pa.Owners[pr.ID]
			switch {
			case was != p && now == p:
				gained = append(gained, pr.Abbrev)
			case was == p && now != p:
				lost = append(lost, pr.Abbrev)
			}
		}
		if len(gained)+len(lost) > 0 {
			slices.Sort(gained)
			slices.Sort(lost)
			s := fmt.Sprintf("Supply centres: %d", countOwned(pa, p))
			var ch []string
			if len(gained) > 0 {
				ch = append(ch, "gained "+strings.Join(gained, ", "))
			}
			if len(lost) > 0 {
				ch = append(ch, "lost "+strings.Join(lost, ", "))
			}
			lines = append(lines, s+" ("+strings.Join(ch, "; ")+").")
		}
		if len(lines) > 0 {
			out[p] = strings.Join(lines, "\n") + "\n"
		}
	}
	return out, nil
}

func briefUnit(m *Map, u jsonUnit) string {
	t := "A "
	if u.Type == "fleet" {
		t = "F "
	}
	l := Location{Province: u.Province, Coast: u.Coast}
	return t + m.LocName(l)
}

func countOwned(p *Position, power string) int {
	n := 0
	for _, o := range p.Owners {
		if o == power {
			n++
		}
	}
	return n
}
