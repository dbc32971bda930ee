package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// legacyGame is a game record as the release before OpenPhase wrote it:
// the phase's fields at the top level, the seniors' LOCK JUNIORS on the
// player records.
const legacyGame = `{"name":"old","variant":"standard","created":"2026-12-01T21:00:00Z","status":"active",
"options":{"pace":"slow","press":"all","psa":true,"press_in_adj":true,"preview":false,"process_early":false,"draw_prize":false},
"seed":7,"phase":2,"phase_id":"S1902M","phase_title":"Spring 1902 Movement","phase_kind":"orders",
"phase_started":"2026-12-06T21:00:00Z","deadline":"2026-12-08T21:00:00Z","last_orders_end":"2026-12-04T21:00:00Z",
"waiting":["england","france"],"alive":["england","france"],"reminded":["24h0m0s"],
"players":[
 {"address":"eng@x","power":"england","rank":0,"token":"t1","joined":"2026-12-01T21:00:00Z","lock":"turn:S1902M"},
 {"address":"fra@x","power":"france","rank":0,"token":"t2","joined":"2026-12-01T21:00:00Z","lock":"always"},
 {"address":"old@x","power":"france","rank":1,"token":"t3","joined":"2026-12-01T21:00:00Z","lock":"turn:F1901M","left":true}],
"gm_token":"g","draw_votes":{"france":true},"pace_votes":{"england":"fast"},"ready":{"england":true}}`

// A store written by the previous release opens and plays on: its game
// record reads into the open phase, and the seniors' locks move there
// (a lock for an earlier phase, or of a player who left, is dropped).
func TestLegacyGameRecordReadsIntoTheOpenPhase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbemd.db")
	schema1Store(t, path, func(tx *bolt.Tx) error { return tx.Bucket([]byte("games")).Put([]byte("old"), []byte(legacyGame)) })
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var g *Game
	if err := db.View(func(tx *Tx) (err error) { g, err = tx.Game("old"); return err }); err != nil {
		t.Fatal(err)
	}
	want := OpenPhase{
		Phase: 2, PhaseID: "S1902M", PhaseTitle: "Spring 1902 Movement", PhaseKind: "orders",
		PhaseStarted: time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC), Deadline: time.Date(2026, 12, 8, 21, 0, 0, 0, time.UTC),
		LastOrdersEnd: time.Date(2026, 12, 4, 21, 0, 0, 0, time.UTC),
		Waiting:       []string{"england", "france"}, Alive: []string{"england", "france"}, Reminded: Offsets{24 * time.Hour},
		DrawVotes: map[string]bool{"france": true}, PaceVotes: map[string]Pace{"england": PaceFast}, Ready: map[string]bool{"england": true},
		Locks: map[string]Lock{"england": {By: "eng@x"}, "france": {By: "fra@x", Always: true}},
	}
	if !jsonEqual(t, g.OpenPhase, want) {
		t.Errorf("open phase of a legacy record:\n got %+v\nwant %+v", g.OpenPhase, want)
	}
	for _, p := range g.Players {
		if p.Lock != "" {
			t.Errorf("player %s keeps the legacy lock %q", p.Address, p.Lock)
		}
	}
	// Written back, it keeps the top-level names an older reader knows.
	raw, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var flat map[string]any
	if err := json.Unmarshal(raw, &flat); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"phase", "phase_id", "deadline", "waiting", "alive", "draw_votes", "pace_votes", "ready", "locks"} {
		if _, ok := flat[k]; !ok {
			t.Errorf("written record lacks top-level %q: %s", k, raw)
		}
	}
	// The reminders sent are typed now, and written as they were read.
	if r, _ := json.Marshal(flat["reminded"]); string(r) != `["24h0m0s"]` {
		t.Errorf("reminders sent written as %s, want [\"24h0m0s\"]", r)
	}
}

// ROLLBACK of a phase processed by the previous release finds the phase in
// the whole game record that release kept in the history.
func TestLegacyPhaseRecordReopens(t *testing.T) {
	rec := PhaseRecord{Phase: 1, PhaseID: "S1902M", Game: []byte(legacyGame)}
	p, err := rec.Reopen()
	if err != nil {
		t.Fatal(err)
	}
	if p.PhaseID != "S1902M" || p.Phase != 2 || p.Locks["england"].By != "eng@x" || !p.DrawVotes["france"] {
		t.Errorf("reopened legacy phase: %+v", p)
	}
	if _, err := (&PhaseRecord{Phase: 3, PhaseID: "X"}).Reopen(); err == nil {
		t.Error("a record with no phase in it reopened")
	}
	// A record of this release keeps its own copy: changing the game's
	// value later does not change it.
	open := OpenPhase{PhaseID: "F1902M", Ready: map[string]bool{"france": true}}
	rec = PhaseRecord{Open: &open}
	got, _ := rec.Reopen()
	got.Ready["england"] = true
	if len(open.Ready) != 1 {
		t.Error("Reopen shares the record's maps")
	}
}

func jsonEqual(t *testing.T, a, b any) bool {
	t.Helper()
	x, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(x) == string(y)
}

