package empire

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Options are a game's settings, fixed when it is created and kept in its
// state. Every choice the seed leaves open that players could disagree on is
// one of them.
type Options struct {
	// World is the board: a world of data/worlds.json ("default", "duel")
	// or "generated" for a new board made from the game's seed.
	World string `json:"world"`
	// Width and Height size a generated board (0: by the number of players).
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	// Players is the number of powers (2 to 8; more than 4 on a generated
	// world).
	Players int `json:"players"`
	// Units is the unit set: "all" (every type of the seed) or "reduced".
	Units string `json:"units"`
	// Fog hides what is farther than Fog hexes from a power's units
	// (0: no fog of war, the world board is public as in the seed).
	Fog int `json:"fog"`
	// Retreat enables the seed's optional rule: a unit on the move that is
	// picked to attack may retreat out of one of its hexes instead.
	Retreat bool `json:"retreat"`
	// MaxBid is the largest number of strategic turns a power may bid.
	MaxBid int `json:"max_bid"`
	// MaxTurns ends a tactical phase after this many turns even when some
	// power fights on.
	MaxTurns int `json:"max_turns"`
	// MaxRounds ends the game after the tactical phase of this round.
	MaxRounds int `json:"max_rounds"`
	// SilentCeasefire counts a power that sent no orders in a tactical turn
	// as agreeing to end the tactical phase.
	SilentCeasefire bool `json:"silent_ceasefire"`
}

// defaultOptions are the settings of a game created without options.
func defaultOptions(players int) Options {
	return Options{World: "default", Players: players, Units: "all", MaxBid: 6, MaxTurns: 12, MaxRounds: 8, SilentCeasefire: true}
}

// optionHelp describes the option keys New accepts.
var optionHelp = map[string]string{
	"world":            "default, duel or generated",
	"width":            "columns of a generated world (8 to 26)",
	"height":           "rows of a generated world (6 to 30)",
	"players":          "2 to 8 (5 or more on a generated world)",
	"units":            "all or reduced",
	"fog":              "off, on (1 hex) or a radius in hexes (1 to 5)",
	"retreat":          "on or off",
	"max_bid":          "largest bid of strategic turns (1 to 20)",
	"max_turns":        "tactical turns per tactical phase at most (1 to 99)",
	"max_rounds":       "rounds before the game ends (1 to 98)",
	"silent_ceasefire": "on or off: a power that sends nothing agrees to a ceasefire",
}

func optionKeys() string {
	keys := make([]string, 0, len(optionHelp))
	for k := range optionHelp {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}

// apply sets the options given as text (CREATE keys); unknown keys and bad
// values are errors.
func (o *Options) apply(opts map[string]string) error {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := strings.ToLower(strings.TrimSpace(opts[k]))
		num := func(lo, hi int) (int, error) {
			n, err := strconv.Atoi(v)
			if err != nil || n < lo || n > hi {
				return 0, fmt.Errorf("option %s=%s: want %s", k, opts[k], optionHelp[k])
			}
			return n, nil
		}
		flag := func() (bool, error) {
			switch v {
			case "on", "yes", "true", "1":
				return true, nil
			case "off", "no", "false", "0":
				return false, nil
			}
			return false, fmt.Errorf("option %s=%s: want on or off", k, opts[k])
		}
		var err error
		switch strings.ToLower(k) {
		case "world":
			o.World = v
		case "width":
			o.Width, err = num(8, maxCols)
		case "height":
			o.Height, err = num(6, 30)
		case "players":
			o.Players, err = num(2, len(powerIDs))
		case "units":
			if v != "all" && v != "reduced" {
				err = fmt.Errorf("option units=%s: want all or reduced", opts[k])
			}
			o.Units = v
		case "fog":
			switch v {
			case "off", "no", "0":
				o.Fog = 0
			case "on", "yes":
				o.Fog = 1
			default:
				o.Fog, err = num(1, 5)
			}
		case "retreat":
			o.Retreat, err = flag()
		case "max_bid":
			o.MaxBid, err = num(1, 20)
		case "max_turns":
			o.MaxTurns, err = num(1, 99)
		case "max_rounds":
			o.MaxRounds, err = num(1, 98)
		case "silent_ceasefire":
			o.SilentCeasefire, err = flag()
		default:
			err = fmt.Errorf("unknown option %q (known: %s)", k, optionKeys())
		}
		if err != nil {
			return err
		}
	}
	return o.validate()
}

// validate checks option values (also those read back from a state).
func (o Options) validate() error {
	switch {
	case o.World == "":
		return fmt.Errorf("no world")
	case o.Players < 2 || o.Players > len(powerIDs):
		return fmt.Errorf("players %d: want 2 to %d", o.Players, len(powerIDs))
	case o.Units != "all" && o.Units != "reduced":
		return fmt.Errorf("units %q: want all or reduced", o.Units)
	case o.Fog < 0 || o.Fog > 5:
		return fmt.Errorf("fog %d: want 0 to 5", o.Fog)
	case o.MaxBid < 1 || o.MaxBid > 20:
		return fmt.Errorf("max_bid %d: want 1 to 20", o.MaxBid)
	case o.MaxTurns < 1 || o.MaxTurns > 99:
		return fmt.Errorf("max_turns %d: want 1 to 99", o.MaxTurns)
	case o.MaxRounds < 1 || o.MaxRounds > 98:
		return fmt.Errorf("max_rounds %d: want 1 to 98 (phase ids have two digits)", o.MaxRounds)
	case o.Width != 0 && (o.Width < 8 || o.Width > maxCols), o.Height != 0 && (o.Height < 6 || o.Height > 30):
		return fmt.Errorf("generated world %d×%d: want 8 to %d columns and 6 to 30 rows", o.Width, o.Height, maxCols)
	}
	return nil
}

// describe is the options as players read them in the rules and reports.
func (o Options) describe() string {
	var parts []string
	parts = append(parts, "world "+o.World, fmt.Sprintf("%d players", o.Players), o.Units+" unit types")
	if o.Fog > 0 {
		parts = append(parts, fmt.Sprintf("fog of war (%d hex)", o.Fog))
	} else {
		parts = append(parts, "no fog of war")
	}
	if o.Retreat {
		parts = append(parts, "retreat instead of attack")
	}
	parts = append(parts, fmt.Sprintf("bids up to %d strategic turns", o.MaxBid),
		fmt.Sprintf("at most %d tactical turns per round", o.MaxTurns), fmt.Sprintf("%d rounds", o.MaxRounds))
	if o.SilentCeasefire {
		parts = append(parts, "silence agrees to a ceasefire")
	} else {
		parts = append(parts, "silence does not agree to a ceasefire")
	}
	return strings.Join(parts, ", ")
}
