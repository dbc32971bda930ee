package diplomacy

import (
	"sync"

	"pbemd/orders"
)

// Lexicon is what a map hands the order grammar: the names of its provinces
// and powers.
//
// Call Prepare (or build it with NewLexicon) once after filling it and before
// sharing it: that indexes every spelling for the parser and reports
// inconsistent names. A Lexicon that was not prepared still works: the parser
// indexes it on first use and remembers it; do not change a lexicon in use.
type Lexicon struct {
	Provinces []orders.Name
	Powers    []orders.Name

	provinces *orders.Names // set by Prepare
	powers    *orders.Names // set by Prepare
}

// UnitFinder answers, for the grammar, what stands where. It lets the
// grammar read "Army Nth" as the fleet in the North Sea (with a warning) and
// fill in an omitted unit type. A nil UnitFinder means the grammar knows no
// position. *Position is one.
type UnitFinder interface {
	// UnitAt returns the type, owner (power id) and coast of the unit in
	// province, and whether there is one.
	UnitAt(province string) (unit UnitType, power string, coast string, ok bool)
}

// NewLexicon returns a prepared lexicon of provinces and powers.
func NewLexicon(provinces, powers []orders.Name) (*Lexicon, error) {
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
	prov, err := newProvinceNames(l.Provinces)
	if err != nil {
		return err
	}
	pow, err := orders.NewNames("power", l.Powers)
	if err != nil {
		return err
	}
	l.provinces, l.powers = prov, pow
	return nil
}

// ProvinceNames is the prepared index of the provinces (nil before Prepare).
func (l *Lexicon) ProvinceNames() *orders.Names { return l.provinces }

// PowerNames is the prepared index of the powers (nil before Prepare).
func (l *Lexicon) PowerNames() *orders.Names { return l.powers }

// index returns prepared indexes. A lexicon that was not prepared is indexed
// once and remembered by address (never writing to l, so a shared lexicon
// stays race-free); a lexicon whose lists changed length is indexed again.
func (l *Lexicon) index() (prov, pow *orders.Names, err error) {
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
	if c.prov, c.err = newProvinceNames(l.Provinces); c.err == nil {
		c.pow, c.err = orders.NewNames("power", l.Powers)
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
	prov, pow   *orders.Names
	err         error
}

var unprepared struct {
	sync.Mutex
	m map[*Lexicon]lexCacheEntry
}

// newProvinceNames indexes the provinces with the grammar's order words as
// the tokenizer's shared spellings (see orders.Names.AddWords).
func newProvinceNames(list []orders.Name) (*orders.Names, error) {
	n, err := orders.NewNames("province", list)
	if err != nil {
		return nil, err
	}
	n.AddWords(grammarWords()...)
	return n, nil
}
