package daemon

import (
	"slices"
	"strings"

	"pbemd/adjudicator"
	"pbemd/store"
)

// prefsRead echoes the preference ranking a JOIN was read as, in the
// game's power names, so a player sees at once what a typo became.
func prefsRead(g *store.Game, prefs []string) string {
	if len(prefs) == 0 {
		return "You ranked no powers: any power will do."
	}
	names := make([]string, len(prefs))
	for i, p := range prefs {
		names[i] = powerName(g, p)
	}
	return "I read your preference as: " + strings.Join(names, " > ") + "."
}

// overNote answers the orders (or other lines that are not commands) a
// player sends to a game that has ended, in one sentence with the result
// the store keeps; it reports whether it did.
func (mc *mailCtx) overNote(notCommands bool) bool {
	g := mc.game
	if !notCommands || g == nil || g.Status != store.Finished || mc.player == nil {
		return false
	}
	if r := resultLine(g); r != "" {
		mc.say("The game %s is over (%s); orders are no longer read.", g.Name, r)
	} else {
		mc.say("The game %s is over; orders are no longer read.", g.Name)
	}
	return true
}

// resultLine is how a game ended, in its power names: "solo: Rome won",
// "draw: Rome, Greece" ("" when the store has no result).
func resultLine(g *store.Game) string {
	names := make([]string, len(g.Winners))
	for i, w := range g.Winners {
		names[i] = powerName(g, w)
	}
	switch {
	case g.EndedAs == "":
		return ""
	case g.EndedAs == "solo" && len(names) == 1:
		return "solo: " + names[0] + " won"
	case len(names) == 0:
		return g.EndedAs
	}
	return g.EndedAs + ": " + strings.Join(names, ", ")
}

// owesNothing tells a power that has nothing to order in a retreat or
// build phase so, instead of storing orders the engine would not use; it
// reports whether it did. Who owes orders is the engine's word
// (Status.Waiting, kept as g.Waiting).
func (mc *mailCtx) owesNothing() bool {
	g, power := mc.game, mc.player.Power
	var what string
	switch adjudicator.PhaseKind(g.PhaseKind) {
	case adjudicator.PhaseRetreat:
		what = "retreats to make"
	case adjudicator.PhaseBuild:
		what = "builds or disbands to make"
	default:
		return false
	}
	if slices.Contains(g.Waiting, power) {
		return false
	}
	mc.say("%s owes no orders in %s: it has no %s, so nothing was stored. Your next orders are for the phase after this one.",
		powerName(g, power), g.PhaseTitle, what)
	return true
}
