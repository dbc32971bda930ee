package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
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
//	standing  name 0 phase(8)          → seq(8) of the last version folded
//	          name 0 phase(8) 0 power  → StandingOrders as JSON
var bucketStanding = registerBucket([]byte("standing"))

// Fold is the versions of one class folded into one set of lines; Set is
// false while no version of the class has been seen.
type Fold struct {
	Set   bool     `json:"set,omitempty"`
	Lines []string `json:"lines,omitempty"`
}

// StandingOrders is one power's versions of a phase folded by class, each
// in the order received: Any holds every version not set by the GM,
// Senior and Junior split those by the sender's rank (0 or not), GM holds
// the GM's (SET ORDERS). Which classes apply, in which order, is the
// daemon's choice (a senior's LOCK puts Senior after Junior).
type StandingOrders struct {
	Any    Fold `json:"any"`
	Senior Fold `json:"senior"`
	Junior Fold `json:"junior"`
	GM     Fold `json:"gm"`
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
		var s OrderSet
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, 0, fmt.Errorf("order set %s/%d: %w", game, phase, err)
		}
		sets = append(sets, s)
		last = binary.BigEndian.Uint64(k[len(prefix):])
	}
	return sets, last, nil
}

// StandingOrders returns what has been folded of a phase, by power, and
// the number of the last version folded (0: none yet).
func (tx *Tx) StandingOrders(game string, phase int) (map[string]StandingOrders, uint64, error) {
	prefix := phaseKey(game, phase)
	b := tx.bucket(bucketStanding)
	var folded uint64
	if raw := b.Get(prefix); len(raw) == 8 {
		folded = binary.BigEndian.Uint64(raw)
	}
	out := map[string]StandingOrders{}
	sub := append(bytes.Clone(prefix), 0)
	c := b.Cursor()
	for k, v := c.Seek(sub); k != nil && bytes.HasPrefix(k, sub); k, v = c.Next() {
		var so StandingOrders
		if err := json.Unmarshal(v, &so); err != nil {
			return nil, 0, fmt.Errorf("standing orders %s/%d/%s: %w", game, phase, k[len(sub):], err)
		}
		out[string(k[len(sub):])] = so
	}
	return out, folded, nil
}

// PutStandingOrders records the folds of the powers in folds and that
// every version up to number folded is now folded in.
func (tx *Tx) PutStandingOrders(game string, phase int, folds map[string]StandingOrders, folded uint64) error {
	b := tx.bucket(bucketStanding)
	for _, power := range SortedKeys(folds) {
		if err := putJSON(b, standingKey(game, phase, power), folds[power]); err != nil {
			return err
		}
	}
	return b.Put(phaseKey(game, phase), u64(folded))
}

// deleteStanding forgets the folds of a phase (its versions are deleted).
func (tx *Tx) deleteStanding(game string, phase int) error {
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