// DueBetween lists the games whose deadline falls in its seconds, both
// ends included, earliest first: not those due before them (Due's), nor
// those after.
func TestDueBetween(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	at := time.Date(2026, 12, 8, 21, 0, 0, 0, time.UTC)
	deadlines := map[string]time.Time{
		"passed": at.Add(-time.Second), "now": at.Add(400 * time.Millisecond), "soon": at.Add(time.Hour),
		"last": at.Add(24 * time.Hour), "later": at.Add(24*time.Hour + time.Second),
	}
	if err := db.Update(func(tx *Tx) error {
		for name, dl := range deadlines {
			if err := tx.PutGame(&Game{Name: name, Variant: "standard", Status: Active, OpenPhase: OpenPhase{Deadline: dl}}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		if got, want := tx.DueBetween(at.Add(300*time.Millisecond), at.Add(24*time.Hour)), []string{"now", "soon", "last"}; !slices.Equal(got, want) {
			t.Errorf("DueBetween: %v, want %v", got, want)
		}
		return nil
	})
}

// The due index holds a deadline at its second rounded up: Due lists a
// game from that second on, never in the seconds before its deadline.
// An entry written by an older release (rounded down) still lists the
// game, and Reindex puts it right once; an entry in step is left alone.
func TestDueIndexRoundsUp(t *testing.T) {
	db := openTest(t)
	at := time.Date(2026, 12, 8, 21, 0, 0, 0, time.UTC)
	g := &Game{Name: "sub", Variant: "standard", Status: Active, OpenPhase: OpenPhase{Deadline: at.Add(700 * time.Millisecond)}}
	if err := db.Update(func(tx *Tx) error { return tx.PutGame(g) }); err != nil {
		t.Fatal(err)
	}
	due := func(now time.Time) []string {
		var names []string
		db.View(func(tx *Tx) error { names = tx.Due(now, 0); return nil })
		return names
	}
	if got := due(at.Add(-300 * time.Millisecond)); len(got) != 0 {
		t.Errorf("Due a second before the deadline's: %v", got)
	}
	if got := due(at.Add(300 * time.Millisecond)); !slices.Equal(got, []string{"sub"}) {
		t.Errorf("Due within the deadline's second: %v", got)
	}
	db.View(func(tx *Tx) error {
		if next, ok := tx.NextDeadline(); !ok || !next.Equal(at.Add(time.Second)) {
			t.Errorf("NextDeadline: %s %v, want %s", next, ok, at.Add(time.Second))
		}
		return nil
	})

	// an older release's entry: the second rounded down
	if err := db.Update(func(tx *Tx) error {
		dl, dk := tx.bucket(bucketDeadlines), tx.bucket(bucketDueKey)
		if err := dl.Delete(bytes.Clone(dk.Get([]byte("sub")))); err != nil {
			return err
		}
		old := make([]byte, 8, 8+len("sub"))
		binary.BigEndian.PutUint64(old, uint64(at.Unix()))
		old = append(old, "sub"...)
		if err := dl.Put(old, nil); err != nil {
			return err
		}
		return dk.Put([]byte("sub"), old)
	}); err != nil {
		t.Fatal(err)
	}
	if got := due(at.Add(-300 * time.Millisecond)); !slices.Equal(got, []string{"sub"}) {
		t.Fatalf("an old entry: Due %v", got)
	}
	reindex := func() bool {
		var moved bool
		if err := db.Update(func(tx *Tx) (err error) {
			g, err := tx.Game("sub")
			if err != nil {
				return err
			}
			moved, err = tx.Reindex(g)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return moved
	}
	if !reindex() {
		t.Error("Reindex left an old entry as it was")
	}
	if got := due(at.Add(-300 * time.Millisecond)); len(got) != 0 {
		t.Errorf("after Reindex, Due a second before the deadline's: %v", got)
	}
	if reindex() {
		t.Error("Reindex changed an entry in step")
	}
}

// SharedState hands every reader of a transaction the same copy of a
// game's state until PutState, after which it hands out the new one and
// the copy given before stays as it was; the next transaction reads what
// was committed.
func TestSharedState(t *testing.T) {
	db := openTest(t)
	if err := db.Update(func(tx *Tx) error { return tx.PutState("g", []byte("one")) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error {
		a, err := tx.SharedState("g")
		if err != nil {
			return err
		}
		b, _ := tx.SharedState("g")
		if string(a) != "one" || &a[0] != &b[0] {
			t.Errorf("two reads: %q and %q, not one copy", a, b)
		}
		if err := tx.PutState("g", []byte("two")); err != nil {
			return err
		}
		c, _ := tx.SharedState("g")
		if string(c) != "two" || string(a) != "one" {
			t.Errorf("after PutState: %q, and the copy before reads %q", c, a)
		}
		if _, err := tx.SharedState("missing"); !errors.Is(err, ErrNotFound) {
			t.Errorf("a game without a state: %v", err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		if st, _ := tx.SharedState("g"); string(st) != "two" {
			t.Errorf("committed: %q", st)
		}
		return nil
	})
}
