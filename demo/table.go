package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"pbemd/store"
)

// table runs one demo game of Supremacy, Supply Chain or the Empire
// Boardgame. Each phase every waiting power's player orders what the
// engine's bot writes for it, by mail to its reply address, and reads
// the acknowledgement; now and then a player sends the orders in two
// mails, asks a question first, or (the forgetful one) stays silent so
// the default applies. Then the phase ends: at once in a sequential game
// whose players have all sent orders, else at its deadline, to which the
// clock is moved.
type table struct {
	base
	rl *rules

	forgetful int            // index into players
	waits     map[int]int    // by player index: phases they had to order in
	titles    map[string]int // phases played by title (titles may repeat)
	// splits and questions count the players who sent orders in two
	// mails or asked first: the first chance of each is always taken,
	// so that every game shows both.
	splits, questions int
}

func (t *table) play(ctx context.Context) error {
	t.titles = map[string]int{}
	// seed= makes the game's own dice follow the demo's seed: the same
	// seed plays the same game.
	text := strings.TrimSpace(fmt.Sprintf("CREATE %s %s %s seed=%d", GameName, t.rl.variant, t.rl.create, t.opt.Seed)) + "\n"
	if err := t.create(ctx, text); err != nil {
		return err
	}
	if err := t.join(ctx); err != nil {
		return err
	}
	for {
		done, err := t.phase(ctx)
		if err != nil || done {
			return err
		}
	}
}

