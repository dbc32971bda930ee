package diplomacy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"pbemd/adjudicator"
)

// stateVersion is the version of the stored state encoding. Decoding
// accepts every version up to this one; add fields, never rename them.
const stateVersion = 1

// jsonPhase, jsonUnit and jsonPosition are the one JSON shape of a position,
// shared by the stored engine state and the offline adjudicate contract.
type jsonPhase struct {
	Season string `json:"season"` // spring | fall | winter
	Year   int    `json:"year"`
	Type   string `json:"type"` // movement | retreat | adjustment
}

type jsonUnit struct {
	Power        string   `json:"power"`
	Type         string   `json:"type"` // army | fleet
	Province     string   `json:"province"`
	Coast        string   `json:"coast,omitempty"`
	AttackerFrom string   `json:"attacker_from,omitempty"` // dislodged units only
	ByConvoy     bool     `json:"by_convoy,omitempty"`     // dislodged units only
	Options      []string `json:"retreat_options,omitempty"`
}

type jsonPosition struct {
	Version       int               `json:"version,omitempty"`
	Variant       string            `json:"variant"`
	Phase         *jsonPhase        `json:"phase,omitempty"`
	Units         []jsonUnit        `json:"units"`
	Dislodged     []jsonUnit        `json:"dislodged,omitempty"`
	Standoffs     []string          `json:"standoffs,omitempty"`
	SupplyCenters map[string]string `json:"supply_centers"`
	Over          bool              `json:"over,omitempty"`
	Winners       []string          `json:"winners,omitempty"`
}

var (
	seasonNames = map[Season]string{Spring: "spring", Fall: "fall", Winter: "winter"}
	typeNames   = map[PhaseType]string{Movement: "movement", Retreats: "retreat", Adjustments: "adjustment"}
)

func phaseJSON(p Phase) *jsonPhase {
	return &jsonPhase{Season: seasonNames[p.Season], Year: p.Year, Type: typeNames[p.Type]}
}

func (j *jsonPhase) phase() (Phase, error) {
	var p Phase
	for s, n := range seasonNames {
		if strings.EqualFold(j.Season, n) {
			p.Season = s
		}
	}
	for t, n := range typeNames {
		if strings.EqualFold(j.Type, n) || strings.EqualFold(j.Type, t.String()) {
			p.Type = t
		}
	}
	p.Year = j.Year
	if p.Season == 0 {
		return p, fmt.Errorf("phase season %q: want spring, fall or winter", j.Season)
	}
	if p.Type == 0 {
		return p, fmt.Errorf("phase type %q: want movement, retreat or adjustment", j.Type)
	}
	return p, nil
}

// powerOut renders a power id for JSON: the id in stored state, the printed
// name in the offline contract.
type powerOut func(string) string

func encodePosition(pos *Position, pw powerOut) *jsonPosition {
	j := &jsonPosition{Variant: pos.Map.Name, Phase: phaseJSON(pos.Phase), Units: []jsonUnit{}, SupplyCenters: map[string]string{}}
	unit := func(u Unit) jsonUnit {
		t := "army"
		if u.Type == Fleet {
			t = "fleet"
		}
		return jsonUnit{Power: pw(u.Power), Type: t, Province: u.Loc.Province, Coast: u.Loc.Coast}
	}
	for _, u := range pos.Units {
		j.Units = append(j.Units, unit(u))
	}
	for _, d := range pos.Dislodged {
		ju := unit(d.Unit)
		ju.AttackerFrom, ju.ByConvoy = d.AttackerFrom, d.ByConvoy
		ju.Options = append([]string{}, d.Options...)
		j.Dislodged = append(j.Dislodged, ju)
	}
	j.Standoffs = append(j.Standoffs, pos.Standoffs...)
	for sc, p := range pos.Owners {
		j.SupplyCenters[sc] = pw(p)
	}
	return j
}

// canonProv returns the map's own string for a province id (the
// resolver's lookups then compare pointers, and a decoded position keeps
// none of its JSON); an unknown id is returned as it is.
func (m *Map) canonProv(id string) string {
	if pi, ok := m.prov(id); ok {
		return m.Provinces[pi].ID
	}
	return id
}

// canonLoc is canonProv for a location.
func (m *Map) canonLoc(prov, coast string) Location {
	pi, ok := m.prov(prov)
	if !ok {
		return Location{Province: prov, Coast: coast}
	}
	if l, ok := m.locOf(pi, coast); ok && coast != "" {
		coast = m.locs[l].coast
	}
	return Location{Province: m.Provinces[pi].ID, Coast: coast}
}

// decodePosition reads a position; omitted phase, units or centres mean the
// map's start. Power names may be ids or printed names.
func decodePosition(j *jsonPosition) (*Position, error) {
	m, ok := mapNamed(j.Variant)
	if !ok {
		return nil, fmt.Errorf("unknown variant %q (known: %s)", j.Variant, strings.Join(adjudicator.Names(), ", "))
	}
	return decodePositionOn(m, j)
}

