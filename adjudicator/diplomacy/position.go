package diplomacy

import (
	"fmt"
	"slices"
	"sort"
)

// Season of a phase.
type Season uint8

const (
	Spring Season = iota + 1
	Fall
	Winter
)

func (s Season) String() string {
	switch s {
	case Spring:
		return "Spring"
	case Fall:
		return "Fall"
	case Winter:
		return "Winter"
	}
	return "?"
}

// PhaseType is what is ordered in a phase.
type PhaseType uint8

const (
	Movement PhaseType = iota + 1
	Retreats
	Adjustments
)

func (t PhaseType) String() string {
	switch t {
	case Movement:
		return "Movement"
	case Retreats:
		return "Retreats"
	case Adjustments:
		return "Adjustments"
	}
	return "?"
}

// Phase is one step of the game: Spring 1901 Movement, Fall 1901 Retreats, …
type Phase struct {
	Season Season
	Year   int
	Type   PhaseType
}

// ID is the short sortable phase id: "S1901M", "F1901R", "W1901A".
func (p Phase) ID() string {
	return fmt.Sprintf("%c%d%c", p.Season.String()[0], p.Year, p.Type.String()[0])
}

// Dislodged is a unit dislodged in a movement phase, waiting to retreat.
type Dislodged struct {
	Unit
	// AttackerFrom is the province the dislodging unit came from; the unit
	// may not retreat there unless the attacker came by convoy.
	AttackerFrom string
	ByConvoy     bool
	// Options are the provinces (or "spa/nc"-style locations for fleets on
	// split coasts) the unit may retreat to, sorted. Filled by the engine.
	Options []string
}

// Position is the whole state of a game between two phases.
type Position struct {
	Map   *Map
	Phase Phase
	Units []Unit
	// Dislodged units and Standoffs are set in a retreat phase only.
	Dislodged []Dislodged
	Standoffs []string
	// Owners maps each owned supply centre to its power.
	Owners map[string]string
}

// NewPosition returns the start position of a map.
func (m *Map) NewPosition() *Position {
	p := &Position{Map: m, Phase: Phase{Spring, m.StartYear, Movement}, Owners: map[string]string{}}
	if m.WinterStart {
		p.Phase = Phase{Winter, m.winterBefore(), Adjustments}
	}
	p.Units = append(p.Units, m.Start...)
	for _, pr := range m.Provinces {
		if pr.Home != "" {
			p.Owners[pr.ID] = pr.Home
		}
	}
	p.SortUnits()
	return p
}

// Clone returns a deep copy.
func (p *Position) Clone() *Position {
	q := *p
	q.Units = append([]Unit(nil), p.Units...)
	q.Dislodged = nil
	for _, d := range p.Dislodged {
		d.Options = append([]string(nil), d.Options...)
		q.Dislodged = append(q.Dislodged, d)
	}
	q.Standoffs = append([]string(nil), p.Standoffs...)
	q.Owners = make(map[string]string, len(p.Owners))
	for k, v := range p.Owners {
		q.Owners[k] = v
	}
	return &q
}

// UnitAt implements UnitFinder.
func (p *Position) UnitAt(province string) (UnitType, string, string, bool) {
	for _, u := range p.Units {
		if u.Loc.Province == province {
			return u.Type, u.Power, u.Loc.Coast, true
		}
	}
	return NoUnit, "", "", false
}

// Validate checks that a position fits its map: known powers and provinces,
// units where they can stand, one unit per province, centres owned by
// known powers.
func (p *Position) Validate() error {
	b := getResolver()
	defer b.release()
	return b.load(p)
}

// SortUnits puts units in map province order (a stable, readable order).
func (p *Position) SortUnits() {
	m := p.Map
	type keyed struct {
		key int
		i   int
	}
	if len(p.Units) > 1 {
		keys := make([]keyed, len(p.Units))
		sorted := true
		for i, u := range p.Units {
			keys[i] = keyed{m.provIdx[u.Loc.Province], i}
			if i > 0 && keys[i].key < keys[i-1].key {
				sorted = false
			}
		}
		if !sorted {
			slices.SortStableFunc(keys, func(a, b keyed) int { return a.key - b.key })
			units := make([]Unit, len(p.Units))
			for i, k := range keys {
				units[i] = p.Units[k.i]
			}
			p.Units = units
		}
	}
	if len(p.Dislodged) > 1 {
		slices.SortStableFunc(p.Dislodged, func(a, b Dislodged) int {
			return m.provIdx[a.Loc.Province] - m.provIdx[b.Loc.Province]
		})
	}
	sort.Strings(p.Standoffs)
}

// CentreCount returns each power's number of owned centres.
func (p *Position) CentreCount() map[string]int {
	out := map[string]int{}
	for _, pw := range p.Owners {
		out[pw]++
	}
	return out
}

// UnitCount returns each power's number of units on the board.
func (p *Position) UnitCount() map[string]int {
	out := map[string]int{}
	for _, u := range p.Units {
		out[u.Power]++
	}
	return out
}