// join signs one player per power up, each with a ranking whose first
// choice no one else has, and reads the mail that tells each their
// power, reply address and password.
func (t *table) join(ctx context.Context) error {
	r := rand.New(rand.NewPCG(uint64(t.opt.Seed), 0x5e7))
	powers := t.rl.e.Info().Powers
	if len(powers) > len(playerNames) {
		return fmt.Errorf("%s has %d powers, the demo seats %d players", t.rl.variant, len(powers), len(playerNames))
	}
	first := r.Perm(len(powers))
	for i := range powers {
		p := &seat{Player: Player{Address: playerNames[i] + "@" + t.srv.Mail.Domain()}}
		p.Prefs = append(p.Prefs, powers[first[i]])
		rest := slices.DeleteFunc(slices.Clone(powers), func(s string) bool { return s == p.Prefs[0] })
		r.Shuffle(len(rest), func(a, b int) { rest[a], rest[b] = rest[b], rest[a] })
		p.Prefs = append(p.Prefs, rest...)
		t.players = append(t.players, p)
		if err := t.po.open(ctx, t.srv.Mail, p.Address); err != nil {
			return err
		}
	}
	t.forgetful = r.IntN(len(t.players))
	for _, p := range t.players {
		reply, err := t.sendAndWait(ctx, p, Sent{Phase: -1, Kind: "join", To: t.cfg.Address,
			Text: fmt.Sprintf("JOIN %s prefer %s\n", GameName, strings.Join(p.Prefs, " > "))}, "Joining "+GameName, "")
		if err != nil {
			return err
		}
		if !strings.Contains(reply.Text, "signed up") {
			return fmt.Errorf("%s could not join:\n%s", p.Address, reply.Text)
		}
	}
	prefix := "[" + GameName + "] You are "
	for _, p := range t.players {
		m, err := t.po.waitFor(ctx, t.opt.Timeout, p.Address, "the power mail", func(r Received) bool {
			return strings.HasPrefix(r.Subject, prefix)
		})
		if err != nil {
			return err
		}
		power := powerOfSubject(strings.TrimPrefix(m.Subject, prefix))
		if power != p.Prefs[0] {
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
	t.res.Forgetful = t.players[t.forgetful].Power
	var seats []string
	for _, p := range t.players {
		s := titleCase(p.Power) + " " + signature(p.Address)
		if p.Power == t.res.Forgetful {
			s += " (forgetful)"
		}
		seats = append(seats, s)
	}
	slices.Sort(seats)
	create := ""
	if t.rl.create != "" {
		create = " " + t.rl.create
	}
	t.print(fmt.Sprintf("%s by mail (%s%s), seed %d, at most %d phases: %s.",
		t.rl.e.Info().Title, t.rl.variant, create, t.opt.Seed, t.res.MaxPhases, strings.Join(seats, ", ")))
	return nil
}

// mover is one player who orders in a phase, and how.
type mover struct {
	p     *seat
	r     *rand.Rand
	lines []string // what should stand: the bot's orders
	// first and second are the two mails of a player who splits the
	// orders (nil: one mail with lines).
	first, second []string
	question      bool // asks the game's question before ordering
	sent          Sent // the mail of the current round
}

// phase plays the open phase: orders and acknowledgements, the end of
// the phase and the results. It reports true when the game is over or
// the cap is reached.
func (t *table) phase(ctx context.Context) (bool, error) {
	g, state, _, err := t.snapshot()
	if err != nil {
		return false, err
	}
	if g.Status != store.Active {
		return true, t.finish(g, state)
	}
	if len(t.res.Phases) >= t.res.MaxPhases {
		t.res.Capped = true
		return true, t.finish(g, state)
	}
	ph := Phase{Number: g.Phase, ID: g.PhaseID, Title: g.PhaseTitle, Waiting: g.Waiting, Orders: map[string][]string{}, Deadline: g.Deadline}
	sequential := !t.rl.e.Info().Simultaneous
	var movers []*mover
	for i, p := range t.players {
		if !slices.Contains(g.Waiting, p.Power) {
			continue
		}
		t.waits[i]++
		r := rand.New(rand.NewPCG(uint64(t.opt.Seed)^uint64(i+1)<<40, uint64(g.Phase)<<1))
		// The forgetful player misses their second phase, and then one
		// in four.
		if i == t.forgetful && (t.waits[i] == 2 || t.waits[i] > 2 && r.IntN(4) == 0) {
			ph.Forgot = append(ph.Forgot, p.Power)
			continue
		}
		lines, err := t.rl.bot(state, p.Power, r.Int64())
		if err != nil {
			return false, fmt.Errorf("%s: %s's bot: %w", g.PhaseTitle, p.Power, err)
		}
		if len(lines) == 0 {
			ph.Idle = append(ph.Idle, p.Power)
			continue
		}
		movers = append(movers, &mover{p: p, r: r, lines: lines})
		ph.Orders[p.Power] = lines
	}
	splitters := 0
	for _, m := range movers {
		if t.rl.question != "" && (t.questions == 0 || m.r.IntN(5) == 0) {
			m.question = true
			t.questions++
		}
		if m.question || t.rl.split == nil || t.splits > 0 && m.r.IntN(4) != 0 {
			continue
		}
		// A sequential game's phase ends when every waiting power has
		// sent orders: one player at most splits, and only when another
		// is still to send (or silent), so the phase cannot end between
		// the two mails.
		if sequential && (splitters > 0 || len(g.Waiting) < 2) {
			continue
		}
		if first, second, ok := t.rl.split(g.PhaseTitle, m.lines, m.r); ok {
			m.first, m.second = first, second
			splitters++
			t.splits++
		}
	}

	// Round 1: questions, and the first mail of those who split.
	var round []*mover
	for _, m := range movers {
		switch {
		case m.question:
			m.sent = Sent{Phase: g.Phase, Kind: "question", Text: t.rl.question}
		case m.first != nil:
			m.sent = Sent{Phase: g.Phase, Kind: "partial", Text: t.orderText(m.p, g.PhaseTitle, m.first)}
		default:
			continue
		}
		round = append(round, m)
	}
	if err := t.round(ctx, g.PhaseTitle, round); err != nil {
		return false, err
	}
	// Round 2: the second mail of those who split.
	round = round[:0]
	for _, m := range movers {
		if m.second != nil {
			m.sent = Sent{Phase: g.Phase, Kind: "orders", Text: t.orderText(m.p, g.PhaseTitle+" (second mail)", m.second)}
			round = append(round, m)
		}
	}
	if err := t.round(ctx, g.PhaseTitle, round); err != nil {
		return false, err
	}
	// Round 3: everyone else's orders (and those who asked first).
	round = round[:0]
	for _, m := range movers {
		if m.second == nil {
			m.sent = Sent{Phase: g.Phase, Kind: "orders", Text: t.orderText(m.p, g.PhaseTitle, m.lines)}
			round = append(round, m)
		}
	}
	if err := t.round(ctx, g.PhaseTitle, round); err != nil {
		return false, err
	}

	// The end of the phase: a sequential game whose waiting powers have
	// all sent orders is due now; otherwise the deadline.
	ph.EndedOnReceipt = sequential && len(movers) > 0 && len(ph.Forgot) == 0 && len(ph.Idle) == 0
	if ph.EndedOnReceipt {
		open, err := offersOpen(t.rl.e, state, ph.Orders) // offers.go
		if err != nil {
			return false, err
		}
		ph.EndedOnReceipt = !open
	}
	if !ph.EndedOnReceipt {
		t.clk.Set(g.Deadline)
	}
	if err := t.srv.Daemon.Tick(ctx); err != nil {
		return false, err
	}
	subject := resultsSubject(g.PhaseTitle)
	nth := t.titles[g.PhaseTitle] // earlier phases with the same title
	t.titles[g.PhaseTitle]++
	for _, p := range append(slices.Clone(t.players), t.gm) {
		m, err := t.nthMail(ctx, p.Address, "the results of "+g.PhaseTitle, nth, func(r Received) bool { return r.Subject == subject })
		if err != nil {
			return false, err
		}
		p.lastID, p.lastSubject = m.MessageID, m.Subject
	}
	g2, _, rec, err := t.snapshot()
	if err != nil {
		return false, err
	}
	if rec == nil || rec.Phase != ph.Number {
		return false, fmt.Errorf("%s: no phase record after the results", g.PhaseTitle)
	}
	if g2.Status == store.Finished {
		if err := t.awaitGameOver(ctx); err != nil {
			return false, err
		}
	}
	ph.Line, err = t.line(&ph, rec, movers)
	if err != nil {
		return false, err
	}
	t.res.Phases = append(t.res.Phases, ph)
	t.print(ph.Line)
	return false, nil
}

// round sends each mover's mail of this round, replying to the last mail
// the daemon sent them, and reads the answers.
func (t *table) round(ctx context.Context, title string, ms []*mover) error {
	for _, m := range ms {
		m.sent.To = m.p.Token
		if err := t.send(m.p, &m.sent, replyPrefix(m.p.lastSubject), m.p.lastID); err != nil {
			return err
		}
	}
	for _, m := range ms {
		reply, err := t.answer(ctx, m.p, m.sent)
		if err != nil {
			return err
		}
		if m.sent.Kind == "question" {
			if !strings.Contains(reply.Text, t.rl.answer) || strings.Contains(reply.Text, "Orders received") {
				return fmt.Errorf("%s: %s: the answer to %q does not show %q:\n%s", title, m.p.Power, strings.TrimSpace(m.sent.Text), t.rl.answer, reply.Text)
			}
		} else if !strings.Contains(reply.Text, "Orders received for "+t.rl.powerName(m.p.Power)+", "+title) {
			return fmt.Errorf("%s: %s: the answer to the orders is not an acknowledgement:\n%s\n--- the mail ---\n%s", title, m.p.Power, reply.Text, m.sent.Text)
		}
		m.p.lastID, m.p.lastSubject = reply.MessageID, reply.Subject
	}
	return nil
}

// orderText is an order mail: a comment line, the orders, a signature.
func (t *table) orderText(p *seat, title string, lines []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s, %s\n", titleCase(p.Power), title)
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n-- \n" + signature(p.Address) + "\n")
	return b.String()
}

// nthMail waits for the nth (from 0) mail to addr that match accepts.
func (t *table) nthMail(ctx context.Context, addr, what string, nth int, match func(Received) bool) (Received, error) {
	var got Received
	err := t.po.wait(ctx, t.opt.Timeout, what+" for "+addr, func(in map[string][]Received) bool {
		k := 0
		for _, r := range in[addr] {
			if match(r) {
				if k == nth {
					got = r
					return true
				}
				k++
			}
		}
		return false
	})
	return got, err
}

// line is the one line printed for a processed phase: its id and title,
// every power's score after it, and what happened:
//
//	T01-3        Turn 1 Attack                        Usa 9150  Rus 9550  Chi 8750  | 3 attacks, 41 dice rolled; Usa silent
func (t *table) line(ph *Phase, rec *store.PhaseRecord, movers []*mover) (string, error) {
	st, err := t.rl.e.Status(rec.StateAfter)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-12s %-36s", ph.ID, ph.Title)
	b.WriteString(scoreText(t.rl.e.Info().Powers, st.Scores))
	events, err := t.rl.events(rec)
	if err != nil {
		return "", err
	}
	if len(events) == 0 {
		events = []string{"nothing happened"}
	}
	sep := ", "
	if t.rl.family == SupplyChain {
		sep = "; " // the engine's own sentences
	}
	fmt.Fprintf(&b, "  | %s", shorten(strings.Join(events, sep), maxEvents))
	var notes []string
	for _, m := range movers {
		switch {
		case m.second != nil:
			notes = append(notes, titleCase(m.p.Power)+" in two mails")
		case m.question:
			notes = append(notes, titleCase(m.p.Power)+" asked first")
		}
	}
	for _, p := range ph.Forgot {
		notes = append(notes, titleCase(p)+" silent")
	}
	for _, p := range ph.Idle {
		notes = append(notes, titleCase(p)+" had nothing to order")
	}
	if len(notes) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(notes, ", "))
	}
	return b.String(), nil
}

