package daemon

import (
	"strings"

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
