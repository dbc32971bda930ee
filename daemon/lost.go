package daemon

import (
	"fmt"
	"slices"
	"strings"

	"pbemd/store"
)

// The seed (diplomacy-ancient-mediterranean.txt, press and diplomats):
// "Players who have lost their Great Power may become diplomats for a
// different Great Power that is still alive (they will be given the lowest
// seniority however, and will still count as having "lost" the game at the
// end)." A player who moved so (their old record left as LeftMoved, by
// JOIN … as junior or by taking an open seat) shares no win: the game-over
// mail says so, the prize passes them by, and first_pick=previous does not
// count them among the winners.

// lostPower is the power addr lost earlier in g before playing another
// ("" when they never moved).
func lostPower(g *store.Game, addr string) string {
	for _, p := range g.Players {
		if p.Address == addr && p.Left && p.LeftHow == store.LeftMoved {
			return p.Power
		}
	}
	return ""
}

// lostNote is the game-over mail's word on the diplomats of the winning
// powers who had lost a power before ("" when there are none).
func lostNote(g *store.Game, winners []string) string {
	var who []string
	for _, p := range g.Players {
		if p.Left || p.Power == "" || !slices.Contains(winners, p.Power) {
			continue
		}
		if lost := lostPower(g, p.Address); lost != "" {
			who = append(who, fmt.Sprintf("%s (a diplomat of %s, who lost %s earlier)", p.Address, powerName(g, p.Power), powerName(g, lost)))
		}
	}
	if len(who) == 0 {
		return ""
	}
	return "Counted as having lost, as the rules say of a player who lost a power and then served another: " + strings.Join(who, ", ") + ".\n"
}
