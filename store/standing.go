package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"
)

// Standing orders: a running summary of the order versions of a phase, so
// that a new order mail costs the same after 2,000 versions as after one.
// The store keeps every version (AddOrderSet) and, beside them, what the
// daemon folded them into so far; it does not know how versions combine
// (that is the daemon's and the engine's business), only which versions
// are already folded in.
//
// Bucket:
//
//	standing  name 0 phase(8)          → seq(8) of the last version folded, drops(8)
//	          name 0 phase(8) 0 power  → StandingOrders as JSON
var bucketStanding = registerBucket([]byte("standing"))

// Fold is the versions of one class folded into one set of lines; Set is
// false while no version of the class has been seen. From[i] says which
// version line i came from (the last one folded that holds it).
type Fold struct {
	Set   bool     `json:"set,omitempty"`
	Lines []string `json:"lines,omitempty"`
	From  []Source `json:"from,omitempty"`
}

// Source is who sent a version of a power's orders, and when.
type Source struct {
	Address  string    `json:"address,omitempty"` // "" for the GM
	GM       bool      `json:"gm,omitempty"`
	Rank     int       `json:"rank,omitempty"`
	Received time.Time `json:"received"`
}

// SourceOf is the Source of an order set.
func SourceOf(s OrderSet) Source {
	return Source{Address: s.Address, GM: s.GM, Rank: s.Rank, Received: s.Received}
}

// StandingOrders is one power's counting versions of a phase folded by
// class, each in the order received: All holds every version (players'
// and the GM's); for the address Holder (the senior who locked the
// juniors out, or last did), Own holds its versions and the GM's and
// Others every other version. Which classes apply is the daemon's choice
// (a senior's LOCK puts Own after Others).
type StandingOrders struct {
	All    Fold   `json:"all"`
	Holder string `json:"holder,omitempty"`
	Others Fold   `json:"others"`
	Own    Fold   `json:"own"`
}

func standingKey(game string, phase int, power string) []byte {
	k := phaseKey(game, phase)
	k = append(k, 0)
	return append(k, power...)
}

// OrderSetsSince returns the versions of a phase received after the one
// numbered after, oldest first, and the number of the last one returned
// (after itself when there are none). Its cost grows with the versions
// returned, not with those before.
func (tx *Tx) OrderSetsSince(game string, phase int, after uint64) ([]OrderSet, uint64, error) {
	prefix := phaseKey(game, phase)
	b := tx.bucket(bucketOrders)
	c := b.Cursor()
	last := after
	var sets []OrderSet
	for k, v := c.Seek(append(bytes.Clone(prefix), u64(after+1)...)); k != nil && bytes.HasPrefix(k, prefix) && len(k) == len(prefix)+8; k, v = c.Next() {
		s, err := tx.orderSet(k, v)
		if err != nil {
			return nil, 0, fmt.Errorf("order set %s/%d: %w", game, phase, err)
		}
		sets = append(sets, s)
		last = binary.BigEndian.Uint64(k[len(prefix):])
	}
	return sets, last, nil
}

// FoldMark is how far the folds of a phase have come: the number of the
// last version folded in (0: none yet), and how many of the phase's
// struck diplomats (OpenPhase.Dropped) the folds already leave out.
type FoldMark struct {
	Folded uint64
	Drops  int
}

// A transaction keeps the folds of each phase it has read or written
// decoded (Tx.standing), as it keeps games (gamecache.go): every order
// mail of a poll batch reads its phase's folds and writes them back, and
// one batch brings many mails for the same phase, so decoding every
// power's folds and encoding them again for each mail was much of what a
// mail cost. Now they are decoded once per transaction, handed out as
// copies, and what PutStandingOrders wrote is encoded and put once, when
// the transaction commits (flushStanding). Only this file reads the
// standing bucket. A rolled back transaction drops the cache with
// everything else.

// txStanding is the folds of one phase as the transaction holds them.
type txStanding struct {
	game    string
	phase   int
	folds   map[string]StandingOrders // never handed out: callers get copies
	mark    FoldMark
	dirty   map[string]bool // powers written since the bucket was last written
	marked  bool            // mark written since then
	replace bool            // the bucket's folds of the phase go first (a rebuild)
}

