package empire

import (
	"fmt"
	"strconv"
	"strings"

	"pbemd/adjudicator"
)

var _ adjudicator.Setuper = (*Engine)(nil)

// Setup implements adjudicator.Setuper: players=N picks the engine with N
// seats (empire2, empire3, empire for 4 — empire-random with
// world=generated — and empire5 to empire8 on generated worlds; those
// names stay as aliases), and the other options are checked against it
// without building the world.
func (e *Engine) Setup(options map[string]string) (adjudicator.Setup, error) {
	pick := e
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
			return adjudicator.Setup{}, fmt.Errorf("empire: option players=%q is not a number", players)
		}
		if n != e.players {
			pick = nil
			world := strings.ToLower(strings.TrimSpace(rest["world"]))
			for _, p := range presets {
				if p.players != n {
					continue
				}
				if pick == nil || world != "" && p.preset["world"] == world {
					pick = p
				}
			}
			if pick == nil {
				return adjudicator.Setup{}, fmt.Errorf("empire: no variant for %d players (2 to 8)", n)
			}
		}
	}
	o := defaultOptions(pick.players)
	merged := map[string]string{}
	for k, v := range pick.preset {
		merged[k] = v
	}
	for k, v := range rest {
		merged[k] = v
	}
	if err := o.apply(merged); err != nil {
		return adjudicator.Setup{}, fmt.Errorf("empire: %w", err)
	}
	if o.World != "generated" {
		sc, err := DefaultScenario()
		if err != nil {
			return adjudicator.Setup{}, err
		}
		if sc.Worlds[o.World] == nil {
			return adjudicator.Setup{}, fmt.Errorf("empire: unknown world %q (known: %s, generated)", o.World, strings.Join(sortedKeys(sc.Worlds), ", "))
		}
		if len(sc.Seats[o.World][o.Players]) == 0 {
			return adjudicator.Setup{}, fmt.Errorf("empire: the world %s has no seats for %d players: add world=generated", o.World, o.Players)
		}
	}
	return adjudicator.Setup{Engine: pick.name, Options: rest}, nil
}
