package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var timeType = reflect.TypeFor[time.Time]()

// fill sets every exported field reachable from v to a value that is not
// zero (slices and maps of two elements, pointers set), n telling values
// apart.
func fill(t *testing.T, v reflect.Value, n *int, path string) {
	*n++
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == timeType {
			v.Set(reflect.ValueOf(time.Date(2026, 1, 1, 0, 0, *n, 0, time.UTC)))
			return
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				t.Fatalf("%s.%s: a record field that is not exported would be shared by cloneGame", path, f.Name)
			}
			fill(t, v.Field(i), n, path+"."+f.Name)
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(t, s.Index(i), n, path+"[]")
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(t, k, n, path+"[key]")
			fill(t, e, n, path+"[]")
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(t, p.Elem(), n, path)
		v.Set(p)
	case reflect.String:
		v.SetString(fmt.Sprint("s", *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(*n))
	default:
		t.Fatalf("%s: a %s in a game record: teach cloneGame and this test about it", path, v.Type())
	}
}

// shares reports the first slice, map or pointer that a and b share.
func shares(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() {
				if s := shares(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); s != "" {
					return s
				}
			}
		}
	case reflect.Slice:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
		for i := range a.Len() {
			if s := shares(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); s != "" {
				return s
			}
		}
	case reflect.Map:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
		for it := a.MapRange(); it.Next(); {
			if s := shares(it.Value(), b.MapIndex(it.Key()), path+"[]"); s != "" {
				return s
			}
		}
	case reflect.Pointer:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			return path
		}
		if !a.IsNil() {
			return shares(a.Elem(), b.Elem(), path)
		}
	}
	return ""
}

// The copies a transaction hands out of a game share nothing with the one
// it keeps, however many fields Game grows: every field is filled, and the
// copy must be equal and share no slice, map or pointer.
func TestCloneGameSharesNothing(t *testing.T) {
	var g Game
	n := 0
	fill(t, reflect.ValueOf(&g).Elem(), &n, "Game")
	c := cloneGame(&g)
	if !reflect.DeepEqual(c, &g) {
		t.Fatal("the copy differs from the game")
	}
	if s := shares(reflect.ValueOf(c).Elem(), reflect.ValueOf(&g).Elem(), "Game"); s != "" {
		t.Fatalf("the copy shares %s with the game", s)
	}
	a, _ := json.Marshal(&g)
	b, _ := json.Marshal(c)
	if string(a) != string(b) {
		t.Fatalf("the copy encodes as\n%s\nnot\n%s", b, a)
	}
	var empty Game
	if c := cloneGame(&empty); !reflect.DeepEqual(c, &empty) {
		t.Fatalf("a copy of an empty game is %+v", c)
	}
}

// change is one way to change a value: set changes v, addressable and of
// the type it was made for, in place.
type change struct {
	path string
	set  func(v reflect.Value)
}

