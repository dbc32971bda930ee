package supremacy

import (
	"fmt"
	"strconv"
	"strings"

	"pbemd/adjudicator"
)

var _ adjudicator.Setuper = (*Engine)(nil)

// Setup implements adjudicator.Setuper: players=N picks the preset with N
// superpowers (3, 4, 5, 6 or 8; the names supremacy-3 … stay as aliases),
// and the other options are checked against it without dealing a game.
func (e *Engine) Setup(options map[string]string) (adjudicator.Setup, error) {
	name, defaults := e.name, e.defaults
	rest := map[string]string{}
	players := ""
	for k, v := range options {
		if strings.EqualFold(k, "players") {
			players = v
			continue
		}
		rest[strings.ToLower(k)] = v
	}
	if players != "" {
		n, err := strconv.Atoi(strings.TrimSpace(players))
		if err != nil {
			return adjudicator.Setup{}, fmt.Errorf("supremacy: option players=%q is not a number", players)
		}
		if _, ok := rest["powers"]; ok {
			return adjudicator.Setup{}, fmt.Errorf("supremacy: give players= or powers=, not both")
		}
		found := false
		var counts []string
		for _, p := range Presets {
			c := len(strings.Split(p.Options["powers"], ","))
			counts = append(counts, strconv.Itoa(c))
			if c == n && !found {
				name, defaults, found = p.Name, p.Options, true
			}
		}
		if !found {
			return adjudicator.Setup{}, fmt.Errorf("supremacy: no variant for %d players (choose players=%s, or powers=…)", n, strings.Join(counts, ", "))
		}
	}
	if _, err := parseOptions(defaults, rest); err != nil {
		return adjudicator.Setup{}, fmt.Errorf("supremacy: %w", err)
	}
	return adjudicator.Setup{Engine: name, Options: rest}, nil
}
