package supplychain

import (
	"fmt"
	"strconv"
	"strings"

	"pbemd/adjudicator"
)

var _ adjudicator.Setuper = (*Engine)(nil)

// Setup implements adjudicator.Setuper: players=N picks the competitive
// preset with N seats when there is one (supplychain-2, -3, -5, -6; those
// names stay as aliases) — else a preset with more seats plays fewer, as
// before — and the options are checked without dealing a game.
func (e *Engine) Setup(options map[string]string) (adjudicator.Setup, error) {
	pick := e
	rest := map[string]string{}
	for k, v := range options {
		rest[strings.ToLower(k)] = v
	}
	if v, ok := rest["players"]; ok && !e.opt.Solo && !e.opt.Coop {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return adjudicator.Setup{}, fmt.Errorf("supplychain: option players=%q is not a number", v)
		}
		for i := range presets {
			if p := &presets[i]; p.opt.Players == n && !p.opt.Solo && !p.opt.Coop {
				pick, _ = NewEngine(p.name)
				delete(rest, "players")
				break
			}
		}
	}
	opt, err := pick.options(rest)
	if err != nil {
		return adjudicator.Setup{}, err
	}
	if _, err := DeckByName(opt.Deck); err != nil {
		return adjudicator.Setup{}, err
	}
	return adjudicator.Setup{Engine: pick.name, Options: rest}, nil
}
