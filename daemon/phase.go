package daemon

import (
	"fmt"
	"maps"
	"strings"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

// The third step of a deadline's way (due.go): a resolved phase recorded,
// and the next phase opened or the game ended.

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