// maxEvents is how many characters of events a line shows at most.
const maxEvents = 150

// shorten cuts s to at most n characters, marking the cut with "…".
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimRight(string(r[:n-1]), " ,;") + "…"
}

// scoreText is "  Usa 9150  Rus 9550  Chi 8750": each power's score, or
// "-" for a power out of the game.
func scoreText(powers []string, scores map[string]int) string {
	var b strings.Builder
	for _, p := range powers {
		name := titleCase(p)
		if len(name) > 3 {
			name = name[:3]
		}
		if n, ok := scores[p]; ok {
			fmt.Fprintf(&b, "  %s %3d", name, n)
		} else {
			fmt.Fprintf(&b, "  %s   -", name)
		}
	}
	return b.String()
}

// finish writes the final line: the winner(s), or where the cap stopped
// the game.
func (t *table) finish(g *store.Game, state []byte) error {
	st, err := t.rl.e.Status(state)
	if err != nil {
		return err
	}
	n := len(t.res.Phases)
	last := "the start"
	if n > 0 {
		last = t.res.Phases[n-1].Title
	}
	scores := strings.TrimSpace(scoreText(t.rl.e.Info().Powers, st.Scores))
	names := make([]string, len(g.Winners))
	for i, w := range g.Winners {
		names[i] = titleCase(w)
	}
	switch {
	case g.Status == store.Finished:
		t.res.Over = true
		t.res.Winners = slices.Clone(g.Winners)
		// The engine names the kind of result (solo, points, …): one
		// winner wins, several share the win, whatever it is called.
		switch {
		case len(g.Winners) == 1 && g.EndedAs != "draw":
			t.res.Winner = g.Winners[0]
			t.print(fmt.Sprintf("%s wins after %d phases (%s): %s.", names[0], n, last, scores))
		case len(g.Winners) > 1 && g.EndedAs != "draw":
			t.print(fmt.Sprintf("%s win together after %d phases (%s): %s.", strings.Join(names, " and "), n, last, scores))
		default:
			t.print(fmt.Sprintf("The game ended (%s: %s) after %d phases (%s): %s.", g.EndedAs, strings.Join(names, ", "), n, last, scores))
		}
	case t.res.Capped:
		t.print(fmt.Sprintf("Stopped after %d phases (the cap), before %s: %s.", n, g.PhaseTitle, scores))
	default:
		t.print(fmt.Sprintf("The game is %s after %d phases: %s.", g.Status, n, scores))
	}
	return nil
}

// powerOfSubject reads the power id from the end of a power mail's
// subject: "England" is "england", "United States (usa)" is "usa".
func powerOfSubject(name string) string {
	if j := strings.LastIndex(name, " ("); j >= 0 && strings.HasSuffix(name, ")") {
		return name[j+2 : len(name)-1]
	}
	return strings.ToLower(name)
}