// decodePositionOn is decodePosition on a given map (an engine's own, which
// for a map read from a file may not be the one its name finds now).
func decodePositionOn(m *Map, j *jsonPosition) (*Position, error) {
	pos := m.NewPosition()
	if j.Phase != nil {
		p, err := j.Phase.phase()
		if err != nil {
			return nil, err
		}
		pos.Phase = p
	}
	power := func(s string) (string, error) {
		id, ok := m.PowerID(s)
		if !ok {
			return "", fmt.Errorf("unknown power %q", s)
		}
		return id, nil
	}
	unit := func(ju jsonUnit) (Unit, error) {
		var u Unit
		pw, err := power(ju.Power)
		if err != nil {
			return u, err
		}
		u.Power = pw
		switch strings.ToLower(ju.Type) {
		case "army", "a":
			u.Type = Army
		case "fleet", "f":
			u.Type = Fleet
		default:
			return u, fmt.Errorf("unit type %q: want army or fleet", ju.Type)
		}
		u.Loc = m.canonLoc(strings.ToLower(ju.Province), strings.ToLower(ju.Coast))
		return u, nil
	}
	if j.Units != nil {
		pos.Units = nil
		for _, ju := range j.Units {
			u, err := unit(ju)
			if err != nil {
				return nil, err
			}
			pos.Units = append(pos.Units, u)
		}
	}
	for _, ju := range j.Dislodged {
		u, err := unit(ju)
		if err != nil {
			return nil, err
		}
		pos.Dislodged = append(pos.Dislodged, Dislodged{Unit: u, AttackerFrom: m.canonProv(strings.ToLower(ju.AttackerFrom)), ByConvoy: ju.ByConvoy, Options: ju.Options})
	}
	for _, s := range j.Standoffs {
		pos.Standoffs = append(pos.Standoffs, m.canonProv(strings.ToLower(s)))
	}
	if j.SupplyCenters != nil {
		pos.Owners = map[string]string{}
		for sc, p := range j.SupplyCenters {
			pw, err := power(p)
			if err != nil {
				return nil, err
			}
			pos.Owners[m.canonProv(strings.ToLower(sc))] = pw
		}
	}
	if err := pos.Validate(); err != nil {
		return nil, err
	}
	// Retreat options are recomputed when not given (offline input).
	if pos.Phase.Type == Retreats {
		fillRetreatOptions(pos)
	}
	pos.SortUnits()
	return pos, nil
}

// fillRetreatOptions computes the options of dislodged units that have none
// recorded, from the board and the standoffs.
func fillRetreatOptions(pos *Position) {
	m := pos.Map
	occupied := make([]bool, len(m.Provinces))
	for _, u := range pos.Units {
		occupied[m.provIdx[u.Loc.Province]] = true
	}
	for i := range pos.Dislodged {
		if pos.Dislodged[i].Options == nil {
			pos.Dislodged[i].Options = retreatOptions(m, pos.Dislodged[i], occupied, pos.Standoffs)
		}
	}
}

// MapNames lists the embedded maps, sorted, without parsing any.
func MapNames() []string {
	out := make([]string, 0, len(embedded))
	for n := range embedded {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// gameState is the stored state of a game: a position plus the game's end.
type gameState struct {
	pos     *Position
	over    bool
	winners []string
}

func encodeState(g *gameState) []byte {
	j := encodePosition(g.pos, func(s string) string { return s })
	j.Version = stateVersion
	j.Over, j.Winners = g.over, g.winners
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", " ")
	if err := enc.Encode(j); err != nil {
		panic(err) // plain data: cannot fail
	}
	return b.Bytes()
}

// decodeState reads a stored state of the variant's map; a state read
// before is copied from the map's cache of decoded states (stateCache).
func decodeState(data []byte, m *Map) (*gameState, error) {
	if g, ok := m.states.get(data); ok {
		return g, nil
	}
	g, err := readState(data, m)
	if err == nil {
		m.states.put(data, g)
	}
	return g, err
}

// viewState is decodeState for a caller that only reads the state: a
// state read before is the cache's own, not a copy. Nothing reachable
// from what it returns may be changed (Adjudicate does not change the
// position it is given).
func viewState(data []byte, m *Map) (*gameState, error) {
	if g, ok := m.states.view(data); ok {
		return g, nil
	}
	g, err := readState(data, m)
	if err == nil {
		m.states.put(data, g) // keeps a copy: g stays the caller's
	}
	return g, err
}

// readState is decodeState without the cache.
func readState(data []byte, m *Map) (*gameState, error) {
	var j jsonPosition
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("diplomacy state: %w", err)
	}
	if j.Version < 1 || j.Version > stateVersion {
		return nil, fmt.Errorf("diplomacy state: version %d not supported (this build reads 1 to %d)", j.Version, stateVersion)
	}
	if j.Variant != m.Name {
		return nil, fmt.Errorf("diplomacy state: variant %q, engine %q", j.Variant, m.Name)
	}
	if j.Phase == nil {
		return nil, errors.New("diplomacy state: no phase")
	}
	pos, err := decodePositionOn(m, &j)
	if err != nil {
		return nil, fmt.Errorf("diplomacy state: %w", err)
	}
	return &gameState{pos: pos, over: j.Over, winners: j.Winners}, nil
}
