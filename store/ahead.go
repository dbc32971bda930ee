package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Held orders: what a player sent ahead for a later phase of the turn
// (an engine that is an adjudicator.Aheader), kept until that phase opens
// and then given to the engine as if mailed at that moment. Each power
// has at most one held set per phase: a newer mail replaces it.
//
// Bucket:
//
//	ahead  name 0 phase id 0 power → AheadOrders
var bucketAhead = registerBucket([]byte("ahead"))

// AheadOrders is one power's orders for a phase that has not opened yet.
type AheadOrders struct {
	Power    string    `json:"power"`
	PhaseID  string    `json:"phase_id"` // the Status.ID the phase opens with
	Title    string    `json:"title"`    // the phase as players read it
	Address  string    `json:"address"`  // who sent them
	Rank     int       `json:"rank"`
	MsgID    string    `json:"msgid"`
	Received time.Time `json:"received"`
	Lines    []string  `json:"lines"`
}

func aheadKey(game, phaseID, power string) []byte {
	k := make([]byte, 0, len(game)+len(phaseID)+len(power)+2)
	k = append(k, game...)
	k = append(k, 0)
	k = append(k, phaseID...)
	k = append(k, 0)
	return append(k, power...)
}

// PutAhead stores h, replacing what the power held for that phase.
func (tx *Tx) PutAhead(game string, h AheadOrders) error {
	return putJSON(tx.bucket(bucketAhead), aheadKey(game, h.PhaseID, h.Power), h)
}

// DeleteAhead removes what power held for phaseID (nothing held: no error).
func (tx *Tx) DeleteAhead(game, phaseID, power string) error {
	return tx.bucket(bucketAhead).Delete(aheadKey(game, phaseID, power))
}

// Ahead returns every held set of a game, by phase id and then power.
func (tx *Tx) Ahead(game string) ([]AheadOrders, error) {
	prefix := append([]byte(game), 0)
	var out []AheadOrders
	c := tx.bucket(bucketAhead).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var h AheadOrders
		if err := json.Unmarshal(v, &h); err != nil {
			return nil, fmt.Errorf("held orders %q: %w", k, err)
		}
		out = append(out, h)
	}
	return out, nil
}
