package empire

import (
	"errors"
	"fmt"
	"strings"
)

// UnitType is one kind of unit, as the data file gives it.
type UnitType struct {
	ID    string // "regular_infantry_division"
	Name  string // "Regular Infantry Division"
	Code  string // "RID": how units of the type are named ("RID3")
	Class string // stationary, hq, infantry, armor, transport
	// Echelon is the unit's size: division (XX), corps (XXX), army (XXXX),
	// army group (XXXXX); "" for installations.
	Echelon string
	// Speed is hexes per tactical turn: 0 (immobile), 0.5 or 1. A unit on
	// the move covers 1+Speed hexes (its own hex and the way).
	Speed float64
	// Weak units (transports) cannot hurt combat capable units; disabled
	// units are weak too.
	Weak bool
	// Tactical and Strategic say what the unit does for supply in each
	// phase.
	Tactical, Strategic Supply
	Controls            bool   // controls the hex it stands in (its land counts for production)
	ProducesUnits       bool   // a factory: its territory produces
	TransformsTo        string // the stationary unit it may become in a strategic phase
	Cost                int    // production points
	Reduced             bool   // part of the reduced set
}

// Supply is a unit's role in one kind of supply.
type Supply struct {
	// Produces is "full" (supports its whole supply group), "local" (only
	// units in its own hex) or "" (none).
	Produces string
	// Unsupplied is what happens to the unit without supply: "perish",
	// "disable", or "" when it needs none.
	Unsupplied string
}

// Needs reports whether the unit consumes this kind of supply.
func (s Supply) Needs() bool { return s.Unsupplied != "" }

// Mobile reports whether the unit can move.
func (t *UnitType) Mobile() bool { return t.Speed > 0 }

// fast reports a unit moving a full hex per turn (armor): on the move it
// covers two hexes equally; a slow unit (half a hex) covers one hex fully and
// the next one half.
func (t *UnitType) fast() bool { return t.Speed >= 1 }

// UnitTable is the loaded unit data.
type UnitTable struct {
	Types   []*UnitType // in file order
	byID    map[string]*UnitType
	byCode  map[string]*UnitType
	Prov    map[string]string // table -> provenance
	Reduced []string          // ids of the reduced set, in file order
}

// Type returns the unit type with the given id.
func (ut *UnitTable) Type(id string) (*UnitType, bool) {
	t, ok := ut.byID[id]
	return t, ok
}

type unitFile struct {
	UnitTypes struct {
		Provenance string         `json:"provenance"`
		Types      []unitTypeJSON `json:"types"`
	} `json:"unit_types"`
	Codes struct {
		Provenance string            `json:"provenance"`
		Codes      map[string]string `json:"codes"`
	} `json:"codes"`
	Costs struct {
		Provenance string         `json:"provenance"`
		Costs      map[string]int `json:"costs"`
	} `json:"costs"`
	ReducedSet struct {
		Provenance string   `json:"provenance"`
		Types      []string `json:"types"`
	} `json:"reduced_set"`
}

type unitTypeJSON struct {
	ID            string     `json:"id"`
	Name          string     `json:"name"`
	Class         string     `json:"class"`
	Echelon       string     `json:"echelon"`
	Speed         float64    `json:"speed"`
	Combat        string     `json:"combat"`
	Tactical      supplyJSON `json:"tactical"`
	Strategic     supplyJSON `json:"strategic"`
	Controls      bool       `json:"controls"`
	ProducesUnits bool       `json:"produces_units"`
	TransformsTo  string     `json:"transforms_into"`
}

type supplyJSON struct {
	Produces   string `json:"produces"`
	Unsupplied string `json:"unsupplied"`
}

var (
	classes  = map[string]bool{"stationary": true, "hq": true, "infantry": true, "armor": true, "transport": true}
	echelons = map[string]bool{"": true, "division": true, "corps": true, "army": true, "army group": true}
)

