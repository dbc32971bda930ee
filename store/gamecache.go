package store

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
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
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(todo); i = int(next.Add(1) - 1) {
				var g Game
				if json.Unmarshal(todo[i].raw, &g) != nil || tx.openGame(&g) != nil {
					continue
				}
				g.upgrade()
				todo[i].g = &g
			}
		}()
	}
	wg.Wait()
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

var timeType = reflect.TypeFor[time.Time]()

// copyPlan is how to deep-copy a value of one type, worked out once per
// type: nil for a type whose values hold nothing to copy (plain values,
// time.Time), else the fields (of a struct) or the element (of a slice,
// array, map or pointer) that need copying in turn.
type copyPlan struct {
	kind   reflect.Kind
	t      reflect.Type
	fields []fieldPlan // a struct's fields that hold something to copy
	elem   *copyPlan   // a slice's, array's, map's or pointer's element
}

type fieldPlan struct {
	index int
	plan  *copyPlan
}

var (
	plansMu sync.Mutex
	plans   = map[reflect.Type]*copyPlan{}
	// gamePlan is the plan of Game, made on first use.
	gamePlan = sync.OnceValue(func() *copyPlan { return planOf(reflect.TypeFor[Game]()) })
)

// planOf returns t's plan (nil: a plain copy will do).
func planOf(t reflect.Type) *copyPlan {
	plansMu.Lock()
	defer plansMu.Unlock()
	return planLocked(t, map[reflect.Type]bool{})
}

func planLocked(t reflect.Type, making map[reflect.Type]bool) *copyPlan {
	if p, ok := plans[t]; ok {
		return p
	}
	if making[t] {
		panic(fmt.Sprintf("store: cannot copy the recursive type %s", t))
	}
	making[t] = true
	defer delete(making, t)
	var p *copyPlan
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.Pointer:
		p = &copyPlan{kind: t.Kind(), t: t, elem: planLocked(t.Elem(), making)}
	case reflect.Array:
		if e := planLocked(t.Elem(), making); e != nil {
			p = &copyPlan{kind: t.Kind(), t: t, elem: e}
		}
	case reflect.Interface:
		panic(fmt.Sprintf("store: cannot copy a %s", t)) // no record holds one (TestCloneGameSharesNothing)
	case reflect.Struct:
		if t == timeType {
			break
		}
		var fields []fieldPlan
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				if fp := planLocked(f.Type, making); fp != nil {
					fields = append(fields, fieldPlan{i, fp})
				}
			}
		}
		if len(fields) > 0 {
			p = &copyPlan{kind: t.Kind(), t: t, fields: fields}
		}
	}
	plans[t] = p
	return p
}

// cloneGame is a deep copy of g: no slice, map or pointer of the copy is
// shared with g. It copies by reflection so that a field added to Game
// (or to the records in it) is copied without anyone remembering to;
// TestCloneGameSharesNothing shows it. Struct fields that are not
// exported are copied as values: among the types in a Game only
// time.Time has any, and it is a value.
func cloneGame(g *Game) *Game {
	c := new(Game)
	*c = *g
	deepCopy(reflect.ValueOf(c).Elem(), reflect.ValueOf(g).Elem(), gamePlan())
	return c
}

// deepCopy makes dst, which is settable and already holds a plain copy of
// src, a deep copy of it, by p (not nil).
func deepCopy(dst, src reflect.Value, p *copyPlan) {
	switch p.kind {
	case reflect.Struct:
		for _, f := range p.fields {
			deepCopy(dst.Field(f.index), src.Field(f.index), f.plan)
		}
	case reflect.Array:
		for i := range src.Len() {
			deepCopy(dst.Index(i), src.Index(i), p.elem)
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(p.t, src.Len(), src.Len())
		reflect.Copy(s, src)
		if p.elem != nil {
			for i := range src.Len() {
				deepCopy(s.Index(i), src.Index(i), p.elem)
			}
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(p.t, src.Len())
		var v reflect.Value
		if p.elem != nil {
			v = reflect.New(p.t.Elem()).Elem()
		}
		for it := src.MapRange(); it.Next(); {
			if p.elem == nil {
				m.SetMapIndex(it.Key(), it.Value())
				continue
			}
			v.Set(it.Value())
			deepCopy(v, it.Value(), p.elem)
			m.SetMapIndex(it.Key(), v) // SetMapIndex copies v
		}
		dst.Set(m)
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		n := reflect.New(p.t.Elem())
		n.Elem().Set(src.Elem())
		if p.elem != nil {
			deepCopy(n.Elem(), src.Elem(), p.elem)
		}
		dst.Set(n)
	}
}
