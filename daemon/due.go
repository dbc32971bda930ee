package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

// A deadline's way, read in order: due.go lists the games whose deadline
// has passed and settles those that need no adjudication (a pause run
// out, the late policy's wait); resolve.go resolves each phase through
// its engine; phase.go records it and opens the next phase or ends the
// game; results.go composes the mails; outgoing.go queues them. game.go
// holds what every step asks of a game (its engine, its names, its
// players), as the commands do.

// tickBatch is how many due games share one transaction: each game's
// effects are still all-or-nothing, and a burst of deadlines costs one
// commit per batch rather than per game. Smaller batches commit more
// often, larger ones hold the write lock longer and keep more mail and
// dirty pages in the heap at once; BenchmarkDeadlineBurst weighs the two.
const tickBatch = 256

// Tick sends due reminders and processes every game whose deadline has
// passed, each phase exactly once (the history refuses a second record of
// the same phase, and the due index moves on in the same transaction).
func (d *Daemon) Tick(ctx context.Context) error {
	d.tickMu.Lock()
	defer d.tickMu.Unlock()
	now := d.now()
	d.tickStarted.Store(now.UnixNano())
	defer d.tickStarted.Store(0)
	if err := d.remind(now); err != nil {
		return err
	}
	if err := d.sendHeldDue(now); err != nil { // fanout.go
		return err
	}
	// A picture left undrawn by a daemon killed last time is drawn
	// first. Then each batch of due games has its results committed, their
	// mails held, and its pictures drawn outside the write transaction
	// (mail is handled meanwhile); the mails go as the pictures are stored.
	if !d.opt.DeferPictures {
		if err := d.drawPending(); err != nil {
			return err
		}
	}
	return d.processDue(ctx, now)
}

// TickRunning reports when the Tick in progress started, by the daemon's
// clock, if one is in progress: a health check calls a tick that has run
// for long a failure (no deadline is processed meanwhile).
func (d *Daemon) TickRunning() (time.Time, bool) {
	ns := d.tickStarted.Load()
	if ns == 0 {
		return time.Time{}, false
	}
	return time.Unix(0, ns).UTC(), true
}

// processDue processes every game whose deadline has passed, tickBatch
// games a transaction; each batch's pictures are drawn while the next is
// adjudicated (pictureLine).
func (d *Daemon) processDue(ctx context.Context, now time.Time) (err error) {
	line := d.newPictureLine()
	defer func() {
		if lerr := line.close(); err == nil {
			err = lerr
		}
	}()
	// A pass lists what is due and handles it; a phase processed may open
	// one that is due at once, so passes go on while one moved something.
	// Each game handled comes back in a later pass only once it has moved
	// on (dueGuard), so the passes end.
	guard := newDueGuard(d.log)
	for {
		var due []string
		if err := d.db.View(func(tx *store.Tx) error {
			due = tx.Due(now, 0)
			return nil
		}); err != nil {
			return err
		}
		if len(due) == 0 {
			return nil
		}
		progressed := false
		for len(due) > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			batch := due[:min(tickBatch, len(due))]
			due = due[len(batch):]
			pics, err := d.updateHeld(func(tx *txn) error {
				moved, err := d.processBatch(tx, batch, now, guard)
				progressed = progressed || moved
				return err
			})
			if err != nil {
				return err
			}
			if d.opt.DeferPictures {
				continue // measurement only: held for the next Tick (Options)
			}
			if err := line.add(pics); err != nil {
				return err
			}
		}
		if !progressed {
			return nil
		}
	}
}

// processBatch processes the due games of one transaction: it reads them,
// resolves their phases on every core as they are read, writes the
// results in order as they are resolved, and each game's mails while the
// next games are written (writeMails). The write lock of the transaction
// is held throughout, so no mail can change a game between the read and
// the write.
func (d *Daemon) processBatch(tx *txn, names []string, now time.Time, guard *dueGuard) (bool, error) {
	progressed := false
	var jobs []*phaseJob
	resolving := make(chan *phaseJob, len(names))
	var wg sync.WaitGroup
	defer wg.Wait() // an error: the resolvers finish what they were given
	for range min(runtime.GOMAXPROCS(0), len(names)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range resolving { // pure: no store
				job.resolve(d.now)
				close(job.resolved)
			}
		}()
	}
	tx.PrefetchGames(names)  // decoded on every core, before the resolvers start,
	tx.PrefetchOrders(names) // and their open phases' standing orders
	for _, name := range names {
		job, moved, err := d.loadDue(tx, name, now, guard)
		if err != nil {
			close(resolving)
			return false, fmt.Errorf("game %s: %w", name, err)
		}
		progressed = progressed || moved
		if job != nil {
			job.resolved = make(chan struct{})
			jobs = append(jobs, job)
			resolving <- job
		}
	}
	close(resolving)
	for _, job := range jobs {
		<-job.resolved
		if err := d.applyPhase(tx, job, now); err != nil {
			return false, fmt.Errorf("game %s: %w", job.g.Name, err)
		}
		if err := d.writeMails(tx, false); err != nil {
			return false, err
		}
	}
	return progressed, nil
}