// StandingOrders returns what has been folded of a phase, by power, and
// how far the folding has come.
func (tx *Tx) StandingOrders(game string, phase int) (map[string]StandingOrders, FoldMark, error) {
	c, err := tx.standingOf(game, phase)
	if err != nil {
		return nil, FoldMark{}, err
	}
	out := make(map[string]StandingOrders, len(c.folds))
	for power, so := range c.folds {
		out[power] = copyStanding(so)
	}
	return out, c.mark, nil
}

// standingOf is the transaction's entry for a phase, read from the bucket
// the first time.
func (tx *Tx) standingOf(game string, phase int) (*txStanding, error) {
	key := string(phaseKey(game, phase))
	if c, ok := tx.standing[key]; ok {
		return c, nil
	}
	folds, mark, err := tx.readStanding(game, phase)
	if err != nil {
		return nil, err
	}
	c := &txStanding{game: game, phase: phase, folds: folds, mark: mark, dirty: map[string]bool{}}
	if tx.standing == nil {
		tx.standing = map[string]*txStanding{}
	}
	tx.standing[key] = c
	return c, nil
}

// PrefetchOrders reads what the standing orders of the open phase of
// each game of names need, for the games the transaction holds
// (PrefetchGames): the phase's folds and the versions received after
// them. It decodes them on every core into the transaction's caches, so
// StandingOrders and OrderSetsSince then only copy. A deadline burst reads
// hundreds of phases a transaction, one after the other. What does not
// decode is left to those two, which say so.
func (tx *Tx) PrefetchOrders(names []string) {
	type phaseRead struct {
		game  string
		phase int
		mark  FoldMark
		keys  []string // powers
		raws  [][]byte
		folds map[string]StandingOrders
	}
	type setRead struct {
		key, raw []byte
		set      OrderSet
		ok       bool
	}
	var phases []*phaseRead
	var sets []*setRead
	orders, standing := tx.bucket(bucketOrders), tx.bucket(bucketStanding)
	for _, name := range names {
		c, ok := tx.games[name]
		if !ok {
			continue
		}
		g := c.g
		prefix := phaseKey(g.Name, g.Phase)
		from := uint64(0)
		if st, ok := tx.standing[string(prefix)]; ok {
			from = st.mark.Folded
		} else {
			r := &phaseRead{game: g.Name, phase: g.Phase}
			if raw := standing.Get(prefix); len(raw) >= 8 {
				r.mark.Folded = binary.BigEndian.Uint64(raw)
				if len(raw) >= 16 {
					r.mark.Drops = int(binary.BigEndian.Uint64(raw[8:]))
				}
			}
			sub := append(bytes.Clone(prefix), 0)
			cur := standing.Cursor()
			for k, v := cur.Seek(sub); k != nil && bytes.HasPrefix(k, sub); k, v = cur.Next() {
				r.keys, r.raws = append(r.keys, string(k[len(sub):])), append(r.raws, v)
			}
			phases = append(phases, r)
			from = r.mark.Folded
		}
		cur := orders.Cursor()
		for k, v := cur.Seek(append(bytes.Clone(prefix), u64(from+1)...)); k != nil && bytes.HasPrefix(k, prefix) && len(k) == len(prefix)+8; k, v = cur.Next() {
			if _, ok := tx.sets[string(k)]; !ok {
				sets = append(sets, &setRead{key: k, raw: v})
			}
		}
	}
	// The values are bbolt's, valid while the transaction lasts; nothing
	// writes the transaction meanwhile.
	onCores(len(phases)+len(sets), func(i int) {
		if i < len(phases) {
			r := phases[i]
			folds := make(map[string]StandingOrders, len(r.keys))
			for j, power := range r.keys {
				var so StandingOrders
				if json.Unmarshal(r.raws[j], &so) != nil {
					return
				}
				folds[power] = so
			}
			r.folds = folds
			return
		}
		r := sets[i-len(phases)]
		r.ok = json.Unmarshal(r.raw, &r.set) == nil
	})
	for _, r := range phases {
		if r.folds == nil {
			continue
		}
		if tx.standing == nil {
			tx.standing = map[string]*txStanding{}
		}
		tx.standing[string(phaseKey(r.game, r.phase))] = &txStanding{game: r.game, phase: r.phase, folds: r.folds, mark: r.mark, dirty: map[string]bool{}}
	}
	for _, r := range sets {
		if !r.ok {
			continue
		}
		if tx.sets == nil {
			tx.sets = map[string]OrderSet{}
		}
		tx.sets[string(r.key)] = r.set // decoded here: no one else holds it
	}
}