// changes lists every way to change one thing in a value like sample:
// each field, element, map key and value, and whether a slice, map or
// pointer is nil, one change at a time.
func changes(t *testing.T, sample reflect.Value, path string) []change {
	var out []change
	switch sample.Kind() {
	case reflect.Struct:
		if sample.Type() == timeType {
			return []change{{path, func(v reflect.Value) {
				v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Second)))
			}}}
		}
		for i := range sample.NumField() {
			for _, c := range changes(t, sample.Field(i), path+"."+sample.Type().Field(i).Name) {
				out = append(out, change{c.path, func(v reflect.Value) { c.set(v.Field(i)) }})
			}
		}
	case reflect.Slice:
		if sample.IsNil() {
			return []change{{path + " empty", func(v reflect.Value) { v.Set(reflect.MakeSlice(v.Type(), 0, 0)) }}}
		}
		out = append(out, change{path + " nil", func(v reflect.Value) { v.Set(reflect.Zero(v.Type())) }})
		if sample.Len() > 0 {
			out = append(out,
				change{path + " shorter", func(v reflect.Value) { v.Set(v.Slice(0, v.Len()-1)) }},
				change{path + " empty", func(v reflect.Value) { v.Set(reflect.MakeSlice(v.Type(), 0, 0)) }})
		}
		for i := range sample.Len() {
			for _, c := range changes(t, sample.Index(i), fmt.Sprintf("%s[%d]", path, i)) {
				out = append(out, change{c.path, func(v reflect.Value) { c.set(v.Index(i)) }})
			}
		}
	case reflect.Map:
		if sample.IsNil() {
			return []change{{path + " empty", func(v reflect.Value) { v.Set(reflect.MakeMap(v.Type())) }}}
		}
		out = append(out, change{path + " nil", func(v reflect.Value) { v.Set(reflect.Zero(v.Type())) }})
		if sample.Len() > 0 {
			out = append(out, change{path + " empty", func(v reflect.Value) { v.Set(reflect.MakeMap(v.Type())) }})
		}
		for _, k := range sample.MapKeys() {
			out = append(out, change{fmt.Sprintf("%s[%v] gone", path, k), func(v reflect.Value) { v.SetMapIndex(k, reflect.Value{}) }})
			for _, c := range changes(t, k, fmt.Sprintf("%s key %v", path, k)) {
				out = append(out, change{c.path, func(v reflect.Value) {
					e, nk := v.MapIndex(k), reflect.New(k.Type()).Elem()
					nk.Set(k)
					c.set(nk)
					v.SetMapIndex(k, reflect.Value{})
					v.SetMapIndex(nk, e)
				}})
			}
			for _, c := range changes(t, sample.MapIndex(k), fmt.Sprintf("%s[%v]", path, k)) {
				out = append(out, change{c.path, func(v reflect.Value) {
					e := reflect.New(v.Type().Elem()).Elem()
					e.Set(v.MapIndex(k))
					c.set(e)
					v.SetMapIndex(k, e)
				}})
			}
		}
	case reflect.Pointer:
		if sample.IsNil() {
			return []change{{path + " set", func(v reflect.Value) { v.Set(reflect.New(v.Type().Elem())) }}}
		}
		out = append(out, change{path + " nil", func(v reflect.Value) { v.Set(reflect.Zero(v.Type())) }})
		for _, c := range changes(t, sample.Elem(), path) {
			out = append(out, change{c.path, func(v reflect.Value) { c.set(v.Elem()) }})
		}
	case reflect.String:
		out = append(out, change{path, func(v reflect.Value) { v.SetString(v.String() + "x") }})
	case reflect.Bool:
		out = append(out, change{path, func(v reflect.Value) { v.SetBool(!v.Bool()) }})
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		out = append(out, change{path, func(v reflect.Value) { v.SetInt(v.Int() + 1) }})
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		out = append(out, change{path, func(v reflect.Value) { v.SetUint(v.Uint() + 1) }})
	case reflect.Float32, reflect.Float64:
		out = append(out, change{path, func(v reflect.Value) { v.SetFloat(v.Float() + 1) }})
	default:
		t.Fatalf("%s: a %s in a game record: teach sameGame and this test about it", path, sample.Type())
	}
	return out
}

// sameGame, which decides whether a mail's game is written back, sees a
// change to any field of a game, however many fields Game grows: every
// field is filled, then each field, element, key and value is changed
// on a copy, one at a time, and the copy must differ from the game. An
// unchanged copy, and the game itself, are the same.
func TestSameGameSeesEveryField(t *testing.T) {
	var g Game
	n := 0
	fill(t, reflect.ValueOf(&g).Elem(), &n, "Game")
	if !sameGame(&g, &g) || !sameGame(&g, cloneGame(&g)) {
		t.Fatal("a game differs from itself or from its copy")
	}
	var empty Game
	if !sameGame(&empty, cloneGame(&empty)) || sameGame(&empty, &g) || sameGame(&g, &empty) {
		t.Fatal("an empty game compared wrong")
	}
	// the filled game, and the empty one (a nil slice or map made empty)
	tried := 0
	for _, base := range []*Game{&g, &empty} {
		for _, c := range changes(t, reflect.ValueOf(base).Elem(), "Game") {
			changed := cloneGame(base)
			c.set(reflect.ValueOf(changed).Elem())
			if reflect.DeepEqual(changed, base) {
				t.Fatalf("%s: the test's change changed nothing", c.path)
			}
			if sameGame(base, changed) || sameGame(changed, base) {
				t.Errorf("%s changed, and sameGame did not see it", c.path)
			}
			tried++
		}
	}
	if tried < 300 {
		t.Fatalf("only %d changes tried: the test lost its way through Game", tried)
	}
}