// LoadUnits reads and validates data/units.json (see DATAFORMAT.md).
func LoadUnits(data []byte) (*UnitTable, error) {
	var f unitFile
	if err := decodeStrict(data, &f); err != nil {
		return nil, err
	}
	ut := &UnitTable{byID: map[string]*UnitType{}, byCode: map[string]*UnitType{}, Prov: map[string]string{
		"unit_types": f.UnitTypes.Provenance, "codes": f.Codes.Provenance, "costs": f.Costs.Provenance, "reduced_set": f.ReducedSet.Provenance,
	}}
	for _, k := range []string{"unit_types", "codes", "costs", "reduced_set"} {
		if err := checkProvenance(k, ut.Prov[k]); err != nil {
			return nil, err
		}
	}
	for _, j := range f.UnitTypes.Types {
		if j.ID == "" || ut.byID[j.ID] != nil || strings.ContainsAny(j.ID, " \t") {
			return nil, fmt.Errorf("unit type id %q is empty, has spaces or is given twice", j.ID)
		}
		t := &UnitType{ID: j.ID, Name: j.Name, Class: j.Class, Echelon: j.Echelon, Speed: j.Speed,
			Tactical: Supply{j.Tactical.Produces, j.Tactical.Unsupplied}, Strategic: Supply{j.Strategic.Produces, j.Strategic.Unsupplied},
			Controls: j.Controls, ProducesUnits: j.ProducesUnits, TransformsTo: j.TransformsTo}
		if t.Name == "" {
			return nil, fmt.Errorf("unit type %s has no name", t.ID)
		}
		if !classes[t.Class] {
			return nil, fmt.Errorf("unit type %s: class %q: want stationary, hq, infantry, armor or transport", t.ID, t.Class)
		}
		if !echelons[t.Echelon] {
			return nil, fmt.Errorf("unit type %s: echelon %q: want division, corps, army, army group or empty", t.ID, t.Echelon)
		}
		if t.Speed != 0 && t.Speed != 0.5 && t.Speed != 1 {
			return nil, fmt.Errorf("unit type %s: speed %v: want 0, 0.5 or 1 hex per tactical turn", t.ID, t.Speed)
		}
		if (t.Speed == 0) != (t.Class == "stationary") {
			return nil, fmt.Errorf("unit type %s: stationary units, and only they, have speed 0", t.ID)
		}
		switch j.Combat {
		case "capable":
		case "weak":
			t.Weak = true
		default:
			return nil, fmt.Errorf("unit type %s: combat %q: want capable or weak", t.ID, j.Combat)
		}
		for _, s := range []struct {
			name string
			s    Supply
		}{{"tactical", t.Tactical}, {"strategic", t.Strategic}} {
			switch s.s.Produces {
			case "", "full", "local":
			default:
				return nil, fmt.Errorf("unit type %s: %s produces %q: want full, local or empty", t.ID, s.name, s.s.Produces)
			}
			switch s.s.Unsupplied {
			case "", "perish", "disable":
			default:
				return nil, fmt.Errorf("unit type %s: %s unsupplied %q: want perish, disable or empty", t.ID, s.name, s.s.Unsupplied)
			}
			if s.s.Produces != "" && s.s.Unsupplied != "" {
				return nil, fmt.Errorf("unit type %s: a %s supply producer does not consume", t.ID, s.name)
			}
		}
		if t.Tactical.Produces == "local" {
			return nil, fmt.Errorf("unit type %s: tactical supply is full or none", t.ID)
		}
		ut.byID[t.ID] = t
		ut.Types = append(ut.Types, t)
	}
	if len(ut.Types) == 0 {
		return nil, errors.New("no unit types")
	}
	for _, t := range ut.Types {
		if t.TransformsTo != "" {
			to, ok := ut.byID[t.TransformsTo]
			if !ok {
				return nil, fmt.Errorf("unit type %s transforms into unknown type %q", t.ID, t.TransformsTo)
			}
			if t.Class != "hq" || to.Class != "stationary" {
				return nil, fmt.Errorf("unit type %s: only headquarters transform, into stationary units", t.ID)
			}
		}
		code, ok := f.Codes.Codes[t.ID]
		if !ok {
			return nil, fmt.Errorf("codes: no code for %s", t.ID)
		}
		if len(code) < 2 || len(code) > 5 || strings.ToUpper(code) != code || !isLetters(code) {
			return nil, fmt.Errorf("codes: %s: code %q: want 2 to 5 capital letters", t.ID, code)
		}
		if ut.byCode[code] != nil {
			return nil, fmt.Errorf("codes: %q names two types", code)
		}
		t.Code = code
		ut.byCode[code] = t
		cost, ok := f.Costs.Costs[t.ID]
		if t.Mobile() && (!ok || cost <= 0) {
			return nil, fmt.Errorf("costs: %s has no positive cost", t.ID)
		}
		if !t.Mobile() && ok {
			return nil, fmt.Errorf("costs: %s is stationary: it is never bought, it is made from a headquarters", t.ID)
		}
		t.Cost = cost
	}
	for _, m := range []map[string]string{f.Codes.Codes} {
		for id := range m {
			if ut.byID[id] == nil {
				return nil, fmt.Errorf("codes: unknown unit type %q", id)
			}
		}
	}
	for id := range f.Costs.Costs {
		if ut.byID[id] == nil {
			return nil, fmt.Errorf("costs: unknown unit type %q", id)
		}
	}
	for _, id := range f.ReducedSet.Types {
		t := ut.byID[id]
		if t == nil || t.Reduced {
			return nil, fmt.Errorf("reduced_set: %q is unknown or listed twice", id)
		}
		t.Reduced = true
		ut.Reduced = append(ut.Reduced, id)
	}
	// Both sets must be playable: a factory, a way to make one, and a
	// supply producer that can move.
	for _, set := range []string{"all", "reduced"} {
		if err := ut.checkSet(set); err != nil {
			return nil, err
		}
	}
	return ut, nil
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// Set returns the types of a unit set ("all" or "reduced") in file order.
func (ut *UnitTable) Set(name string) []*UnitType {
	var out []*UnitType
	for _, t := range ut.Types {
		if name == "all" || t.Reduced {
			out = append(out, t)
		}
	}
	return out
}

func (ut *UnitTable) checkSet(name string) error {
	var factory, maker bool
	for _, t := range ut.Set(name) {
		factory = factory || t.ProducesUnits
		if to, ok := ut.byID[t.TransformsTo]; ok && to.ProducesUnits && (name == "all" || t.Reduced) {
			maker = true
		}
		if t.TransformsTo != "" && name == "reduced" && !ut.byID[t.TransformsTo].Reduced {
			return fmt.Errorf("reduced_set: %s transforms into %s, which is not in the set", t.ID, t.TransformsTo)
		}
	}
	if !factory || !maker {
		return fmt.Errorf("unit set %s needs a factory and a headquarters that becomes one", name)
	}
	return nil
}