// readStanding reads a phase's folds from the bucket.
func (tx *Tx) readStanding(game string, phase int) (map[string]StandingOrders, FoldMark, error) {
	prefix := phaseKey(game, phase)
	b := tx.bucket(bucketStanding)
	var mark FoldMark
	if raw := b.Get(prefix); len(raw) >= 8 {
		mark.Folded = binary.BigEndian.Uint64(raw)
		if len(raw) >= 16 {
			mark.Drops = int(binary.BigEndian.Uint64(raw[8:]))
		}
	}
	out := map[string]StandingOrders{}
	sub := append(bytes.Clone(prefix), 0)
	c := b.Cursor()
	for k, v := c.Seek(sub); k != nil && bytes.HasPrefix(k, sub); k, v = c.Next() {
		var so StandingOrders
		if err := json.Unmarshal(v, &so); err != nil {
			return nil, FoldMark{}, fmt.Errorf("standing orders %s/%d/%s: %w", game, phase, k[len(sub):], err)
		}
		out[string(k[len(sub):])] = so
	}
	return out, mark, nil
}

func copyFold(f Fold) Fold {
	f.Lines, f.From = slices.Clone(f.Lines), slices.Clone(f.From)
	return f
}

func copyStanding(so StandingOrders) StandingOrders {
	so.All, so.Others, so.Own = copyFold(so.All), copyFold(so.Others), copyFold(so.Own)
	return so
}

// PutStandingOrders records the folds of the powers in folds and how far
// the folding has come. With replace, every power's folds not in folds
// are forgotten (the folds were made again from the first version).
func (tx *Tx) PutStandingOrders(game string, phase int, folds map[string]StandingOrders, mark FoldMark, replace bool) error {
	if err := tx.writable(); err != nil {
		return err
	}
	var c *txStanding
	if replace {
		c = &txStanding{game: game, phase: phase, folds: map[string]StandingOrders{}, dirty: map[string]bool{}, replace: true}
		if tx.standing == nil {
			tx.standing = map[string]*txStanding{}
		}
		tx.standing[string(phaseKey(game, phase))] = c
	} else {
		var err error
		if c, err = tx.standingOf(game, phase); err != nil {
			return err
		}
	}
	for power, so := range folds {
		c.folds[power] = copyStanding(so)
		c.dirty[power] = true
	}
	c.mark, c.marked = mark, true
	return nil
}

// flushStanding encodes and puts the folds written since the last flush,
// in key order.
func (tx *Tx) flushStanding() error {
	keys := slices.Sorted(maps.Keys(tx.standing))
	b := tx.bucket(bucketStanding)
	for _, key := range keys {
		c := tx.standing[key]
		if c.replace {
			if err := tx.deleteStandingKeys(c.game, c.phase); err != nil {
				return err
			}
			c.replace = false
		}
		for _, power := range slices.Sorted(maps.Keys(c.dirty)) {
			if err := putJSON(b, standingKey(c.game, c.phase, power), c.folds[power]); err != nil {
				return err
			}
		}
		clear(c.dirty)
		if c.marked {
			v := make([]byte, 16)
			binary.BigEndian.PutUint64(v, c.mark.Folded)
			binary.BigEndian.PutUint64(v[8:], uint64(c.mark.Drops))
			if err := b.Put(phaseKey(c.game, c.phase), v); err != nil {
				return err
			}
			c.marked = false
		}
	}
	return nil
}

// deleteStanding forgets the folds of a phase (its versions are deleted),
// those the transaction has not put yet included.
func (tx *Tx) deleteStanding(game string, phase int) error {
	delete(tx.standing, string(phaseKey(game, phase)))
	return tx.deleteStandingKeys(game, phase)
}

// deleteStandingKeys deletes the bucket's folds of a phase.
func (tx *Tx) deleteStandingKeys(game string, phase int) error {
	prefix := phaseKey(game, phase)
	b := tx.bucket(bucketStanding)
	c := b.Cursor()
	var keys [][]byte
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && (len(k) == len(prefix) || k[len(prefix)] == 0); k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
