package daemon

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"pbemd/adjudicator"
	"pbemd/orders"
	"pbemd/store"
)

// The GM's overrides (commandTable), each allowed only to the game's GM
// (by the GM token of a reply, or SIGNON GM with the GM password). Each is
// acknowledged with what changed, audited, and announced to the players
// unless the mail said SILENT first. A command that would break the game is
// refused with the reason and changes nothing.

func needActive(mc *mailCtx, verb orders.Verb) bool {
	if mc.game.Status != store.Active {
		mc.say("%s refused: %s is %s, not running. Nothing was changed.", verb, mc.game.Name, mc.game.Status)
		return false
	}
	return true
}

func gmSilent(mc *mailCtx, _ *orders.Command) error {
	mc.silent = true
	mc.say("SILENT: the players are not told about the changes in this mail.")
	return nil
}

func gmStart(mc *mailCtx, _ *orders.Command) error {
	g := mc.game
	if g.Status != store.Forming {
		mc.say("START refused: %s has already started.", g.Name)
		return nil
	}
	if countPlayers(g) == 0 {
		mc.say("START refused: nobody has joined %s yet.", g.Name)
		return nil
	}
	if err := mc.d.startGame(mc.tx, g); err != nil {
		return err
	}
	n := countPlayers(g)
	mc.say("%s started with %d player%s: %s. Deadline %s.", g.Name, n, plural(n), g.PhaseTitle, mc.d.showTime(g.Deadline, nil))
	return mc.audit("start", "")
}

func gmProcess(mc *mailCtx, _ *orders.Command) error {
	if !needActive(mc, orders.VerbProcess) {
		return nil
	}
	g := mc.game
	if g.Pending != nil {
		mc.say("PROCESS refused: the results of the last phase await PUBLISH or ROLLBACK.")
		return nil
	}
	if g.Paused {
		mc.say("PROCESS refused: the game is paused; RESUME it first.")
		return nil
	}
	g.Deadline = mc.now.UTC()
	g.ProcessNow = true // no late policy waits (grace.go)
	// No mail of its own to the players: the results say the GM processed
	// the phase early (resultsPublic), and the GM gets this answer and the
	// results, or the preview.
	if g.Options.Preview {
		mc.say("%s of %s will be processed now (within the minute). Preview is on: the results come to you first; PUBLISH sends them to the players.", g.PhaseTitle, g.Name)
	} else {
		mc.say("%s of %s will be processed now (within the minute); the results, which say you processed it early, go to everyone.", g.PhaseTitle, g.Name)
	}
	return mc.audit("process", g.PhaseID)
}

func gmPause(mc *mailCtx, cmd *orders.Command) error {
	if !needActive(mc, orders.VerbPause) {
		return nil
	}
	g := mc.game
	reason := strings.TrimSpace(cmd.Arg)
	if reason == "" {
		reason = "no reason given"
	}
	pauseGame(g, reason, mc.now, mc.now.Add(mc.d.opt.Schedule.PauseCap))
	mc.say("%s is paused (%s) until RESUME, at most until %s; PAUSE again to renew.", g.Name, reason, mc.d.showTime(g.PausedUntil, nil))
	if err := mc.audit("pause", reason); err != nil {
		return err
	}
	return mc.announce("Game paused", fmt.Sprintf("The GM has paused the game: %s\nThe deadline is suspended; you will be told when it resumes.", reason))
}

func gmResume(mc *mailCtx, _ *orders.Command) error {
	g := mc.game
	if !g.Paused {
		mc.say("RESUME: %s is not paused.", g.Name)
		return nil
	}
	if err := mc.audit("resume", ""); err != nil {
		return err
	}
	mc.say("%s resumes.", g.Name)
	endPause(g, mc.now)
	return mc.announce("Game resumed", mc.d.resumedText(g, "The GM has resumed the game."))
}

// pauseGame stops the clock of g's phase, at most until until; a pause
// renewed keeps the time it began (the phase's time left counts from it).
func pauseGame(g *store.Game, reason string, now, until time.Time) {
	if !g.Paused {
		g.PausedAt = now.UTC()
	}
	g.Paused, g.PauseReason, g.PausedUntil = true, reason, until.UTC()
}

