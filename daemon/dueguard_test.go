package daemon

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"pbemd/store"
)

// Within one tick, a game handled in one pass comes back in a later pass
// only once it has moved on (a later phase, a pause begun or ended, a
// later due time); otherwise it is left for the next tick and logged, once.
func TestDueGuardLetsAGameBackOnlyOnceItMovedOn(t *testing.T) {
	var log bytes.Buffer
	gd := newDueGuard(slog.New(slog.NewTextHandler(&log, nil)))
	at := time.Date(2026, 12, 8, 21, 0, 0, 0, time.UTC)
	g := &store.Game{Name: "g", OpenPhase: store.OpenPhase{Phase: 3, PhaseID: "S1902M", Deadline: at}}
	if gd.again(g) {
		t.Fatal("a game not handled yet in this tick is held back")
	}
	for range 3 {
		if !gd.again(g) {
			t.Fatal("a game back unchanged is handled again")
		}
	}
	if n := strings.Count(log.String(), "level=ERROR"); n != 1 || !strings.Contains(log.String(), "game=g") {
		t.Fatalf("want one error naming the game, got %d:\n%s", n, log.String())
	}
	g.Deadline = at.Add(-time.Second)
	if !gd.again(g) {
		t.Fatal("a game whose deadline moved back is handled again")
	}
	for _, move := range []func(){
		func() { g.Deadline = at.Add(time.Second) },
		func() { g.Phase++ },
		func() { g.Paused, g.PausedUntil = true, at },
	} {
		move()
		if gd.again(g) {
			t.Fatalf("a game that moved on (%+v) is held back", markOf(g))
		}
	}
}