// loadDue handles one game found in the due index: paused and stale
// entries are settled here; a game to adjudicate comes back as a job. It
// reports whether it changed anything (moved): a game the index lists
// but that is not due yet (its deadline falls later in now's second)
// changes nothing and waits for a later tick.
func (d *Daemon) loadDue(tx *txn, name string, now time.Time, guard *dueGuard) (*phaseJob, bool, error) {
	g, err := tx.Game(name)
	if err != nil {
		return nil, false, err
	}
	if g.Status != store.Active {
		return reindex(tx, g) // drops the stale index entry
	}
	if g.Paused && now.Before(g.PausedUntil) {
		return reindex(tx, g)
	}
	if !g.Paused && (g.Pending != nil || g.Deadline.IsZero() || g.Deadline.After(now)) {
		return reindex(tx, g) // index out of step with the record, or due later in now's second
	}
	if guard.again(g) {
		return nil, false, nil
	}
	if g.Paused {
		return nil, true, d.resume(tx, g, now, "The pause has run out (a pause must be renewed by the GM to last longer).")
	}
	// The standing orders are read once, for the late policy and the
	// adjudication: atDeadline changes nothing they were read by (the
	// game's name, phase, struck diplomats and locks).
	orders, err := loadStanding(tx.Tx, g)
	if err != nil {
		return nil, false, err
	}
	if wait, err := d.atDeadline(tx, g, orders, now); err != nil || wait { // grace.go: the late policy
		if err != nil {
			return nil, false, err
		}
		return nil, true, tx.PutGame(g)
	}
	job := &phaseJob{g: g, seed: seedOf(g), open: g.OpenPhase.Clone(), orders: orders, now: now, late: now.Sub(g.Deadline) > d.opt.Schedule.LateGrace}
	if job.e, err = engineFor(g); err != nil {
		return nil, false, err
	}
	if job.state, err = tx.State(g.Name); err != nil {
		return nil, false, err
	}
	return job, true, nil
}

// reindex puts g's due-index entry in step; it moved something only when
// the entry was stale.
func reindex(tx *txn, g *store.Game) (*phaseJob, bool, error) {
	moved, err := tx.Reindex(g)
	return nil, moved, err
}

// dueGuard keeps one tick's passes from handling a game twice at the same
// point: a game handled in one pass (resumed, its deadline moved by the
// late policy, its phase processed) is handled again in a later pass of
// the same tick only when it has moved on: a later phase, a pause begun
// or ended, or a due time strictly later. Otherwise it is left for the
// next tick and logged, once a tick, as the bug it is.
type dueGuard struct {
	log     *slog.Logger
	handled map[string]dueMark
	skipped map[string]bool
}

// dueMark is where a game stood when a pass handled it.
type dueMark struct {
	phase  int
	paused bool
	due    time.Time
}

func newDueGuard(log *slog.Logger) *dueGuard {
	return &dueGuard{log: log, handled: map[string]dueMark{}, skipped: map[string]bool{}}
}

func markOf(g *store.Game) dueMark {
	if g.Paused {
		return dueMark{phase: g.Phase, paused: true, due: g.PausedUntil}
	}
	return dueMark{phase: g.Phase, due: g.Deadline}
}

// again reports whether g was handled earlier in this tick and has not
// moved on since; otherwise it records g as handled now (call it before
// changing g).
func (gd *dueGuard) again(g *store.Game) bool {
	now := markOf(g)
	if last, ok := gd.handled[g.Name]; ok && now.phase == last.phase && now.paused == last.paused && !now.due.After(last.due) {
		if !gd.skipped[g.Name] {
			gd.skipped[g.Name] = true
			gd.log.Error("game due again in the same tick without having moved on; left for the next tick",
				"game", g.Name, "phase", g.PhaseID, "due", now.due, "paused", now.paused)
		}
		return true
	}
	gd.handled[g.Name] = now
	return false
}

// maybeEarly makes the phase due now when it may end early: a sequential
// game's turn, and at the fast pace a retreat or build phase, end as soon
// as every power that owes orders has sent them; with process-early on,
// any phase ends when every such power is READY.
func (mc *mailCtx) maybeEarly() error {
	return mc.d.maybeEarly(mc.tx, mc.game, mc.engine, mc.state, mc.now)
}

// maybeEarly is mailCtx.maybeEarly for game g, whose engine is e and state
// state, at now: after a mail, and after orders sent ahead (ahead.go).
func (d *Daemon) maybeEarly(tx *txn, g *store.Game, e adjudicator.Engine, state []byte, now time.Time) error {
	if g.Status != store.Active || g.Paused || g.Pending != nil {
		return nil
	}
	kind := adjudicator.PhaseKind(g.PhaseKind)
	ps, err := tx.status(g, e, state) // memo.go
	if err != nil {
		return err
	}
	// A phase whose orders end it (the engine says: a sequential game's
	// turn) ends when its players have moved; so does, at the fast pace,
	// a retreat or build phase when all who owe have sent.
	onReceipt := ps.EndsTurn ||
		g.Options.Pace == "fast" && (kind == adjudicator.PhaseRetreat || kind == adjudicator.PhaseBuild)
	if !onReceipt && !g.Options.ProcessEarly && len(g.Graced) == 0 {
		return nil
	}
	st, err := loadStanding(tx.Tx, g) // not every version: see standing.go
	if err != nil {
		return err
	}
	if waiting, done := waitingLate(g, st); waiting { // grace.go: the late powers have all ordered
		if done && g.Deadline.After(now) {
			g.Deadline = now
		}
		return nil
	}
	for _, p := range g.Waiting {
		if onReceipt && !st.sent(p) {
			return nil
		}
		if !onReceipt && !g.Ready[p] {
			return nil
		}
	}
	if hold, err := offersHold(tx.Tx, e, state, g); hold || err != nil { // offers.go: every offer is answered first
		return err
	}
	if g.Deadline.After(now) {
		g.Deadline = now
	}
	return nil
}