// A game a transaction changed and put, and then rolled back, is not what
// the next transaction reads, nor is a copy changed and not put what a
// later read of the same transaction gets: a transaction's games (what
// Game hands out, what GameIs compares with) die with it.
func TestGameChangedInRolledBackTransactionDoesNotLeak(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g := benchGame()
	if err := db.Update(func(tx *Tx) error { return tx.PutGame(g) }); err != nil {
		t.Fatal(err)
	}
	errNo := fmt.Errorf("no")
	for _, put := range []bool{true, false} {
		err := db.Update(func(tx *Tx) error {
			got, err := tx.Game(g.Name)
			if err != nil {
				return err
			}
			got.Players[1].Power = "changed"
			got.Ready["austria"] = true
			got.Status = Finished
			if put {
				if err := tx.PutGame(got); err != nil {
					return err
				}
				if !tx.GameIs(got) {
					t.Error("a game put is not what the transaction holds")
				}
			} else if again, _ := tx.Game(g.Name); !sameGame(again, g) || tx.GameIs(got) {
				t.Error("a copy changed and not put changed the game the transaction holds")
			}
			return errNo
		})
		if err != errNo {
			t.Fatal(err)
		}
		for _, read := range []func(func(*Tx) error) error{db.View, db.Update} {
			read(func(tx *Tx) error {
				got, err := tx.Game(g.Name)
				if err != nil {
					t.Fatal(err)
				}
				if !sameGame(got, g) || !tx.GameIs(g) {
					t.Errorf("put %v: the game of a rolled back transaction leaked: %+v", put, got)
				}
				return nil
			})
		}
	}
}

