package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"pbemd/adjudicator/diplomacy"
	"pbemd/store"
)

// driver runs one demo game of Diplomacy.
type driver struct {
	base
	e *diplomacy.Engine
	m *diplomacy.Map

	forgetful int // index into players
}

// seat is a person at the table: their record and the last mail the
// daemon sent them about the game (what they reply to).
type seat struct {
	Player
	lastID, lastSubject string
}

func (d *driver) play(ctx context.Context) error {
	if err := d.create(ctx, fmt.Sprintf("CREATE %s %s\n", GameName, d.opt.Variant)); err != nil {
		return err
	}
	if err := d.join(ctx); err != nil {
		return err
	}
	for {
		done, err := d.phase(ctx)
		if err != nil || done {
			return err
		}
	}
}

// create has the site GM create the game by replying to the welcome mail
// (its reply address carries the site GM token) with text.
func (d *base) create(ctx context.Context, text string) error {
	d.gm = &seat{Player: Player{Address: d.cfg.GM[0]}}
	if err := d.po.open(ctx, d.srv.Mail, d.gm.Address); err != nil {
		return err
	}
	welcome, err := d.po.waitFor(ctx, d.opt.Timeout, d.gm.Address, "the welcome mail", func(r Received) bool {
		return strings.Contains(r.Subject, "Welcome to pbemd")
	})
	if err != nil {
		return err
	}
	reply, err := d.sendAndWait(ctx, d.gm, Sent{Phase: -1, Kind: "create", To: welcome.ReplyTo,
		Text: text}, replyPrefix(welcome.Subject), welcome.MessageID)
	if err != nil {
		return err
	}
	if !strings.Contains(reply.Text, "created") {
		return fmt.Errorf("CREATE was refused:\n%s", reply.Text)
	}
	return nil
}

// join signs the players up, one a power, each with a ranking whose first choice
// no one else has (so the assignment is exactly the first choices, and
// does not depend on the game's random seed), and reads the mail that
// tells each their power, reply address and password.
func (d *driver) join(ctx context.Context) error {
	r := rand.New(rand.NewPCG(uint64(d.opt.Seed), 0x5e7))
	powers := d.e.Info().Powers
	first := r.Perm(len(powers))
	for i, name := range playerNames[:len(powers)] {
		p := &seat{Player: Player{Address: name + "@" + d.srv.Mail.Domain()}}
		p.Prefs = append(p.Prefs, powers[first[i]])
		rest := slices.DeleteFunc(slices.Clone(powers), func(s string) bool { return s == p.Prefs[0] })
		r.Shuffle(len(rest), func(a, b int) { rest[a], rest[b] = rest[b], rest[a] })
		p.Prefs = append(p.Prefs, rest...)
		d.players = append(d.players, p)
		if err := d.po.open(ctx, d.srv.Mail, p.Address); err != nil {
			return err
		}
	}
	d.forgetful = r.IntN(len(d.players))
	for _, p := range d.players {
		names := make([]string, len(p.Prefs))
		for i, pw := range p.Prefs {
			names[i] = d.m.PowerName(pw)
		}
		reply, err := d.sendAndWait(ctx, p, Sent{Phase: -1, Kind: "join", To: d.cfg.Address,
			Text: fmt.Sprintf("JOIN %s prefer %s\n", GameName, strings.Join(names, " > "))}, "Joining "+GameName, "")
		if err != nil {
			return err
		}
		if !strings.Contains(reply.Text, "signed up") {
			return fmt.Errorf("%s could not join:\n%s", p.Address, reply.Text)
		}
	}
	for _, p := range d.players {
		m, err := d.po.waitFor(ctx, d.opt.Timeout, p.Address, "the power mail", func(r Received) bool {
			return strings.HasPrefix(r.Subject, "["+GameName+"] You are ")
		})
		if err != nil {
			return err
		}
		power, ok := d.m.PowerID(strings.TrimPrefix(m.Subject, "["+GameName+"] You are "))
		if !ok || power != p.Prefs[0] {
			return fmt.Errorf("%s was given %q, not their first choice %s", p.Address, m.Subject, p.Prefs[0])
		}
		p.Power, p.Token, p.lastID, p.lastSubject = power, m.ReplyTo, m.MessageID, m.Subject
		_, pw, _ := strings.Cut(m.Text, "Your password: ")
		p.Password, _, _ = strings.Cut(pw, "\n")
		p.Password = strings.TrimSpace(p.Password)
		if p.Password == "" || !strings.Contains(p.Token, "+") {
			return fmt.Errorf("%s: the power mail lacks a password or a reply token:\n%s", p.Address, m.Text)
		}
	}
	d.res.Forgetful = d.players[d.forgetful].Power
	var seats []string
	for _, p := range d.players {
		s := d.m.PowerName(p.Power) + " " + signature(p.Address)
		if p.Power == d.res.Forgetful {
			s += " (forgetful)"
		}
		seats = append(seats, s)
	}
	slices.Sort(seats)
	d.print(fmt.Sprintf("%s by mail, seed %d, at most %d years: %s.", d.m.Title, d.opt.Seed, d.opt.Years, strings.Join(seats, ", ")))
	return nil
}

