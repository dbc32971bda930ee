package daemon

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"pbemd/store"
)

// Seniority history (issue 15 item 5). The seed: "Only the senior diplomat
// of the winning power will receive the actual game prize, however. In the
// event of a country winning that has had more than one senior diplomat,
// the one who has played for the longest amount of time will receive the
// prize." So a game keeps, for each power, who was its senior diplomat
// from when to when (store.SeniorTerm): noteSeniors, called whenever a
// mail has changed a running game, opens a term for each new senior and
// closes the term of one who no longer is; the end of the game closes
// them all. The prize of a power goes to the diplomat with the longest
// time as its senior, all terms added up; a tie goes to the senior at the
// end, then to the one who was senior first.

// noteSeniors brings g's seniority history up to date with its players.
func noteSeniors(g *store.Game, now time.Time) {
	if g.Status != store.Active {
		return
	}
	now = now.UTC()
	open := map[string]int{} // power → index of its open term
	for i, t := range g.Seniors {
		if t.To.IsZero() {
			open[t.Power] = i
		}
	}
	for power, i := range open {
		if seniorOf(g, power) != g.Seniors[i].Address {
			g.Seniors[i].To = now
			delete(open, power)
		}
	}
	for _, p := range g.Players {
		if p.Left || p.Power == "" || p.Rank != 0 {
			continue
		}
		if _, ok := open[p.Power]; ok {
			continue
		}
		open[p.Power] = len(g.Seniors)
		g.Seniors = append(g.Seniors, store.SeniorTerm{Power: p.Power, Address: p.Address, From: now})
	}
}

// closeSeniors ends every open term at the end of the game.
func closeSeniors(g *store.Game, now time.Time) {
	for i := range g.Seniors {
		if g.Seniors[i].To.IsZero() {
			g.Seniors[i].To = now.UTC()
		}
	}
}

// seniorService is one diplomat's time as the senior of a power.
type seniorService struct {
	Address string
	Served  time.Duration
	First   time.Time
}

// seniorsOf adds up each diplomat's terms as senior of power, longest
// first (ties: the senior now, then the earliest).
func seniorsOf(g *store.Game, power string, now time.Time) []seniorService {
	var out []seniorService
	for _, t := range g.Seniors {
		if t.Power != power {
			continue
		}
		to := t.To
		if to.IsZero() {
			to = now
		}
		i := slices.IndexFunc(out, func(s seniorService) bool { return s.Address == t.Address })
		if i < 0 {
			out = append(out, seniorService{Address: t.Address, First: t.From})
			i = len(out) - 1
		}
		out[i].Served += to.Sub(t.From)
	}
	current := seniorOf(g, power)
	slices.SortStableFunc(out, func(a, b seniorService) int {
		switch {
		case a.Served != b.Served:
			return cmp.Compare(b.Served, a.Served)
		case (a.Address == current) != (b.Address == current):
			if a.Address == current {
				return -1
			}
			return 1
		}
		return a.First.Compare(b.First)
	})
	return out
}

// prizeLine names who gets the prize of a power that won alone: its
// senior diplomat, or of several, the longest serving.
func prizeLine(g *store.Game, power string, now time.Time, diplomats bool) string {
	pn := powerName(g, power)
	if !diplomats {
		return fmt.Sprintf("The game's prize goes to the player of %s.\n", pn)
	}
	all := seniorsOf(g, power, now)
	// A senior who had lost a power before counts as having lost (lost.go).
	var lost []string
	all = slices.DeleteFunc(all, func(s seniorService) bool {
		if lostPower(g, s.Address) != "" {
			lost = append(lost, s.Address)
			return true
		}
		return false
	})
	if len(lost) > 0 && len(all) == 0 {
		return fmt.Sprintf("Nobody wins the game's prize: the senior diplomat of %s (%s) had lost a power earlier and counts as having lost.\n", pn, strings.Join(lost, ", "))
	}
	if len(all) <= 1 {
		if len(lost) > 0 {
			return fmt.Sprintf("The game's prize goes to %s, senior diplomat of %s. Not counted, having lost a power earlier: %s.\n", all[0].Address, pn, strings.Join(lost, ", "))
		}
		return fmt.Sprintf("The game's prize goes to the senior diplomat of %s.\n", pn)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s had %d senior diplomats. The game's prize goes to the one who served longest as its senior: %s (%s).\n", pn, len(all), all[0].Address, humanDuration(all[0].Served))
	b.WriteString("Senior diplomats of " + pn + ":\n")
	for _, s := range all {
		fmt.Fprintf(&b, "  %s: %s\n", s.Address, humanDuration(s.Served))
	}
	if len(lost) > 0 {
		fmt.Fprintf(&b, "Not counted, having lost a power earlier: %s.\n", strings.Join(lost, ", "))
	}
	return b.String()
}