// endPause is the one writer that ends a pause (RESUME, SILENT or not,
// and a pause that runs out): the phase gets the time it had left, and
// nothing of the pause stays in the record.
func endPause(g *store.Game, now time.Time) {
	g.Deadline = resumedDeadline(g, now)
	g.Paused, g.PauseReason, g.PausedAt, g.PausedUntil = false, "", time.Time{}, time.Time{}
}

// resumedDeadline gives a resumed phase the time it had left when paused,
// but never less than 12 hours.
func resumedDeadline(g *store.Game, now time.Time) time.Time {
	left := g.Deadline.Sub(g.PausedAt)
	if g.PausedAt.IsZero() || left < 12*time.Hour {
		left = 12 * time.Hour
	}
	return now.Add(left).UTC()
}

// resume ends a pause and tells everyone the new deadline.
func (d *Daemon) resume(tx *txn, g *store.Game, now time.Time, why string) error {
	endPause(g, now)
	if err := tx.PutGame(g); err != nil {
		return err
	}
	return d.publish(tx, g, fmt.Sprintf("[%s] Game resumed", g.Name), d.resumedText(g, why), nil)
}

// resumedText is the announcement of a resumed game.
func (d *Daemon) resumedText(g *store.Game, why string) string {
	return fmt.Sprintf("%s\n%s — deadline %s.\n", why, g.PhaseTitle, d.showTime(g.Deadline, nil))
}

// The bounds of what a GM may write: every duration (EXTEND, DEADLINE +…,
// turn_time, the schedule's lengths and pause cap) runs from a minute to
// 90 days, and no deadline lies more than a year ahead. Past them a time
// overflows or a game would sleep for good; they are refused with a reason.
const (
	minDuration = time.Minute
	maxDuration = 90 * 24 * time.Hour
	maxAhead    = 365 * 24 * time.Hour
)

var deadlineLayouts = []string{
	time.RFC3339, "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02 15:04 MST", "2 Jan 2006 15:04", "2006-01-02",
}

