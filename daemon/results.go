package daemon

import (
	"fmt"
	"slices"
	"strings"

	"pbemd/adjudicator"
	"pbemd/store"
)

// The fourth step of a deadline's way (due.go): the mails that tell the
// players, observers and GM what a phase did; outgoing.go queues them.

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
