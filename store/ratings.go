package store

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Rated games: how each finished game placed its players, by address, for
// the ratings (package rating replays them in the order they ended). A game
// ended again after the GM reopened it overwrites its entry; reopening it
// deletes the entry, so a game counts once, as it finally ended.
//
// Bucket:
//
//	rated  game → JSON RatedGame
var bucketRated = registerBucket([]byte("rated"))

// RatedGame is one finished game's places: 1 for its winners (or the
// powers of its draw), 2 for every other player.
type RatedGame struct {
	Game   string         `json:"game"`
	Ended  time.Time      `json:"ended"`
	Places map[string]int `json:"places"` // address → place
}

// PutRatedGame records a finished game's places.
func (tx *Tx) PutRatedGame(r RatedGame) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("rated game %s: %w", r.Game, err)
	}
	return tx.bucket(bucketRated).Put([]byte(r.Game), b)
}

// DeleteRatedGame forgets a game's places (the GM reopened it).
func (tx *Tx) DeleteRatedGame(game string) error {
	return tx.bucket(bucketRated).Delete([]byte(game))
}

// RatedGames lists every rated game, in the order they ended.
func (tx *Tx) RatedGames() ([]RatedGame, error) {
	var out []RatedGame
	err := tx.bucket(bucketRated).ForEach(func(k, v []byte) error {
		var r RatedGame
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("rated game %s: %w", k, err)
		}
		out = append(out, r)
		return nil
	})
	sortRated(out)
	return out, err
}

func sortRated(rs []RatedGame) {
	slices.SortStableFunc(rs, func(a, b RatedGame) int {
		if c := a.Ended.Compare(b.Ended); c != 0 {
			return c
		}
		return strings.Compare(a.Game, b.Game)
	})
}
