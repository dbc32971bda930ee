package web

import (
	"context"
	"slices"
	"sync"
	"time"

	"pbemd/store"
)

// Queue builds the pages of the games it is told about, one after the
// other, in its own goroutine (Run): the daemon tells it after a commit
// (daemon.Web.Changed) and goes on at once, so results mails never wait
// for pages. A burst of many games' results is built after the mails are
// queued, each game once however many times it was named meanwhile, and
// the site's index once per round.
type Queue struct {
	b     *Builder
	mu    sync.Mutex
	dirty map[string]bool
	kick  chan struct{}
	// Built, when set, is called after each round with the games built
	// (tests wait on it).
	Built func(games []string)
	// Busy, when set, says the daemon is processing deadlines: the queue
	// then waits, between two games, for it to end, so that a burst's
	// results mails have the cores first and the pages follow.
	Busy func() bool
}

// busyPoll is how often a waiting queue looks whether the daemon is done.
const busyPoll = 50 * time.Millisecond

// idle waits while Busy says so; false when ctx ended meanwhile.
func (q *Queue) idle(ctx context.Context) bool {
	for q.Busy != nil && q.Busy() {
		t := time.NewTimer(busyPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		}
	}
	return ctx.Err() == nil
}

// NewQueue returns a queue over b.
func NewQueue(b *Builder) *Queue {
	return &Queue{b: b, dirty: map[string]bool{}, kick: make(chan struct{}, 1)}
}

// Changed notes that games' pages may have changed; it never blocks.
func (q *Queue) Changed(games []string) {
	q.mu.Lock()
	for _, g := range games {
		q.dirty[g] = true
	}
	q.mu.Unlock()
	select {
	case q.kick <- struct{}{}:
	default:
	}
}

// Run builds every game's pages once (what changed while pbemd was down),
// then those of the games it is told about, until ctx ends; never while
// Busy says the daemon is processing deadlines. A game whose
// pages fail is logged and tried again the next time it changes.
func (q *Queue) Run(ctx context.Context) error {
	var all []string
	if err := q.b.db.View(func(tx *store.Tx) error { all = tx.Games(); return nil }); err != nil {
		q.b.log.Error("web pages", "err", err)
	}
	q.Changed(all) // built as any other change: after the deadlines in progress
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-q.kick:
		}
		q.mu.Lock()
		games := make([]string, 0, len(q.dirty))
		for g := range q.dirty {
			games = append(games, g)
		}
		clear(q.dirty)
		q.mu.Unlock()
		slices.Sort(games)
		for _, g := range games {
			if !q.idle(ctx) {
				return nil
			}
			if err := q.b.Game(g); err != nil {
				q.b.log.Error("web pages", "game", g, "err", err)
			}
		}
		if err := q.b.Index(); err != nil {
			q.b.log.Error("web index", "err", err)
		}
		if q.Built != nil {
			q.Built(games)
		}
	}
}
