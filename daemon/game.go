package daemon

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

// What every path asks of a game, the answers to commands and the results
// of a deadline alike: its engine, how its powers and phase are named to a
// reader, who plays what, and how its times are written.

// engineFor finds a game's engine: for a game on a variant added as a
// file, the one made of the text it was created with (New builds those
// of the store's games; CreateGame keeps the text), else the compiled-in
// engine of its name.
func engineFor(g *store.Game) (adjudicator.Engine, error) {
	if g.Map != "" {
		if e, ok := adjudicator.Built(g.Map); ok {
			return e, nil
		}
		return nil, fmt.Errorf("game %s: its map (variant %q, text %.12s…) is not loaded", g.Name, g.Variant, g.Map)
	}
	e, ok := adjudicator.Lookup(g.Variant)
	if !ok {
		return nil, fmt.Errorf("game %s: variant %q is not compiled into this pbemd", g.Name, g.Variant)
	}
	return e, nil
}

// diplomats reports whether g's game lets several players share a power
// (senior and junior diplomats), as its engine declares.
func (d *Daemon) diplomats(g *store.Game) bool {
	e, err := engineFor(g)
	return err == nil && e.Info().Diplomats
}

// infoCache keeps each engine's Info: building one can be costly (the
// Diplomacy engine derives its HELP examples from its map).
var infoCache sync.Map // variant → adjudicator.Info

// powerName is how players read a power id in game g: the name its engine
// gives it (Info.PowerNames: "usa" → "United States"), else the id
// capitalised ("england" → "England").
func powerName(g *store.Game, id string) string {
	if g == nil {
		return titleCase(id)
	}
	key := g.Variant + "@" + g.Map // a variant file's games: one entry per text
	info, ok := infoCache.Load(key)
	if !ok {
		e, err := engineFor(g)
		if err != nil {
			return titleCase(id)
		}
		info, _ = infoCache.LoadOrStore(key, e.Info())
	}
	return nameFrom(info.(adjudicator.Info), id)
}

// commandPower is how a line the daemon suggests (REPLACE <power> WITH …)
// writes a power: its name when the name reads as its id ("Egypt"), the
// id otherwise ("usa" for United States), so the line works as written.
func commandPower(g *store.Game, id string) string {
	if name := powerName(g, id); strings.EqualFold(name, id) {
		return name
	}
	return id
}

// nameFrom is a power's name from an engine's Info.
func nameFrom(info adjudicator.Info, id string) string {
	if n := info.PowerNames[id]; n != "" {
		return n
	}
	return titleCase(id)
}

// titleCase capitalises a word ("england" → "England").
func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// joinPowers names powers for a sentence: "Rome, Greece".
func joinPowers(g *store.Game, powers []string) string {
	names := make([]string, 0, len(powers))
	for _, p := range slices.Sorted(slices.Values(powers)) {
		names = append(names, powerName(g, p))
	}
	return strings.Join(names, ", ")
}

// gameName is g's name, "" for no game (a mail about none).
func gameName(g *store.Game) string {
	if g == nil {
		return ""
	}
	return g.Name
}

// phaseOf is g's open phase's id, "" for no game.
func phaseOf(g *store.Game) string {
	if g == nil {
		return ""
	}
	return g.PhaseID
}

// findPlayer is the player of g at address who has not left, or nil.
func findPlayer(g *store.Game, address string) *store.Player {
	for i := range g.Players {
		if g.Players[i].Address == address && !g.Players[i].Left {
			return &g.Players[i]
		}
	}
	return nil
}

// seniorOf is the address of power's senior diplomat (rank 0), "" when
// it has none.
func seniorOf(g *store.Game, power string) string {
	for _, p := range g.Players {
		if p.Power == power && p.Rank == 0 && !p.Left {
			return p.Address
		}
	}
	return ""
}

// seniorLocked tells whether the senior of power has locked out the
// juniors for the game's open phase (a lock lapses when the power gets
// another senior).
func seniorLocked(g *store.Game, power string) bool {
	lock, ok := g.Locks[power]
	return ok && lock.By != "" && lock.By == seniorOf(g, power)
}

// diplomatsOf counts the diplomats of a power.
func diplomatsOf(g *store.Game, power string) int {
	n := 0
	for _, p := range g.Players {
		if !p.Left && p.Power == power {
			n++
		}
	}
	return n
}

// countPlayers counts g's players who have not left.
func countPlayers(g *store.Game) int {
	n := 0
	for _, p := range g.Players {
		if !p.Left {
			n++
		}
	}
	return n
}

// isAlive tells whether power is still in g's game (its engine's Alive).
func isAlive(g *store.Game, power string) bool { return slices.Contains(g.Alive, power) }

// humanDuration writes a duration for people: "1 hour", "23 hours",
// "2 days 3 hours", "45 minutes".
func humanDuration(d time.Duration) string {
	d = d.Round(time.Minute)
	unit := func(n int, word string) string { return fmt.Sprintf("%d %s%s", n, word, plural(n)) }
	switch {
	case d < time.Hour:
		return unit(int(d/time.Minute), "minute")
	case d < 48*time.Hour:
		h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
		if m == 0 || h >= 6 {
			return unit(h, "hour")
		}
		return unit(h, "hour") + " " + unit(m, "minute")
	default:
		days, h := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour)
		if h == 0 {
			return unit(days, "day")
		}
		return unit(days, "day") + " " + unit(h, "hour")
	}
}

// plural is the "s" of a count's noun.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// showTime prints a deadline in UTC and, when the player has a zone, in it.
func (d *Daemon) showTime(t time.Time, p *store.Player) string {
	if t.IsZero() {
		return "not set"
	}
	s := t.UTC().Format("Mon 2 Jan 2006 15:04 MST")
	zone := d.opt.Zone
	if p != nil && p.Zone != "" {
		zone = p.Zone
	}
	if loc, err := loadZone(zone); err == nil && zone != "UTC" {
		s += " = " + t.In(loc).Format("Mon 15:04 MST") + " (" + zone + ")"
	}
	return s
}

// zones holds the time zones read so far by name: time.LoadLocation reads
// the zone's file from disk at every call, and showTime runs for every
// mail to a player who set a zone (a changed zone file is read at the
// next start).
var zones sync.Map // string → *time.Location

// loadZone is time.LoadLocation, each zone read from disk once.
func loadZone(name string) (*time.Location, error) {
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	zones.Store(name, loc)
	return loc, nil
}
