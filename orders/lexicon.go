package orders

import "sync"

// Name is one thing a player may name in an order: a province (with its
// abbreviation, full name and aliases) or a power. The game builds these from
// its map or scenario file; the parser knows nothing else about the game.
type Name struct {
	ID      string   // canonical id, lower case ("stp", "gop", "england")
	Full    string   // full name as printed ("St Petersburg", "Gulf of Pelusium")
	Abbrev  string   // map abbreviation as printed ("StP", "GoP"); "" means ID
	Aliases []string // other accepted spellings ("st. petersburg", "Carthago")
	Coasts  []string // coast ids of a multi-coast province ("nc", "sc")
}

// Lexicon is what a Diplomacy-like game hands the parser: the names of its
// provinces and powers.
//
// Call Prepare (or build it with NewLexicon) once after filling it and before
// sharing it: that indexes every spelling for the parser and reports
// inconsistent names. A Lexicon that was not prepared still works: the parser
// indexes it on first use and remembers it; do not change a lexicon in use.
type Lexicon struct {
	Provinces []Name
	Powers    []Name

	provinces *Names // set by Prepare
	powers    *Names // set by Prepare
}

// Position answers, for the parser, what stands where. It lets the parser
// read "Army Nth" as the fleet in the North Sea (with a warning) and fill in
// an omitted unit type. A nil Position means the parser knows no position.
type Position interface {
	// UnitAt returns the type, owner (power id) and coast of the unit in
	// province, and whether there is one.
	UnitAt(province string) (unit UnitType, power string, coast string, ok bool)
}

// NewLexicon returns a prepared lexicon of provinces and powers.
func NewLexicon(provinces, powers []Name) (*Lexicon, error) {
	l := &Lexicon{Provinces: provinces, Powers: powers}
	if err := l.Prepare(); err != nil {
		return nil, err
	}
	return l, nil
}

// Prepare indexes the names for the parser and checks them: every id is
// unique and no spelling (id, abbreviation, full name, alias) names two
// provinces or two powers. Call it again after changing the lists.
func (l *Lexicon) Prepare() error {
	prov, err := NewNames("province", l.Provinces)
	if err != nil {
		return err
	}
	pow, err := NewNames("power", l.Powers)
	if err != nil {
		return err
	}
	l.provinces, l.powers = prov, pow
	return nil
}

// ProvinceNames is the prepared index of the provinces (nil before Prepare).
func (l *Lexicon) ProvinceNames() *Names { return l.provinces }

// PowerNames is the prepared index of the powers (nil before Prepare).
func (l *Lexicon) PowerNames() *Names { return l.powers }

// index returns prepared indexes. A lexicon that was not prepared is indexed
// once and remembered by address (never writing to l, so a shared lexicon
// stays race-free); a lexicon whose lists changed length is indexed again.
func (l *Lexicon) index() (prov, pow *Names, err error) {
	if l.provinces != nil && l.powers != nil {
		return l.provinces, l.powers, nil
	}
	unprepared.Lock()
	c, ok := unprepared.m[l]
	unprepared.Unlock()
	if ok && c.nProv == len(l.Provinces) && c.nPow == len(l.Powers) {
		return c.prov, c.pow, c.err
	}
	c = lexCacheEntry{nProv: len(l.Provinces), nPow: len(l.Powers)}
	if c.prov, c.err = NewNames("province", l.Provinces); c.err == nil {
		c.pow, c.err = NewNames("power", l.Powers)
	}
	unprepared.Lock()
	if unprepared.m == nil {
		unprepared.m = map[*Lexicon]lexCacheEntry{}
	}
	if len(unprepared.m) < maxUnprepared {
		unprepared.m[l] = c
	}
	unprepared.Unlock()
	return c.prov, c.pow, c.err
}

// maxUnprepared bounds the cache of lexicons nobody prepared.
const maxUnprepared = 64

type lexCacheEntry struct {
	nProv, nPow int
	prov, pow   *Names
	err         error
}

var unprepared struct {
	sync.Mutex
	m map[*Lexicon]lexCacheEntry
}
