package diplomacy

import (
	"fmt"
	"strconv"
	"strings"
)

// The game's calendar: which year each turn is written in, and how a
// phase is named. A map without `year-step` keeps the classical calendar
// (Spring and Fall of one year, then Winter's adjustments of that year);
// with `year-step N` every movement turn is written N years after the one
// before, the adjustments take the year of the turn they follow, and
// phases are named by year alone — Hundred's "1425 Movement", "1430
// Movement", "1430 Adjustments", "1435 Movement" (the variant's rules:
// Spring and Fall are renamed to years ending in 5 and 0).

// fallYear is the year of the Fall turn after the Spring turn of year y.
func (m *Map) fallYear(y int) int { return y + m.YearStep }

// springYear is the year of the Spring turn after the Fall turn (or the
// Winter adjustments) of year y.
func (m *Map) springYear(y int) int { return y + max(m.YearStep, 1) }

// winterBefore is the year of the Winter adjustments before the first
// Spring turn (a map that opens with builds: Chaos).
func (m *Map) winterBefore() int { return m.StartYear - max(m.YearStep, 1) }

// turnName names the turn of phase p as players read it: "Spring 1901",
// "Fall 451 AUC", or the year alone under a year step ("1430").
func (m *Map) turnName(p Phase) string {
	if m.YearStep > 0 {
		return m.YearName(p.Year)
	}
	return p.Season.String() + " " + m.YearName(p.Year)
}

// PhaseTitle names a phase as players read it: "Spring 1901 Movement",
// "Fall 451 AUC Retreats", "Winter 1901 Adjustments"; under a year step
// "1430 Movement", "1430 Adjustments".
func (m *Map) PhaseTitle(p Phase) string {
	return m.turnName(p) + " " + p.Type.String()
}

// YearName writes a game year as the map prints it ("1901", "451 AUC").
func (m *Map) YearName(year int) string {
	if m.YearSuffix == "" {
		return strconv.Itoa(year)
	}
	return strconv.Itoa(year) + " " + m.YearSuffix
}

// directiveRules is what RULES says of the calendar, the extra start
// units and the build rule a map's directives set ("" when it sets none).
func (m *Map) directiveRules() string {
	var out string
	if m.YearStep > 0 {
		first := Phase{Spring, m.StartYear, Movement}
		second := Phase{Fall, m.fallYear(m.StartYear), Movement}
		out += fmt.Sprintf("Years go by %d: each movement turn is %d years after the one before, and a\n"+
			"  phase is named by its year alone: %s, then %s and\n"+
			"  %s, then %s.",
			m.YearStep, m.YearStep, m.PhaseTitle(first), m.PhaseTitle(second),
			m.PhaseTitle(Phase{Winter, second.Year, Adjustments}), m.PhaseTitle(Phase{Spring, m.springYear(second.Year), Movement}))
	}
	for pw, p := range m.Powers {
		var off []string
		n := 0
		for _, u := range m.Start {
			if u.Power != p.ID {
				continue
			}
			n++
			if pr, _ := m.Province(u.Loc.Province); pr.Home != p.ID {
				off = append(off, m.UnitName(u))
			}
		}
		if len(off) > 0 && !m.WinterStart {
			if out != "" {
				out += "\n- "
			}
			out += fmt.Sprintf("%s starts with %d units on %d home centres (%s off them), so it\n"+
				"  disbands at the first adjustments unless it gains a centre.", p.Name, n, len(m.homes[pw]), strings.Join(off, ", "))
		}
	}
	if m.BuildAnywhere {
		if out != "" {
			out += "\n- "
		}
		out += "Builds are made in any vacant supply centre the power owns, not only in\n  its home centres."
	}
	return out
}

// GameYear counts the game years (each a Spring and a Fall turn and their
// adjustments) played before phase p: 0 in the first, whatever the
// calendar writes (Spring 1902 and Hundred's 1435 Movement are both 1).
func (m *Map) GameYear(p Phase) int {
	if m.YearStep > 0 {
		return (p.Year - m.StartYear) / (2 * m.YearStep)
	}
	return p.Year - m.StartYear
}
