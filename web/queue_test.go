package web_test

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"pbemd/store"
	"pbemd/web"
)

// The queue builds nothing while the daemon processes deadlines (Busy),
// not even its first pass over every game, and builds once it is done.
func TestQueueWaitsForTheDeadlines(t *testing.T) {
	t.Parallel()
	tb := newTable(t, store.WebPublic)
	tb.Create("q1", "standard", "")
	b := newBuilder(t, tb, store.WebPublic)
	q := web.NewQueue(b)
	var busy atomic.Bool
	busy.Store(true)
	asked := make(chan struct{}, 100)
	q.Busy = func() bool {
		select {
		case asked <- struct{}{}:
		default:
		}
		return busy.Load()
	}
	built := make(chan []string, 10)
	q.Built = func(games []string) { built <- games }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); q.Run(ctx) }()
	defer func() { cancel(); <-done }()
	q.Changed([]string{"q1"})
	<-asked
	<-asked // asked again: it waits
	if _, err := os.Stat(filepath.Join(b.Dir(), "games", "q1", "index.html")); err == nil {
		t.Fatal("pages built while the daemon was busy")
	}
	busy.Store(false)
	if games := <-built; len(games) != 1 || games[0] != "q1" {
		t.Fatalf("built %v", games)
	}
	if _, err := os.Stat(filepath.Join(b.Dir(), "games", "q1", "index.html")); err != nil {
		t.Fatalf("after the deadlines: %v", err)
	}
}
