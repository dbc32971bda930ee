package store

import (
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	berrors "go.etcd.io/bbolt/errors"
)

// A transaction keeps the game records it has read or written decoded
// (Tx.games): the daemon reads one game several times per mail (who sent
// it, the orders, whether the mail changed it) and one poll batch brings
// many mails for the same game, so decoding and unsealing the JSON record
// each time, and encoding and sealing it again for every PutGame, was most
// of what a mail cost. Now a game is decoded once per transaction, handed
// out as deep copies (callers change what they get, as they always did),
// and a game PutGame wrote is sealed, encoded and put once, when the
// transaction commits (flushGames). Anything that reads the games bucket
// itself (Games, EachGame) flushes first, so it sees what the transaction
// wrote. A rolled back transaction drops the cache with everything else.

// txGame is one game as the transaction holds it.
type txGame struct {
	g     *Game // never handed out: callers get copies
	dirty bool  // written by PutGame since the bucket was last written
}

// cachedGame returns a copy of the game the transaction holds, if any.
func (tx *Tx) cachedGame(name string) (*Game, bool) {
	c, ok := tx.games[name]
	if !ok {
		return nil, false
	}
	return cloneGame(c.g), true
}

// keepGame holds a copy of g in the transaction's cache.
func (tx *Tx) keepGame(g *Game, dirty bool) {
	if tx.games == nil {
		tx.games = map[string]*txGame{}
	}
	tx.games[g.Name] = &txGame{g: cloneGame(g), dirty: dirty}
}

// PrefetchGames reads the game records of names that the transaction
// does not hold yet and decodes them (the JSON, the sealed tokens) on
// every core, into the transaction's cache: each Game of them then hands
// out a copy (a deadline burst reads hundreds of games a transaction, one
// after the other). A record that is missing or does not decode is left
// to Game, which says so.
func (tx *Tx) PrefetchGames(names []string) {
	type read struct {
		raw []byte
		g   *Game
	}
	b := tx.bucket(bucketGames)
	var todo []read
	for _, name := range names {
		if _, ok := tx.games[name]; ok {
			continue
		}
		if raw := b.Get([]byte(name)); raw != nil {
			todo = append(todo, read{raw: raw})
		}
	}
	// The values are bbolt's, valid while the transaction lasts; nothing
	// writes the transaction meanwhile.
	onCores(len(todo), func(i int) {
		var g Game
		if json.Unmarshal(todo[i].raw, &g) != nil || tx.openGame(&g) != nil {
			return
		}
		g.upgrade()
		todo[i].g = &g
	})
	if tx.games == nil {
		tx.games = map[string]*txGame{}
	}
	for _, r := range todo {
		if r.g != nil {
			tx.games[r.g.Name] = &txGame{g: r.g} // decoded here: no one else holds it
		}
	}
}

// GameIs reports whether g is, field for field, the game record of its
// name as this transaction holds it now (what it wrote included): writing
// g back would change nothing. It is false when the transaction has not
// read or written the game.
func (tx *Tx) GameIs(g *Game) bool {
	c, ok := tx.games[g.Name]
	return ok && sameGame(c.g, g)
}

// flushGames seals, encodes and puts every game written since the last
// flush, in name order.
func (tx *Tx) flushGames() error {
	var names []string
	for name, c := range tx.games {
		if c.dirty {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	// Sealed and encoded on every core (a deadline burst's transaction
	// writes hundreds of games), put in order.
	raws, errs := make([][]byte, len(names)), make([]error, len(names))
	encode := func(i int) {
		sealed, err := tx.sealGame(tx.games[names[i]].g) // its errors name the game
		if err == nil {
			if raws[i], err = json.Marshal(sealed); err != nil {
				err = fmt.Errorf("game %q: encode: %w", names[i], err)
			}
		}
		errs[i] = err
	}
	if len(names) < flushOnCores {
		for i := range names {
			encode(i)
		}
	} else {
		onCores(len(names), encode)
	}
	b := tx.bucket(bucketGames)
	for i, name := range names {
		if errs[i] != nil {
			return errs[i]
		}
		if err := b.Put([]byte(name), raws[i]); err != nil {
			return fmt.Errorf("game %q: %w", name, err)
		}
		tx.games[name].dirty = false
	}
	return nil
}

// flushOnCores is how many games a flush must write before it encodes
// them on every core: a mail's transaction writes one or two.
const flushOnCores = 8

// onCores runs fn(0) … fn(n-1) on up to GOMAXPROCS goroutines; fn must
// not write the transaction.
func onCores(n int, fn func(int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// writable refuses writes in a read-only transaction at once, as a Put
// would: PutGame's own Put comes only at the commit.
func (tx *Tx) writable() error {
	if !tx.btx.Writable() {
		return berrors.ErrTxNotWritable
	}
	return nil
}
