package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"log/slog"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

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

// phaseJob is one game's phase on its way through processBatch: read in
// the transaction, resolved outside it (in parallel, the engines are
// pure), written back in the transaction.
type phaseJob struct {
	g      *store.Game
	e      adjudicator.Engine
	state  []byte
	open   store.OpenPhase // the phase as it stands when processed (for ROLLBACK)
	orders *standing       // the folded orders of the phase (standing.go)

	ords map[string][]string
	// botted are the powers whose orders the autopilot gave (autopilot.go).
	botted []string
	seed   int64
	out    adjudicator.Outcome
	st     adjudicator.Status
	err    error
	dur    time.Duration
	// position is the position after the phase for its results
	// (positionText), made here rather than in the transaction.
	position string
	// rec is the phase's record, made and encoded (enc) where it is
	// resolved, processed at now (the batch's time) and late or not.
	rec  store.PhaseRecord
	enc  store.EncodedPhase
	now  time.Time
	late bool
	// resolved is closed once out, st, err, dur and the record (rec, enc)
	// are set (processBatch).
	resolved chan struct{}
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

// parallel runs fn(0) … fn(n-1) on up to GOMAXPROCS goroutines.
func parallel(n int, fn func(int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
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

// resolve runs the engine: no store; the clock only to time it for the
// metrics (time.Now's readings subtract on the monotonic clock).
func (j *phaseJob) resolve(now func() time.Time) {
	t0 := now()
	defer func() { j.dur = now().Sub(t0) }()
	merge := mergeFor(j.e, j.state)
	j.orders.fold(merge) // only what no mail folded yet (GM SET ORDERS, an old store)
	j.ords = j.orders.orders(merge)
	if j.botted, j.err = j.autopilot(); j.err != nil { // autopilot.go
		return
	}
	j.out, j.err = j.e.Resolve(j.state, j.ords, j.seed)
	if j.err == nil {
		j.st, j.err = j.e.Status(j.out.Next)
	}
	if j.err != nil {
		return
	}
	j.position = positionText(j.e, j.st)
	g := j.g
	j.rec = store.PhaseRecord{
		Phase: g.Phase, PhaseID: g.PhaseID, Title: g.PhaseTitle, Seed: j.seed, Deadline: g.Deadline,
		Processed: j.now.UTC(), Late: j.late, StateBefore: j.state, StateAfter: j.out.Next, Orders: j.ords,
		Public: j.out.Report.Public, Position: j.position, Private: j.out.Report.Private, Data: j.out.Report.Data, Open: &j.open,
		Autopilot: j.botted,
	}
	j.enc, j.err = store.EncodePhase(j.rec)
}

// seedOf is the seed of g's open phase: the one it was opened with or, for
// a phase opened by an older release, the one derived the same way.
func seedOf(g *store.Game) int64 {
	if g.PhaseSeed != 0 {
		return g.PhaseSeed
	}
	return phaseSeed(g.Seed, g.Phase)
}

// phaseSeed derives the seed of one phase from the game's master seed.
func phaseSeed(master int64, phase int) int64 {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(master))
	binary.BigEndian.PutUint64(b[8:], uint64(phase))
	sum := sha256.Sum256(b[:])
	return int64(binary.BigEndian.Uint64(sum[:8]) >> 1)
}

// applyPhase writes a resolved phase: history, new state, the game's next
// phase, and the results mail.
func (d *Daemon) applyPhase(tx *txn, job *phaseJob, now time.Time) error {
	g := job.g
	log := d.log.With("game", g.Name, "phase", g.PhaseID)
	d.metrics.AdjudicationNs.Add(int64(job.dur))
	if job.err != nil {
		// An engine error is a bug, not bad input: stop the game and
		// tell the GM rather than retry it every tick.
		log.Error("adjudication failed; game paused", "err", job.err)
		pauseGame(g, "adjudication failed: "+job.err.Error(), now, now.Add(100*365*24*time.Hour))
		if err := tx.PutGame(g); err != nil {
			return err
		}
		return d.alertGM(tx, g, "Adjudication failed", fmt.Sprintf("I could not adjudicate %s of %s: %v\nThe game is paused. Check the orders (HISTORY, STATUS), fix with SET ORDERS or ROLLBACK, then RESUME.", g.PhaseTitle, g.Name, job.err))
	}
	out, st, rec, late := job.out, job.st, job.rec, job.late
	if err := tx.PutEncodedPhase(g.Name, job.enc); err != nil {
		return err
	}
	if err := countPhase(tx.Tx, g, playersOrders(job.ords, job.botted)); err != nil { // reliability records (record.go)
		return err
	}
	if err := tx.PutState(g.Name, out.Next); err != nil {
		return err
	}
	lastOrdersEnd := g.LastOrdersEnd
	if adjudicator.PhaseKind(g.PhaseKind) == adjudicator.PhaseOrders {
		lastOrdersEnd = now.UTC()
	}
	if g.Options.Preview {
		g.Pending = &store.Pending{Phase: rec.Phase}
	}
	d.openPhase(g, nextPhase(g, st, g.Phase+1, lastOrdersEnd), now)
	d.metrics.PhasesProcessed.Add(1)
	log.Info("phase processed", "next", st.ID, "late", late)
	if err := tx.Audit(store.AuditEntry{Time: now.UTC(), Game: g.Name, Actor: "daemon", Action: "process", Detail: rec.PhaseID}); err != nil {
		return err
	}

	if g.Pending != nil {
		if err := tx.PutGame(g); err != nil {
			return err
		}
		return d.alertGM(tx, g, "Preview: "+rec.Title+" results",
			"These results are not yet public. Reply PUBLISH to send them to the players, or ROLLBACK to reopen the phase.\n\n"+
				d.resultsText(g, &rec, "", nil), tx.resultsPicture(g, &rec, "")...)
	}
	if st.Over {
		return d.endGame(tx, g, ruleResult(st, g), "", &rec)
	}
	if err := tx.PutGame(g); err != nil {
		return err
	}
	if err := d.publishResults(tx, g, &rec); err != nil {
		return err
	}
	if err := d.openAhead(tx, g, job.e, out.Next, now); err != nil { // ahead.go: orders sent ahead for this phase
		return err
	}
	return d.paceVoteNews(tx, g, job.open.CalYear) // calendar.go
}

// nextPhase is the value of a phase the engine has just opened, number
// phases into the game: its votes, ready flags, one-phase locks and
// reminders start empty; the pace votes and the seniors' LOCK JUNIORS
// ALWAYS carry on (a lock only while its senior is still the senior).
func nextPhase(g *store.Game, st adjudicator.Status, number int, lastOrdersEnd time.Time) store.OpenPhase {
	p := store.OpenPhase{
		Phase: number, PhaseID: st.ID, PhaseTitle: st.Title, PhaseKind: string(st.Kind),
		PhaseSeed: phaseSeed(g.Seed, number), LastOrdersEnd: lastOrdersEnd,
		Waiting: st.Waiting, Alive: st.Alive, PaceVotes: maps.Clone(g.PaceVotes),
	}
	advanceCalendar(g.OpenPhase, st, &p, number == 0) // calendar.go
	for power, l := range g.Locks {
		if l.Always && l.By == seniorOf(g, power) {
			if p.Locks == nil {
				p.Locks = map[string]store.Lock{}
			}
			p.Locks[power] = l
		}
	}
	return p
}

// openPhase is the one writer that opens a phase: at the start, after each
// processed phase, at the PUBLISH of a previewed one and at ROLLBACK. p is
// the whole value of the phase (new from nextPhase, or as it was when
// processed); its clock starts now: the deadline comes from the schedule
// and no reminder has been sent. While results wait for the GM's PUBLISH
// (g.Pending) the phase has no deadline.
func (d *Daemon) openPhase(g *store.Game, p store.OpenPhase, now time.Time) {
	p.PhaseStarted = now.UTC()
	p.Reminded = nil
	p.Deadline = time.Time{}
	if g.Pending == nil {
		p.Deadline = d.phaseDeadline(g, &p, now) // calendar.go
	}
	p.FirstDeadline, p.Late, p.Graced, p.ProcessNow = time.Time{}, nil, nil, false // grace.go
	g.OpenPhase = p
}

// endGame is the one writer that ends a game: it marks g over and tells
// everyone. res is how it ended: the engine's Result when the rules ended
// it (rec is then the phase that did: its results go out first), or the
// GM's decision. The mail says res.Text as the engine wrote it; the daemon
// adds only what is its own (the prize, the GM's word).
func (d *Daemon) endGame(tx *txn, g *store.Game, res adjudicator.Result, why string, rec *store.PhaseRecord) error {
	how, winners := res.Kind, res.Winners
	now := d.now()
	noteSeniors(g, now)
	closeSeniors(g, now)
	if err := countFinished(tx.Tx, g); err != nil {
		return err
	}
	g.Ended = now.UTC()
	g.Status = store.Finished
	g.EndedAs = how
	g.Winners = winners
	g.Deadline = time.Time{}
	g.Pending = nil
	if rec != nil {
		if err := d.publishResults(tx, g, rec); err != nil { // says no deadline: the game is over
			return err
		}
	}
	if err := tx.Audit(store.AuditEntry{Time: now.UTC(), Game: g.Name, Actor: "daemon", Action: "end", Detail: how + ": " + strings.Join(winners, ", ")}); err != nil {
		return err
	}
	names := make([]string, len(winners))
	for i, w := range winners {
		names[i] = powerName(g, w)
	}
	var b strings.Builder
	switch {
	case res.Text != "":
		fmt.Fprintf(&b, "%s is over. %s\n", g.Name, res.Text)
	case how == "draw":
		fmt.Fprintf(&b, "%s has ended in a draw shared by %s.\n", g.Name, strings.Join(names, ", "))
	case len(names) == 1:
		fmt.Fprintf(&b, "%s has won %s.\n", names[0], g.Name)
	case len(names) > 1:
		fmt.Fprintf(&b, "%s have won %s together.\n", strings.Join(names, " and "), g.Name)
	default:
		fmt.Fprintf(&b, "The GM has ended %s.\n", g.Name)
	}
	if g.Options.DrawPrize {
		switch {
		case how == "draw":
			prize, drawn, err := d.drawPrize(tx.Tx, g, winners)
			if err != nil {
				return err
			}
			b.WriteString(prize)
			if drawn != "" && d.diplomats(g) && (len(seniorsOf(g, drawn, now)) > 1 || lostPower(g, seniorOf(g, drawn)) != "") {
				b.WriteString(prizeLine(g, drawn, now, true)) // several seniors: the longest serving (seniority.go)
			}
		case len(winners) == 1 && seniorOf(g, winners[0]) != "":
			b.WriteString(prizeLine(g, winners[0], now, d.diplomats(g))) // seniority.go
		}
	}
	b.WriteString(lostNote(g, winners))        // lost.go
	if err := rateGame(tx.Tx, g); err != nil { // ratings.go
		return err
	}
	scores, err := scoreEnd(tx, g, res) // scoring.go
	if err != nil {
		return err
	}
	b.WriteString(scores)
	if why != "" {
		b.WriteString(why + "\n")
	}
	if err := tx.PutGame(g); err != nil {
		return err
	}
	return d.publish(tx, g, fmt.Sprintf("[%s] Game over", g.Name), b.String(), nil)
}

// ruleResult is how the rules ended g, as its engine says (st.Result); an
// engine that names no result ended it as a draw of the survivors.
func ruleResult(st adjudicator.Status, g *store.Game) adjudicator.Result {
	if st.Result != nil {
		res := *st.Result
		if res.Kind == "draw" && len(res.Winners) == 0 {
			res.Winners = g.Alive
		}
		return res
	}
	return adjudicator.Result{Kind: "draw", Winners: g.Alive}
}

// resultsText is the mail body of a phase's results for one reader: the
// engine's public report, the reader's private part, and (while the game
// goes on) the next phase with its deadline in the reader's zone.
func (d *Daemon) resultsText(g *store.Game, rec *store.PhaseRecord, private string, p *store.Player) string {
	return resultsPublic(g, rec) + d.resultsOwn(g, private, p)
}

// resultsPublic is the part of the results every reader gets alike, the
// beginning of every results mail of the phase: the lateness, the
// engine's public report, and the game's own late note.
func resultsPublic(g *store.Game, rec *store.PhaseRecord) string {
	var b strings.Builder
	if rec.Late {
		fmt.Fprintf(&b, "Note: I processed this phase late (deadline %s, processed %s). Sorry for the delay.\n\n",
			rec.Deadline.UTC().Format("2006-01-02 15:04 MST"), rec.Processed.UTC().Format("2006-01-02 15:04 MST"))
	}
	if rec.Open != nil && rec.Open.ProcessNow {
		b.WriteString("Processed early by the GM.\n\n") // PROCESS (gm.go) sends no mail of its own
	}
	b.WriteString(strings.TrimRight(rec.Public+rec.Position, "\n"))
	b.WriteString("\n")
	b.WriteString(lateNote(g, rec))      // grace.go: public, before the reader's own part
	b.WriteString(autopilotNote(g, rec)) // autopilot.go
	return b.String()
}

// resultsOwn is the rest of one reader's results: their private part and
// the next deadline in their zone.
func (d *Daemon) resultsOwn(g *store.Game, private string, p *store.Player) string {
	var b strings.Builder
	if private != "" {
		b.WriteString("\n--- for you only ---\n")
		b.WriteString(strings.TrimRight(private, "\n"))
		b.WriteString("\n")
	}
	if g.Status == store.Active && !g.Deadline.IsZero() {
		fmt.Fprintf(&b, "\n%s: orders due by %s\n", g.PhaseTitle, d.showTime(g.Deadline, p))
	}
	return b.String()
}

// publishResults mails a processed phase's results: each diplomat gets the
// public part with their power's private part, observers the public part,
// the GM a copy. The public part begins every one of them, and is kept
// once in the outbox for all (Outgoing.Shared).
func (d *Daemon) publishResults(tx *txn, g *store.Game, rec *store.PhaseRecord) error {
	subject := fmt.Sprintf("[%s] %s — results", g.Name, rec.Title)
	shared := resultsPublic(g, rec) + d.webLine(g, rec) // web.go
	briefs := d.briefs(g, rec)
	first := len(tx.mails)
	// A reader's text depends on their power and their zone only
	// (resultsBrief, resultsOwn): players alike share one string, made once.
	type reader struct{ power, zone string }
	texts := map[reader]string{}
	for i := range g.Players {
		p := &g.Players[i]
		if p.Left {
			continue
		}
		r := reader{p.Power, p.Zone}
		text, ok := texts[r]
		if !ok {
			text = d.resultsBrief(g, p, briefs[p.Power]) + shared + d.resultsOwn(g, rec.Private[p.Power], p)
			texts[r] = text
		}
		if err := d.send(tx, &Outgoing{To: []string{p.Address}, Subject: subject, Text: text, ReplyToken: p.Token, Game: g.Name, Phase: g.PhaseID,
			Pictures: tx.resultsPicture(g, rec, p.Power)}); err != nil {
			return err
		}
	}
	public := shared + d.resultsOwn(g, "", nil)
	for _, o := range g.Observers {
		if err := d.send(tx, &Outgoing{To: []string{o.Address}, Subject: subject, Text: public, ReplyToken: o.Token, Game: g.Name, Phase: g.PhaseID,
			Pictures: tx.resultsPicture(g, rec, "")}); err != nil {
			return err
		}
	}
	if err := d.gmCopy(tx, g, subject, public, tx.resultsPicture(g, rec, "")...); err != nil {
		return err
	}
	sh := newSharedText(shared)
	for _, m := range tx.mails[first:] {
		m.Shared = sh
	}
	return nil
}

// briefs is what the phase of rec did to each power, as g's engine says
// it (adjudicator.Briefer); nil when it says nothing. A brief the engine
// cannot make is logged and left out: the full results follow anyway.
func (d *Daemon) briefs(g *store.Game, rec *store.PhaseRecord) map[string]string {
	e, err := engineFor(g)
	if err != nil {
		return nil
	}
	br, ok := e.(adjudicator.Briefer)
	if !ok {
		return nil
	}
	briefs, err := br.Brief(rec.StateBefore, rec.StateAfter, rec.Data)
	if err != nil {
		d.log.Warn("no briefs in the results", "game", g.Name, "phase", rec.PhaseID, "err", err)
		return nil
	}
	return briefs
}

// resultsBrief is the opening of a player's results mail: a line or two
// of what the phase did to their power (brief, the engine's), then what
// they owe next and by when; a blank line before the full results.
func (d *Daemon) resultsBrief(g *store.Game, p *store.Player, brief string) string {
	var b strings.Builder
	if brief != "" {
		b.WriteString(powerName(g, p.Power) + ": " + brief)
	}
	if g.Status == store.Active && !g.Deadline.IsZero() {
		if slices.Contains(g.Waiting, p.Power) {
			fmt.Fprintf(&b, "Next: your orders for %s, due by %s.\n", g.PhaseTitle, d.showTime(g.Deadline, p))
		} else {
			fmt.Fprintf(&b, "Next: %s, in which %s owes no orders (it ends by %s).\n", g.PhaseTitle, powerName(g, p.Power), d.showTime(g.Deadline, p))
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return b.String() + "\n"
}

// publish mails an announcement to every diplomat and observer, and the GM.
// skip lists addresses that get nothing (the sender of press, say).
func (d *Daemon) publish(tx *txn, g *store.Game, subject, text string, skip map[string]bool) error {
	return d.publishThread(tx, g, subject, text, skip, "")
}

// publishThread is publish with the mails in a thread (References).
func (d *Daemon) publishThread(tx *txn, g *store.Game, subject, text string, skip map[string]bool, thread string) error {
	return d.publishPictured(tx, g, subject, text, skip, thread, nil)
}

// publishPictured is publishThread with the pictures picFor gives each
// reader's power ("" for observers and the GM); picFor nil: none.
func (d *Daemon) publishPictured(tx *txn, g *store.Game, subject, text string, skip map[string]bool, thread string, picFor func(power string) []*mailPicture) error {
	if picFor == nil {
		picFor = func(string) []*mailPicture { return nil }
	}
	var refs []string
	if thread != "" {
		refs = []string{thread}
	}
	for i := range g.Players {
		p := &g.Players[i]
		if p.Left || skip[p.Address] {
			continue
		}
		if err := d.send(tx, &Outgoing{To: []string{p.Address}, Subject: subject, Text: text, ReplyToken: p.Token, References: refs, Game: g.Name, Phase: g.PhaseID,
			Pictures: picFor(p.Power)}); err != nil {
			return err
		}
	}
	for _, o := range g.Observers {
		if skip[o.Address] {
			continue
		}
		if err := d.send(tx, &Outgoing{To: []string{o.Address}, Subject: subject, Text: text, ReplyToken: o.Token, References: refs, Game: g.Name, Phase: g.PhaseID,
			Pictures: picFor("")}); err != nil {
			return err
		}
	}
	return d.gmCopy(tx, g, subject, text, picFor("")...)
}

// gmCopy sends the GM(s) of g a copy, replyable with the GM token, with
// the pictures given.
func (d *Daemon) gmCopy(tx *txn, g *store.Game, subject, text string, pics ...*mailPicture) error {
	to := g.GM
	if len(to) == 0 {
		to = d.opt.GM
	}
	if len(to) == 0 {
		return nil
	}
	return d.send(tx, &Outgoing{To: to, Subject: subject, Text: text + "\n(GM copy: reply to this mail with GM commands for " + g.Name + ".)", ReplyToken: g.GMToken, Game: g.Name, Phase: g.PhaseID, Pictures: pics})
}

// alertGM tells the GM of g (or the site GM) something that needs them,
// with the pictures given (a preview's).
func (d *Daemon) alertGM(tx *txn, g *store.Game, subject, text string, pics ...*mailPicture) error {
	name := "site"
	token, err := tx.SiteToken()
	if err != nil {
		return err
	}
	to := d.opt.GM
	if g != nil {
		name = g.Name
		token = g.GMToken
		if len(g.GM) > 0 {
			to = g.GM
		}
	}
	if len(to) == 0 {
		d.log.Warn("GM alert with no GM address configured", "game", name, "subject", subject)
		return nil
	}
	return d.send(tx, &Outgoing{To: to, Subject: fmt.Sprintf("[%s] GM: %s", name, subject), Text: text, ReplyToken: token, Game: gameName(g), Phase: phaseOf(g), Alert: true, Pictures: pics})
}

// remind mails the powers that still owe orders when a deadline comes
// within one of the schedule's reminder offsets.
func (d *Daemon) remind(now time.Time) error {
	var horizon time.Duration
	for _, r := range d.opt.Schedule.Reminders {
		horizon = max(horizon, r)
	}
	if horizon == 0 {
		return nil
	}
	// Not the games due already (before now's second): their deadline
	// has passed, so nobody is reminded of it (remindGame), and a burst of
	// deadlines would read each of them once more for nothing.
	var names []string
	if err := d.db.View(func(tx *store.Tx) error {
		names = tx.DueBetween(now, now.Add(horizon))
		return nil
	}); err != nil {
		return err
	}
	if len(names) == 0 {
		return nil
	}
	for start := 0; start < len(names); start += tickBatch {
		batch := names[start:min(start+tickBatch, len(names))]
		err := d.update(func(tx *txn) error {
			for _, name := range batch {
				if err := d.remindGame(tx, name, now); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *Daemon) remindGame(tx *txn, name string, now time.Time) error {
	g, err := tx.Game(name)
	if err != nil || g.Status != store.Active || g.Paused || g.Pending != nil || !g.Deadline.After(now) {
		return err
	}
	left := g.Deadline.Sub(now)
	length := g.Deadline.Sub(g.PhaseStarted)
	var due store.Offsets
	send := false
	for _, r := range d.opt.Schedule.Reminders {
		if left <= r && !slices.Contains(g.Reminded, r) {
			due = append(due, r)
			// A phase hardly longer than the offset gets no reminder for
			// it: the players have just had the results.
			send = send || length > r+r/4
		}
	}
	if len(due) == 0 {
		return nil
	}
	g.Reminded = append(g.Reminded, due...)
	if !send {
		return tx.PutGame(g)
	}
	st, err := loadStanding(tx.Tx, g)
	if err != nil {
		return err
	}
	for _, power := range g.Waiting {
		if st.sent(power) {
			continue
		}
		for i := range g.Players {
			p := &g.Players[i]
			if p.Power != power || p.Left {
				continue
			}
			text := fmt.Sprintf("Reminder: I have no orders from %s for %s of %s.\nDeadline: %s (in %s).\n\nReply to this mail with your orders. What you do not order follows the civil disorder rule (RULES explains it).",
				powerName(g, power), g.PhaseTitle, g.Name, d.showTime(g.Deadline, p), humanDuration(left))
			if err := d.send(tx, &Outgoing{To: []string{p.Address}, Subject: fmt.Sprintf("[%s] Reminder: %s orders due", g.Name, g.PhaseTitle), Text: text, ReplyToken: p.Token, Game: g.Name, Phase: g.PhaseID}); err != nil {
				return err
			}
		}
	}
	if err := d.remindOffers(tx, g, now); err != nil { // offers.go
		return err
	}
	return tx.PutGame(g)
}
