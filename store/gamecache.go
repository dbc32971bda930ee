package store

import (
	"fmt"
	"reflect"
	"slices"
	"sync"
	"time"

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

// GameIs reports whether g is, field for field, the game record of its
// name as this transaction holds it now (what it wrote included): writing
// g back would change nothing. It is false when the transaction has not
// read or written the game.
func (tx *Tx) GameIs(g *Game) bool {
	c, ok := tx.games[g.Name]
	return ok && reflect.DeepEqual(c.g, g)
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
	b := tx.bucket(bucketGames)
	for _, name := range names {
		c := tx.games[name]
		sealed, err := tx.sealGame(c.g)
		if err != nil {
			return err
		}
		if err := putJSON(b, []byte(name), sealed); err != nil {
			return fmt.Errorf("game %q: %w", name, err)
		}
		c.dirty = false
	}
	return nil
}

// writable refuses writes in a read-only transaction at once, as a Put
// would: PutGame's own Put comes only at the commit.
func (tx *Tx) writable() error {
	if !tx.btx.Writable() {
		return berrors.ErrTxNotWritable
	}
	return nil
}

// cloneGame is a deep copy of g: no slice, map or pointer of the copy is
// shared with g. It copies by reflection so that a field added to Game
// (or to the records in it) is copied without anyone remembering to;
// TestCloneGameSharesNothing shows it. Struct fields that are not
// exported are copied as values: among the types in a Game only
// time.Time has any, and it is a value.
func cloneGame(g *Game) *Game {
	c := new(Game)
	deepCopy(reflect.ValueOf(c).Elem(), reflect.ValueOf(g).Elem())
	return c
}

var timeType = reflect.TypeFor[time.Time]()

// holdsRefs caches, per type, whether a value of it holds a slice, map or
// pointer that a copy must not share.
var holdsRefs sync.Map // reflect.Type → bool

func needsDeep(t reflect.Type) bool {
	if v, ok := holdsRefs.Load(t); ok {
		return v.(bool)
	}
	deep := false
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface:
		deep = true
	case reflect.Array:
		deep = needsDeep(t.Elem())
	case reflect.Struct:
		if t != timeType {
			for i := range t.NumField() {
				if f := t.Field(i); f.IsExported() && needsDeep(f.Type) {
					deep = true
					break
				}
			}
		}
	}
	holdsRefs.Store(t, deep)
	return deep
}

// deepCopy sets dst, which is settable and of src's type, to a deep copy
// of src.
func deepCopy(dst, src reflect.Value) {
	t := src.Type()
	if !needsDeep(t) {
		dst.Set(src)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		dst.Set(src) // the plain fields (and any not exported)
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && needsDeep(f.Type) {
				deepCopy(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Array:
		for i := range src.Len() {
			deepCopy(dst.Index(i), src.Index(i))
		}
	case reflect.Slice:
		if src.IsNil() {
			dst.SetZero()
			return
		}
		s := reflect.MakeSlice(t, src.Len(), src.Len())
		if needsDeep(t.Elem()) {
			for i := range src.Len() {
				deepCopy(s.Index(i), src.Index(i))
			}
		} else {
			reflect.Copy(s, src)
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			dst.SetZero()
			return
		}
		m := reflect.MakeMapWithSize(t, src.Len())
		deepVal := needsDeep(t.Elem())
		var v reflect.Value
		if deepVal {
			v = reflect.New(t.Elem()).Elem()
		}
		for it := src.MapRange(); it.Next(); {
			if !deepVal {
				m.SetMapIndex(it.Key(), it.Value())
				continue
			}
			deepCopy(v, it.Value())
			m.SetMapIndex(it.Key(), v) // SetMapIndex copies v
		}
		dst.Set(m)
	case reflect.Pointer:
		if src.IsNil() {
			dst.SetZero()
			return
		}
		p := reflect.New(t.Elem())
		deepCopy(p.Elem(), src.Elem())
		dst.Set(p)
	default: // an interface: no record holds one (TestCloneGameSharesNothing)
		panic(fmt.Sprintf("store: cannot copy a %s", t))
	}
}