// parseDeadline reads an absolute time (UTC unless a zone is written) or a
// relative one ("+36h"); either must lie within a year of now.
func parseDeadline(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "+") {
		d, err := parseDuration(s[1:])
		return now.Add(d), err
	}
	for _, l := range deadlineLayouts {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil {
			if l == "2006-01-02" {
				t = t.Add(21 * time.Hour)
			}
			if t.After(now.Add(maxAhead)) {
				return time.Time{}, fmt.Errorf("%s is more than a year ahead; a deadline must fall within a year (by %s)", t.UTC().Format("2006-01-02 15:04 MST"), now.Add(maxAhead).UTC().Format("2006-01-02"))
			}
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time I can read; write e.g. 2026-12-24 21:00 (UTC) or +36h", s)
}

// durationRE is compiled at its first use, not by every start of pbemd.
var durationRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\d{1,12}(?:\.\d{1,6})?)\s*(m|min|mins|minutes?|h|hrs?|hours?|d|days?|w|weeks?)$`)
})

// parseDuration reads "36h", "2 days", "90 minutes", "1w" (Go durations
// too), from a minute to 90 days.
func parseDuration(s string) (time.Duration, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if d, err := time.ParseDuration(s); err == nil {
		return boundDuration(s, float64(d))
	}
	m := durationRE().FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("%q is not a duration I can read; write e.g. 24h, 2 days or 90 minutes", s)
	}
	n, _ := strconv.ParseFloat(m[1], 64)
	unit := time.Minute
	switch m[2][0] {
	case 'h':
		unit = time.Hour
	case 'd':
		unit = 24 * time.Hour
	case 'w':
		unit = 7 * 24 * time.Hour
	}
	return boundDuration(s, n*float64(unit)) // compared as a float: no overflow
}

// boundDuration checks a duration of ns nanoseconds against the bounds.
func boundDuration(s string, ns float64) (time.Duration, error) {
	switch {
	case ns > float64(maxDuration):
		return 0, fmt.Errorf("%s is too long: a duration runs from a minute to 90 days", s)
	case ns < float64(minDuration):
		return 0, fmt.Errorf("%s is too short: a duration runs from a minute to 90 days", s)
	}
	return time.Duration(ns), nil
}

func gmDeadline(mc *mailCtx, cmd *orders.Command) error {
	if !needActive(mc, orders.VerbDeadline) {
		return nil
	}
	t, err := parseDeadline(cmd.Arg, mc.now)
	if err != nil {
		mc.say("DEADLINE refused: %v. Nothing was changed.", err)
		return nil
	}
	if !t.After(mc.now) {
		mc.say("DEADLINE refused: %s is in the past; use PROCESS to process now.", t.Format("2006-01-02 15:04 MST"))
		return nil
	}
	return setDeadline(mc, t, "deadline")
}

func setDeadline(mc *mailCtx, t time.Time, action string) error {
	g := mc.game
	g.Deadline = t.UTC()
	g.Reminded = nil
	mc.say("The deadline of %s is now %s.", g.PhaseTitle, mc.d.showTime(g.Deadline, nil))
	if err := mc.audit(action, g.Deadline.Format(time.RFC3339)); err != nil {
		return err
	}
	return mc.announce("New deadline", fmt.Sprintf("The GM has moved the deadline of %s to %s.", g.PhaseTitle, mc.d.showTime(g.Deadline, nil)))
}

func gmExtend(mc *mailCtx, cmd *orders.Command) error {
	if !needActive(mc, orders.VerbExtend) {
		return nil
	}
	d, err := parseDuration(cmd.Arg)
	if err != nil {
		mc.say("EXTEND refused: %v. Nothing was changed.", err)
		return nil
	}
	base := mc.game.Deadline
	if base.Before(mc.now) {
		base = mc.now
	}
	if t := base.Add(d); t.After(mc.now.Add(maxAhead)) {
		mc.say("EXTEND refused: the deadline would be %s, more than a year ahead. Nothing was changed.", mc.d.showTime(t, nil))
		return nil
	}
	return setDeadline(mc, base.Add(d), "extend")
}

// gmSetOrders is SET ORDERS <power> ... ENDORDERS: orders for the open
// phase, and, where the engine takes orders ahead (ahead.go), sections
// for later phases of the turn under PHASE lines, held for the power as
// its diplomats' mail would hold them. A bad line anywhere refuses the
// whole body; nothing of it is stored.
func gmSetOrders(mc *mailCtx, cmd *orders.Command) error {
	if !needActive(mc, orders.VerbSetOrders) {
		return nil
	}
	g := mc.game
	power, ok := matchPower(mc.engine, cmd.Power)
	if !ok {
		mc.say("SET ORDERS refused: %q is not a power of %s. Nothing was changed.", cmd.Power, g.Name)
		return nil
	}
	text := strings.Join(cmd.Body, "\n")
	check, err := mc.engine.Check(mc.state, power, text)
	if err != nil {
		return err
	}
	var bad []string
	for i := range check.Lines {
		l := &check.Lines[i]
		if l.Kind == orders.ErrorLine || hasError(l.Diags) {
			bad = append(bad, describeLine(l))
		}
	}
	if _, ok := mc.engine.(adjudicator.Aheader); !ok && len(check.Held) > 0 {
		bad = append(bad, "  (orders for later phases: this game takes none ahead)")
	}
	if len(bad) > 0 || (len(check.Canonical) == 0 && len(check.Held) == 0) {
		if len(bad) == 0 {
			bad = append(bad, "  (no orders found)")
		}
		mc.say("SET ORDERS %s refused, nothing was stored:\n%s", powerName(g, power), strings.Join(bad, "\n"))
		return nil
	}
	pn := powerName(g, power)
	var offers []adjudicator.Offer
	var set []string // the phases the GM set orders for, for the others
	var told strings.Builder
	if len(check.Canonical) > 0 {
		offers, _, err = mc.standingOffers() // offers.go: told to their receivers
		if err != nil {
			return err
		}
		if err := mc.tx.AddOrderSet(g.Name, g.Phase, store.OrderSet{
			Power: power, GM: true, MsgID: mc.in.MsgID, Received: mc.now.UTC(), Lines: check.Canonical,
		}); err != nil {
			return err
		}
		mc.say("Orders of %s for %s set by the GM:\n  %s\nThey count as the power's own orders: a later mail from its diplomats changes them as it would change theirs (each acknowledgement says which of yours still stand).",
			pn, g.PhaseTitle, strings.Join(check.Canonical, "\n  "))
		if err := mc.audit("set-orders", power+": "+strings.Join(check.Canonical, "; ")); err != nil {
			return err
		}
		set = append(set, g.PhaseTitle)
		fmt.Fprintf(&told, "The GM has set orders for %s for %s:\n  %s\n\nThey count as your power's own orders: they stand unless you send others, and a mail\nfrom you changes them as it would change your own (your acknowledgement shows\nwhich of the GM's orders still stand). STATUS shows them too.\n",
			pn, g.PhaseTitle, strings.Join(check.Canonical, "\n  "))
	} else {
		mc.say("The orders of %s for %s are unchanged.", pn, g.PhaseTitle)
	}
	// Sections for later phases (ahead.go): held with the GM's mark.
	changes, err := mc.keepHeld(power, "", 0, check.Held)
	if err != nil {
		return err
	}
	var held, gone []string
	for _, h := range changes {
		if len(h.lines) == 0 {
			mc.say("Nothing is held for %s for %s any more: the section for it has no orders.", pn, h.phase.Title)
			gone = append(gone, h.phase.Title)
			continue
		}
		mc.say("Held for %s for %s until it opens, then read against the position as if its diplomats mailed them then (a later mail of theirs with a section for %s replaces them):\n  %s",
			pn, h.phase.Title, h.phase.Key, strings.Join(h.lines, "\n  "))
		set = append(set, h.phase.Title)
		held = append(held, fmt.Sprintf("  %s:\n    %s\n", h.phase.Title, strings.Join(h.lines, "\n    ")))
	}
	if len(held) > 0 {
		also := ""
		if told.Len() > 0 {
			told.WriteString("\n")
			also = " also"
		}
		fmt.Fprintf(&told, "The GM has%s set orders for %s for later phases of the turn, held until each opens and then read against the position as if you mailed them then:\n%s",
			also, pn, strings.Join(held, ""))
		told.WriteString("A mail from you with a section for one of these phases replaces what is held for it. STATUS lists them.\n")
	}
	if len(gone) > 0 {
		if told.Len() > 0 {
			told.WriteString("\n")
		}
		fmt.Fprintf(&told, "The GM has withdrawn the orders held for %s for %s: nothing is held for %s any more.\n",
			pn, adjudicator.List(gone), map[bool]string{true: "it", false: "them"}[len(gone) == 1])
	}
	// The power's diplomats see the orders; SILENT hides the change from
	// the others only.
	subject := "The GM has set your orders"
	if len(set) == 0 {
		subject = "The GM has changed your orders held ahead"
	}
	if err := mc.d.tellPower(mc.tx, g, power, subject, told.String()); err != nil {
		return err
	}
	if err := mc.forwardOffers(offers); err != nil {
		return err
	}
	var news []string
	if len(set) > 0 {
		news = append(news, fmt.Sprintf("The GM has set the orders of %s for %s.", pn, adjudicator.List(set)))
	}
	if len(gone) > 0 {
		news = append(news, fmt.Sprintf("The GM has withdrawn the orders %s held for %s.", pn, adjudicator.List(gone)))
	}
	return mc.announce("GM orders", strings.Join(news, "\n"), power)
}

func hasError(ds []orders.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == orders.Error {
			return true
		}
	}
	return false
}

func gmPreview(mc *mailCtx, cmd *orders.Command) error {
	on := strings.EqualFold(cmd.Arg, "on")
	if !on && !strings.EqualFold(cmd.Arg, "off") {
		mc.say("PREVIEW: write PREVIEW ON or PREVIEW OFF.")
		return nil
	}
	mc.game.Options.Preview = on
	if on {
		mc.say("Preview is on: results come to you first; PUBLISH sends them, ROLLBACK discards them.")
	} else {
		mc.say("Preview is off: results go to everyone at once.")
	}
	return mc.audit("preview", onOff(on))
}

func gmPublish(mc *mailCtx, _ *orders.Command) error {
	g := mc.game
	if g.Pending == nil {
		mc.say("PUBLISH: there are no results waiting.")
		return nil
	}
	rec, err := mc.tx.Phase(g.Name, g.Pending.Phase)
	if err != nil {
		return err
	}
	st, err := mc.engine.Status(mc.state)
	if err != nil {
		return err
	}
	g.Pending = nil
	if err := mc.audit("publish", rec.PhaseID); err != nil {
		return err
	}
	mc.say("Results of %s published.", rec.Title)
	if st.Over {
		return mc.d.endGame(mc.tx, g, ruleResult(st, g), "", rec)
	}
	mc.d.openPhase(g, g.OpenPhase, mc.now) // its clock starts now
	if err := mc.d.publishResults(mc.tx, g, rec); err != nil {
		return err
	}
	if err := mc.d.openAhead(mc.tx, g, mc.engine, mc.state, mc.now); err != nil { // ahead.go
		return err
	}
	if rec.Open != nil {
		return mc.d.paceVoteNews(mc.tx, g, rec.Open.CalYear) // calendar.go
	}
	return nil
}

func gmRollback(mc *mailCtx, _ *orders.Command) error {
	g := mc.game
	if g.Phase == 0 {
		mc.say("ROLLBACK refused: %s has no processed phase to reopen.", g.Name)
		return nil
	}
	last := g.Phase - 1
	rec, err := mc.tx.Phase(g.Name, last)
	if err != nil {
		return err
	}
	open, err := rec.Reopen()
	if err != nil {
		return fmt.Errorf("rollback: %w", err)
	}
	wasPending := g.Pending != nil
	// The orders sent for the phase being thrown away go with it; the
	// reopened phase keeps every version of its orders.
	if err := mc.tx.DeleteOrderSets(g.Name, g.Phase); err != nil {
		return err
	}
	if err := mc.tx.DeletePhase(g.Name, last); err != nil {
		return err
	}
	if err := mc.tx.PutState(g.Name, rec.StateBefore); err != nil {
		return err
	}
	mc.state = rec.StateBefore
	if g.Status == store.Finished {
		if err := mc.tx.DeleteRatedGame(g.Name); err != nil { // ratings.go: the game counts as it finally ends
			return err
		}
	}
	unend(g)
	g.Pending = nil
	// The phase comes back whole, as it was processed: orders, locks,
	// votes, ready flags, seed. Only its clock is new: the old deadline
	// has passed, so it gets a new one (and new reminders).
	mc.d.openPhase(g, open, mc.now)
	if err := mc.audit("rollback", rec.PhaseID); err != nil {
		return err
	}
	mc.say("%s is reopened with its position and orders as they were; new deadline %s.", rec.Title, mc.d.showTime(g.Deadline, nil))
	if wasPending {
		return nil // nobody had seen the results
	}
	return mc.announce("Phase reopened", fmt.Sprintf("The GM has reopened %s: its results are withdrawn, the position and your orders are as they were before it was processed. You may change your orders until the new deadline, %s.", rec.Title, mc.d.showTime(g.Deadline, nil)))
}

// unend undoes what endGame, the one writer that ends a game, wrote of
// its end: ROLLBACK of the phase that ended a game makes it run again.
func unend(g *store.Game) {
	g.Status = store.Active
	g.Winners, g.EndedAs, g.Scores = nil, "", nil
}

func gmReplace(mc *mailCtx, cmd *orders.Command) error {
	g := mc.game
	power, ok := matchPower(mc.engine, cmd.Power)
	if !ok {
		mc.say("REPLACE refused: %q is not a power of %s.", cmd.Power, g.Name)
		return nil
	}
	addr := strings.ToLower(strings.TrimSpace(cmd.Address))
	if !strings.Contains(addr, "@") || strings.ContainsAny(addr, " \r\n<>") {
		mc.say("REPLACE refused: %q is not a mail address. Write REPLACE %s WITH name@example.org.", cmd.Address, commandPower(g, power))
		return nil
	}
	if p := findPlayer(g, addr); p != nil {
		mc.say("REPLACE refused: %s already plays %s in %s.", addr, powerName(g, p.Power), g.Name)
		return nil
	}
	pn := powerName(g, power)
	var note strings.Builder
	for i := range g.Players {
		p := &g.Players[i]
		if p.Power == power && p.Rank == 0 && !p.Left {
			err := mc.d.removeDiplomat(mc.tx, g, p, store.LeftReplaced, mc.now,
				fmt.Sprintf("The GM has replaced you as the senior diplomat of %s in %s: another player takes over.\nOrders you sent for %s stand until they send their own.", pn, g.Name, g.PhaseTitle))
			if err != nil {
				return err
			}
			note.WriteString(leftNote(g, p))
		}
	}
	np := store.Player{Address: addr, Power: power, Rank: 0, Token: newToken(), Joined: mc.now.UTC()}
	welcome, err := mc.d.seatWelcome(mc.tx, g, power) // the position and history (seats.go)
	if err != nil {
		return err
	}
	if err := mc.d.mailSecretsWith(mc.tx, g, &np, "", welcome); err != nil {
		return err
	}
	g.Players = append(g.Players, np)
	if err := mc.d.dropSeatRequests(mc.tx, g, power, addr); err != nil {
		return err
	}
	if err := mc.tx.PutToken(np.Token, store.TokenRef{Game: g.Name, Address: addr}); err != nil {
		return err
	}
	mc.say("%s is now played by %s (senior diplomat); they have their password and reply address.", pn, addr)
	if err := mc.audit("replace", power+" → "+addr); err != nil {
		return err
	}
	fmt.Fprintf(&note, "%s is the new senior diplomat of %s, put in by the GM.\n", addr, pn)
	if err := mc.d.tellPower(mc.tx, g, power, "New senior diplomat of "+pn, note.String(), addr); err != nil {
		return err
	}
	if !mc.d.diplomats(g) { // one player per power: no seniors to speak of
		return mc.announce("New player", fmt.Sprintf("%s has a new player.", pn), power)
	}
	return mc.announce("New player", fmt.Sprintf("%s has a new senior diplomat.", pn), power)
}

func gmPromote(mc *mailCtx, cmd *orders.Command) error {
	g := mc.game
	addr := strings.ToLower(strings.TrimSpace(cmd.Address))
	if addr == "" {
		addr = strings.ToLower(strings.TrimSpace(cmd.Arg))
	}
	junior := findPlayer(g, addr)
	if junior == nil || junior.Power == "" {
		mc.say("PROMOTE refused: %q is not a diplomat in %s.", addr, g.Name)
		return nil
	}
	if junior.Rank == 0 {
		mc.say("PROMOTE: %s is already the senior diplomat of %s.", addr, powerName(g, junior.Power))
		return nil
	}
	old := junior.Rank
	for i := range g.Players {
		p := &g.Players[i]
		if p.Power == junior.Power && !p.Left && p.Rank < old {
			p.Rank++
		}
	}
	junior.Rank = 0
	pn := powerName(g, junior.Power)
	mc.say("%s is now the senior diplomat of %s.", addr, pn)
	if err := mc.audit("promote", junior.Power+": "+addr); err != nil {
		return err
	}
	if err := mc.d.tellPower(mc.tx, g, junior.Power, "New senior diplomat of "+pn,
		fmt.Sprintf("The GM has made %s the senior diplomat of %s: they decide requests to join it, may LOCK JUNIORS and RELEASE juniors.\n", addr, pn)); err != nil {
		return err
	}
	return mc.announce("New senior diplomat", fmt.Sprintf("The GM has made a new senior diplomat for %s.", pn), junior.Power)
}

// gmEject removes one diplomat (EJECT <address>) or every diplomat of a
// power (EJECT <power>: it is in civil disorder). Each is told once; their
// orders for the open phase stop counting.
func gmEject(mc *mailCtx, cmd *orders.Command) error {
	g := mc.game
	if cmd.Address != "" {
		return ejectDiplomat(mc, strings.ToLower(strings.TrimSpace(cmd.Address)))
	}
	power, ok := matchPower(mc.engine, cmd.Power)
	if !ok {
		mc.say("EJECT refused: %q is not a power of %s.", cmd.Power, g.Name)
		return nil
	}
	pn := powerName(g, power)
	n := 0
	for i := range g.Players {
		p := &g.Players[i]
		if p.Power == power && !p.Left {
			err := mc.d.removeDiplomat(mc.tx, g, p, store.LeftEjected, mc.now,
				fmt.Sprintf("The GM has removed the diplomats of %s from %s; you no longer play it.\nOrders you sent for %s no longer count.", pn, g.Name, g.PhaseTitle))
			if err != nil {
				return err
			}
			n++
		}
	}
	mc.say("%s: %d diplomat%s removed (each is told); its units are in civil disorder until REPLACE %s WITH <address>.", pn, n, plural(n), commandPower(g, power))
	if err := mc.audit("eject", power); err != nil {
		return err
	}
	return mc.announce("Power in civil disorder", fmt.Sprintf("The GM has removed the players of %s; it is in civil disorder.", pn))
}

// ejectDiplomat is EJECT <address>: one diplomat leaves; the rest of the
// power goes on.
func ejectDiplomat(mc *mailCtx, addr string) error {
	g := mc.game
	p := findPlayer(g, addr)
	if p == nil || p.Power == "" {
		mc.say("EJECT refused: %s is not a diplomat in %s. Nothing was changed.", addr, g.Name)
		return nil
	}
	pn, power := powerName(g, p.Power), p.Power
	err := mc.d.removeDiplomat(mc.tx, g, p, store.LeftEjected, mc.now,
		fmt.Sprintf("The GM has removed you from %s: you are no longer a diplomat of %s.\nOrders you sent for %s no longer count.", g.Name, pn, g.PhaseTitle))
	if err != nil {
		return err
	}
	mc.say("%s is no longer a diplomat of %s; orders they sent for %s no longer count. They and the rest of %s are told.", addr, pn, g.PhaseTitle, pn)
	if !hasDiplomats(g, power) {
		mc.say("%s has no diplomat left: its units are in civil disorder until REPLACE %s WITH <address>.", pn, commandPower(g, power))
	} else if seniorOf(g, power) == "" {
		mc.say("%s has no senior diplomat now: PROMOTE one of its juniors.", pn)
	}
	if err := mc.audit("eject", power+": "+addr); err != nil {
		return err
	}
	return mc.d.tellPower(mc.tx, g, power, fmt.Sprintf("%s left %s", addr, pn), leftNote(g, p))
}

func gmEnd(mc *mailCtx, cmd *orders.Command) error {
	if !needActive(mc, orders.VerbEnd) {
		return nil
	}
	g := mc.game
	switch strings.ToUpper(cmd.Arg) {
	case "DRAW":
		mc.say("%s ends in a draw.", g.Name)
		if err := mc.audit("end", "draw"); err != nil {
			return err
		}
		return mc.d.endGame(mc.tx, g, adjudicator.Result{Kind: "draw", Winners: g.Alive}, "The GM has declared a draw.", nil)
	case "SOLO":
		power, ok := matchPower(mc.engine, cmd.Power)
		if !ok || !isAlive(g, power) {
			mc.say("END SOLO refused: %q is not a surviving power of %s.", cmd.Power, g.Name)
			return nil
		}
		mc.say("%s ends: %s wins.", g.Name, powerName(g, power))
		if err := mc.audit("end", "solo "+power); err != nil {
			return err
		}
		return mc.d.endGame(mc.tx, g, adjudicator.Result{Kind: "solo", Winners: []string{power}}, "The GM has declared the result.", nil)
	}
	mc.say("END: write END DRAW or END SOLO <power>.")
	return nil
}

func gmSet(mc *mailCtx, cmd *orders.Command) error {
	g := mc.game
	hadPrize := g.Options.DrawPrize
	opts := g.Options
	if err := applyOptions(&opts, mc.engine, g.Status == store.Forming, cmd.Options, nil); err != nil {
		mc.say("SET refused: %v. Nothing was changed.", err)
		return nil
	}
	if opts.Calendar == calendarWeekly && g.Options.Calendar != calendarWeekly && g.Status != store.Forming {
		startWeekly(g) // calendar.go: the pace-vote weeks start now
	}
	g.Options = opts
	mc.say("Options of %s: pace %s, press %s, anonymous announcements %s, press in retreat/build phases %s, observers' press %s, grey press %s, preview %s, process early %s, draw prize %s%s.\n%s",
		g.Name, opts.Pace, opts.Press, onOff(opts.PSA), onOff(opts.PressInAdj), onOff(opts.ObserverPress), onOff(opts.GreyPress), onOff(opts.Preview), onOff(opts.ProcessEarly), onOff(opts.DrawPrize), engineOptions(opts), scheduleOptions(opts))
	mc.say("%s", playOptions(opts)) // endrules.go
	if err := mc.audit("set", fmt.Sprint(cmd.Options)); err != nil {
		return err
	}
	if opts.DrawPrize && !hadPrize {
		commit := commitPrize(g)
		return mc.announce("Draw prize", "If this game ends in a draw, one survivor wins the prize, drawn with probability proportional to its supply centres.\n"+
			"The draw uses a secret number whose SHA-256 hash is published now, before the end:\n  "+commit+"\n"+
			"When the game ends the number is revealed, so anyone can check the draw.")
	}
	return nil
}

// commitPrize picks the draw-prize secret and returns its hash.
func commitPrize(g *store.Game) string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	g.PrizeSeed = hex.EncodeToString(b[:])
	sum := sha256.Sum256([]byte(g.PrizeSeed))
	g.PrizeCommit = hex.EncodeToString(sum[:])
	return g.PrizeCommit
}

// PrizeDraw is the public, checkable draw: SHA-256 of "secret:game" read as
// a number, modulo the total of the survivors' scores, walks the survivors
// in the order given (sorted) weighted by score.
func PrizeDraw(secret, game string, survivors []string, scores map[string]int) string {
	total := 0
	for _, s := range survivors {
		total += max(scores[s], 0)
	}
	if total == 0 || len(survivors) == 0 {
		if len(survivors) > 0 {
			return survivors[0]
		}
		return ""
	}
	sum := sha256.Sum256([]byte(secret + ":" + game))
	ticket := int(binary.BigEndian.Uint64(sum[:8]) % uint64(total))
	for _, s := range survivors {
		ticket -= max(scores[s], 0)
		if ticket < 0 {
			return s
		}
	}
	return survivors[len(survivors)-1]
}

// drawPrize draws the prize among the survivors of a drawn game and writes
// the announcement that lets anyone check it.
func (d *Daemon) drawPrize(tx *store.Tx, g *store.Game, survivors []string) (string, string, error) {
	if g.PrizeSeed == "" {
		return "", "", nil // never committed: no fair draw possible
	}
	e, err := engineFor(g)
	if err != nil {
		return "", "", err
	}
	state, err := tx.State(g.Name)
	if err != nil {
		return "", "", err
	}
	st, err := e.Status(state)
	if err != nil {
		return "", "", err
	}
	sorted := slices.Sorted(slices.Values(survivors))
	winner := PrizeDraw(g.PrizeSeed, g.Name, sorted, st.Scores)
	var b strings.Builder
	fmt.Fprintf(&b, "\nDraw prize: %s wins it.\n", powerName(g, winner))
	fmt.Fprintf(&b, "  secret: %s (its SHA-256, published before the end: %s)\n", g.PrizeSeed, g.PrizeCommit)
	b.WriteString("  tickets: ")
	for i, s := range sorted {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", powerName(g, s), st.Scores[s])
	}
	fmt.Fprintf(&b, "\n  check: take the first 8 bytes of SHA-256(\"%s:%s\") as a big-endian number, modulo the total of tickets; count through the survivors in the order above.\n", g.PrizeSeed, g.Name)
	return b.String(), winner, nil
}

// engineOptions lists a game's engine options for a reply.
func engineOptions(o store.GameOptions) string {
	if len(o.Engine) == 0 {
		return ""
	}
	var kv []string
	for _, k := range slices.Sorted(maps.Keys(o.Engine)) {
		kv = append(kv, k+"="+o.Engine[k])
	}
	return "; game options: " + strings.Join(kv, " ")
}
