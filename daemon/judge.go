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

// maxGameWords caps the words of a mail looked up as game names, and
// maxGameText the bytes split into words (otherGameNote): bounded work per
// mail, however long its text.
const (
	maxGameWords = 400
	maxGameText  = 16 << 10
)

// otherGameNote tells a player whose mail was read for one game (the
// game of the mail it replied to, or of its SIGNON) but names another
// game they play in, which game it was read for: a player in two games
// who answers the wrong mail learns it before the deadline, not after.
func (mc *mailCtx) otherGameNote() error {
	g := mc.game
	if g == nil || mc.player == nil {
		return nil
	}
	seen := map[string]bool{g.Name: true}
	var others []string
	text := mc.in.Subject + "\n" + mc.in.Text
	if len(text) > maxGameText {
		text = text[:maxGameText]
	}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' && r != '_'
	})
	for i, w := range words {
		if i >= maxGameWords {
			break
		}
		w = strings.Trim(w, "-_")
		// Short words are unit types and orders ("a", "f", "h") far more
		// often than game names, unless they have a digit ("g2").
		if len(w) < 3 && !strings.ContainsAny(w, "0123456789") || len(w) > 32 || seen[w] {
			continue
		}
		seen[w] = true
		if !mc.tx.HasGame(w) {
			continue
		}
		other, err := mc.tx.Game(w)
		if err != nil {
			return err
		}
		if p := findPlayer(other, mc.player.Address); p != nil && !p.Left {
			others = append(others, other.Name)
		}
	}
	if len(others) == 0 {
		return nil
	}
	how := "it came as a reply to a mail about " + g.Name
	if mc.authBy == "password" {
		how = "it signed on to " + g.Name
	}
	mc.say("I read this mail for the game %s (%s), though it names %s, where you play too. For %s, reply to a mail I sent you about it, or start with SIGNON <power> <game> <password>.",
		g.Name, how, strings.Join(others, ", "), strings.Join(others, ", "))
	return nil
}

// positionText ends the public results of a phase (every results mail,
// and HISTORY) when the engine declares its Status.Summary a short
// position (Info.SummaryInResults: units and centres per power), from the
// Status the daemon reads after resolving anyway; "" elsewhere.
func positionText(e adjudicator.Engine, st adjudicator.Status) string {
	if !e.Info().SummaryInResults || strings.TrimSpace(st.Summary) == "" {
		return ""
	}
	return "\n--- the position now ---\n" + strings.TrimRight(st.Summary, "\n") + "\n"
}