// sendAndWait sends one mail for p and waits for the daemon's answer to
// it.
func (d *base) sendAndWait(ctx context.Context, p *seat, s Sent, subject, inReplyTo string) (Received, error) {
	if err := d.send(p, &s, subject, inReplyTo); err != nil {
		return Received{}, err
	}
	return d.answer(ctx, p, s)
}

func (d *base) send(p *seat, s *Sent, subject, inReplyTo string) error {
	id, err := d.po.send(p.Address, s.To, subject, s.Text, inReplyTo)
	if err != nil {
		return err
	}
	s.MessageID = id
	p.Sent = append(p.Sent, *s)
	return nil
}

func (d *base) answer(ctx context.Context, p *seat, s Sent) (Received, error) {
	return d.po.waitFor(ctx, d.opt.Timeout, p.Address, "the answer to "+s.Kind, func(r Received) bool { return r.InReplyTo == s.MessageID })
}

// snapshot is the game as the store has it now.
func (d *driver) snapshot() (*store.Game, *diplomacy.Position, *store.PhaseRecord, error) {
	g, state, last, err := d.base.snapshot()
	if err != nil {
		return nil, nil, nil, err
	}
	pos, err := d.e.Position(state)
	return g, pos, last, err
}

// written is one order mail sent in a phase, for the acknowledgement and
// the correction that may follow.
type written struct {
	p    *seat
	plan *plan
	sent Sent
	br   *rand.Rand
}

// phase plays the open phase: orders, acknowledgements, corrections,
// reminders, the deadline and the results. It reports true when the game
// is over or the year limit is reached.
func (d *driver) phase(ctx context.Context) (bool, error) {
	g, pos, _, err := d.snapshot()
	if err != nil {
		return false, err
	}
	if g.Status != store.Active || d.m.GameYear(pos.Phase) >= d.opt.Years {
		d.finish(g, pos)
		return true, nil
	}
	ph := Phase{Number: g.Phase, ID: g.PhaseID, Title: g.PhaseTitle, Waiting: g.Waiting, Orders: map[string][]string{}}
	// One draw for the whole board, so that convoys, supports and the
	// moves they back fit together; each player sends its share.
	full := diplomacy.RandomOrders(pos, rand.New(rand.NewPCG(uint64(d.opt.Seed), uint64(g.Phase)<<1|1)), diplomacy.RandomOptions{Aggressive: true})
	var mails []written
	for i, p := range d.players {
		if !slices.Contains(g.Waiting, p.Power) {
			continue
		}
		br := rand.New(rand.NewPCG(uint64(d.opt.Seed)^uint64(i+1)<<40, uint64(g.Phase)<<1))
		if i == d.forgetful && br.IntN(2) == 0 {
			ph.Forgot = append(ph.Forgot, p.Power)
			continue
		}
		mine := diplomacy.OrdersOf(full, p.Power)
		if len(mine) == 0 && pos.Phase.Type == diplomacy.Movement {
			for _, u := range pos.Units {
				if u.Power == p.Power {
					mine = append(mine, diplomacy.Order{Kind: diplomacy.Hold, Unit: u.Type, Loc: u.Loc})
				}
			}
		}
		pl := planOrders(d.m, pos, mine, br)
		s := Sent{Phase: g.Phase, Kind: "orders", To: p.Token, Typo: pl.typo, Unknown: pl.unknown, Impossible: pl.impossible}
		text := pl.text(d.m.PowerName(p.Power), g.PhaseTitle, signature(p.Address))
		subject, inReplyTo := replyPrefix(p.lastSubject), p.lastID
		if br.IntN(25) == 0 {
			// Now and then from scratch, with the password.
			s.Password, s.To = true, d.cfg.Address
			text = fmt.Sprintf("SIGNON %s %s %s\n", p.Power, GameName, p.Password) + text
			subject, inReplyTo = "Orders for "+g.PhaseTitle, ""
		}
		s.Text = text
		if err := d.send(p, &s, subject, inReplyTo); err != nil {
			return false, err
		}
		ph.Orders[p.Power] = pl.canonical()
		mails = append(mails, written{p: p, plan: pl, sent: s, br: br})
	}
	// Read the acknowledgements; a player whose mail had misorders may
	// put them right in a second mail.
	var again []written
	for _, w := range mails {
		ack, err := d.answer(ctx, w.p, w.sent)
		if err != nil {
			return false, err
		}
		if !strings.Contains(ack.Text, "Orders received for ") {
			return false, fmt.Errorf("%s: %s: the answer to the orders is not an acknowledgement:\n%s", g.PhaseTitle, w.p.Power, ack.Text)
		}
		corr := w.plan.correction()
		if corr == nil || !strings.Contains(ack.Text, "Please look again") || w.br.IntN(2) == 0 {
			continue
		}
		s := Sent{Phase: g.Phase, Kind: "correction", To: ack.ReplyTo,
			Text: corr.text(d.m.PowerName(w.p.Power), g.PhaseTitle+" (correction)", signature(w.p.Address))}
		if err := d.send(w.p, &s, replyPrefix(ack.Subject), ack.MessageID); err != nil {
			return false, err
		}
		ph.Orders[w.p.Power] = merge(w.plan, corr)
		again = append(again, written{p: w.p, sent: s})
	}
	for _, w := range again {
		ack, err := d.answer(ctx, w.p, w.sent)
		if err != nil {
			return false, err
		}
		if !strings.Contains(ack.Text, "Orders received for ") {
			return false, fmt.Errorf("%s: %s: the answer to the correction is not an acknowledgement:\n%s", g.PhaseTitle, w.p.Power, ack.Text)
		}
	}
	// Two hours before the deadline the forgetful player is reminded.
	if len(ph.Forgot) > 0 {
		d.clk.Set(g.Deadline.Add(-2 * time.Hour))
		if err := d.srv.Daemon.Tick(ctx); err != nil {
			return false, err
		}
		p := d.players[d.forgetful]
		if _, err := d.po.waitFor(ctx, d.opt.Timeout, p.Address, "the reminder", func(r Received) bool {
			return r.Subject == reminderSubject(g.PhaseTitle)
		}); err != nil {
			return false, err
		}
	}
	// The deadline.
	d.clk.Set(g.Deadline)
	if err := d.srv.Daemon.Tick(ctx); err != nil {
		return false, err
	}
	subject := resultsSubject(g.PhaseTitle)
	for _, p := range append(slices.Clone(d.players), d.gm) {
		m, err := d.po.waitFor(ctx, d.opt.Timeout, p.Address, "the results of "+g.PhaseTitle, func(r Received) bool { return r.Subject == subject })
		if err != nil {
			return false, err
		}
		p.lastID, p.lastSubject = m.MessageID, m.Subject
	}
	g2, _, rec, err := d.snapshot()
	if err != nil {
		return false, err
	}
	if rec == nil || rec.Phase != ph.Number {
		return false, fmt.Errorf("%s: no phase record after the deadline", g.PhaseTitle)
	}
	if g2.Status == store.Finished {
		if err := d.awaitGameOver(ctx); err != nil {
			return false, err
		}
	}
	ph.Line, err = d.line(&ph, rec, mails, len(again))
	if err != nil {
		return false, err
	}
	d.res.Phases = append(d.res.Phases, ph)
	d.print(ph.Line)
	return false, nil
}