// A transaction reads what it wrote, later ones read what was committed,
// and a rolled back one leaves nothing; a changed copy does not change the
// game the transaction holds until it is put.
func TestGameCacheReadsWritesAndRollsBack(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g := &Game{Name: "g", Variant: "standard", Status: Active, GMToken: "gm-secret",
		Players: []Player{{Address: "a@x", Power: "england", Token: "tok-a"}}}
	g.Deadline = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	if err := db.Update(func(tx *Tx) error {
		if err := tx.PutGame(g); err != nil {
			return err
		}
		if !tx.HasGame("g") || len(tx.Games()) != 1 {
			t.Errorf("a game put in this transaction: HasGame %v, Games %v", tx.HasGame("g"), tx.Games())
		}
		got, err := tx.Game("g")
		if err != nil || got.Players[0].Token != "tok-a" {
			t.Errorf("read back in the transaction: %+v %v", got, err)
		}
		got.Players[0].Address = "changed@x"
		if !tx.GameIs(g) || tx.GameIs(got) {
			t.Error("a changed copy changed the game the transaction holds")
		}
		n := 0
		if err := tx.EachGame(func(*Game) error { n++; return nil }); err != nil || n != 1 {
			t.Errorf("EachGame saw %d games: %v", n, err)
		}
		if due := tx.Due(g.Deadline, 0); len(due) != 1 {
			t.Errorf("due: %v", due)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// committed: sealed in the bucket, readable by the next transaction
	db.View(func(tx *Tx) error {
		raw := tx.bucket(bucketGames).Get([]byte("g"))
		if raw == nil || !json.Valid(raw) {
			t.Fatalf("the game record is not in the bucket: %q", raw)
		}
		if s := string(raw); contains(s, "tok-a") || contains(s, "gm-secret") {
			t.Errorf("the record keeps a token in the clear: %s", raw)
		}
		got, err := tx.Game("g")
		if err != nil || got.Players[0].Token != "tok-a" || got.GMToken != "gm-secret" {
			t.Errorf("read back: %+v %v", got, err)
		}
		return nil
	})
	// rolled back: the change is gone
	errNo := fmt.Errorf("no")
	if err := db.Update(func(tx *Tx) error {
		got, _ := tx.Game("g")
		got.Status = Finished
		if err := tx.PutGame(got); err != nil {
			return err
		}
		return errNo
	}); err != errNo {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		if got, _ := tx.Game("g"); got.Status != Active {
			t.Errorf("a rolled back PutGame landed: %s", got.Status)
		}
		return nil
	})
	// a read-only transaction refuses PutGame at once
	if err := db.View(func(tx *Tx) error { return tx.PutGame(g) }); err == nil {
		t.Error("PutGame in a read-only transaction")
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func BenchmarkCloneGame(b *testing.B) {
	g := benchGame()
	b.ReportAllocs()
	for b.Loop() {
		cloneGame(g)
	}
}

func BenchmarkGameIs(b *testing.B) {
	g := benchGame()
	c := cloneGame(g)
	b.ReportAllocs()
	for b.Loop() {
		if !sameGame(c, g) {
			b.Fatal("differs")
		}
	}
}

// benchGame is a game of seven players in its first phase.
func benchGame() *Game {
	g := &Game{Name: "bench", Variant: "standard", Status: Active, GMToken: "t", GM: []string{"gm@x"}}
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, p := range []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"} {
		g.Players = append(g.Players, Player{Address: p + "@x", Power: p, Token: "token-" + p, Joined: at, Prefs: []string{p}})
		g.Seniors = append(g.Seniors, SeniorTerm{Power: p, Address: p + "@x", From: at})
		g.Waiting = append(g.Waiting, p)
		g.Alive = append(g.Alive, p)
	}
	g.Reminded = Offsets{24 * time.Hour}
	g.Ready = map[string]bool{"england": true}
	g.Options.Engine = map[string]string{"x": "y"}
	return g
}

// PrefetchGames decodes the records it is given into the transaction's
// cache: Game then hands out what it would have read (tokens opened), as
// copies; a game written in the transaction is not read over, and a name
// without a record is left to Game's error.
func TestPrefetchGames(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	names := []string{"a", "b", "c", "d", "e"}
	if err := db.Update(func(tx *Tx) error {
		for i, name := range names {
			g := &Game{Name: name, Variant: "standard", Status: Active, Seed: int64(i), GMToken: "gm-" + name,
				Players: []Player{{Address: name + "@x", Power: "england", Token: "tok-" + name}}}
			if err := tx.PutGame(g); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var want []*Game
	db.View(func(tx *Tx) error {
		for _, name := range names {
			g, err := tx.Game(name)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, g)
		}
		return nil
	})
	if err := db.Update(func(tx *Tx) error {
		changed := *want[0]
		changed.Seed = 99
		if err := tx.PutGame(&changed); err != nil {
			return err
		}
		tx.PrefetchGames(append(names, "missing"))
		if len(tx.games) != len(names) {
			t.Errorf("%d games held after the prefetch, want %d", len(tx.games), len(names))
		}
		for i, name := range names {
			g, err := tx.Game(name)
			if err != nil {
				return err
			}
			w := want[i]
			if i == 0 {
				w = &changed
			}
			if !reflect.DeepEqual(g, w) {
				t.Errorf("game %s after the prefetch: %+v, want %+v", name, g, w)
			}
			g.Players[0].Token = "changed"
			if again, _ := tx.Game(name); again.Players[0].Token != "tok-"+name {
				t.Errorf("game %s: a changed copy changed the game held", name)
			}
		}
		if _, err := tx.Game("missing"); !errors.Is(err, ErrNotFound) {
			t.Errorf("a game without a record: %v, want ErrNotFound", err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// TestFlushOfManyGames: a transaction that writes more games than
// flushOnCores seals and encodes them on every core; each reads back in
// the next transaction as written, its tokens opened, and none is kept
// in the file in the clear.
func TestFlushOfManyGames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbemd.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var want []*Game
	for i := range 3 * flushOnCores {
		name := fmt.Sprintf("g%02d", i)
		want = append(want, &Game{Name: name, Variant: "standard", Status: Active, Seed: int64(i), GMToken: "gm-secret-" + name,
			Players: []Player{{Address: name + "@x", Power: "england", Token: "player-secret-" + name}}})
	}
	if err := db.Update(func(tx *Tx) error {
		for _, g := range want {
			if err := tx.PutGame(g); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		for _, w := range want {
			g, err := tx.Game(w.Name)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, w) {
				t.Errorf("game %s read back as %+v, want %+v", w.Name, g, w)
			}
		}
		return nil
	})
	db.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("-secret-")) {
		t.Error("a token is in the file in the clear")
	}
}