func resultsSubject(title string) string {
	return "[" + GameName + "] " + title + " — results"
}

func reminderSubject(title string) string {
	return "[" + GameName + "] Reminder: " + title + " orders due"
}

// finish writes the final line.
func (d *driver) finish(g *store.Game, pos *diplomacy.Position) {
	if g.Status == store.Finished {
		d.res.Over = true
		if len(g.Winners) == 1 {
			d.res.Winner = g.Winners[0]
		}
	}
	last := "the start"
	if n := len(d.res.Phases); n > 0 {
		last = d.res.Phases[n-1].Title
	}
	switch {
	case d.res.Winner != "":
		d.print(fmt.Sprintf("%s wins with %d supply centres in %s, after %d phases.",
			d.m.PowerName(d.res.Winner), pos.CentreCount()[d.res.Winner], last, len(d.res.Phases)))
	case g.Status == store.Finished:
		d.print(fmt.Sprintf("The game ended (%s) in %s, after %d phases.", g.EndedAs, last, len(d.res.Phases)))
	default:
		d.print(fmt.Sprintf("No winner after %d years (%d phases).", d.opt.Years, len(d.res.Phases)))
	}
}

func (d *base) print(line string) {
	d.res.Lines = append(d.res.Lines, line)
	fmt.Fprintln(d.opt.Out, line)
}

// collectMail copies what everyone sent and read into the result.
func (d *base) collectMail() {
	in := d.po.snapshot()
	if d.gm != nil {
		d.gm.Inbox = in[d.gm.Address]
		d.res.GM = d.gm.Player
	}
	for _, p := range d.players {
		p.Inbox = in[p.Address]
		d.res.Players = append(d.res.Players, p.Player)
	}
}

// signature is how a player signs: their name, capitalised.
func signature(addr string) string {
	name, _, _ := strings.Cut(addr, "@")
	if name == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}
