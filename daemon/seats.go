package daemon

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"pbemd/store"
)

// Open seats (issue 16 item 2). A surviving power of a running game that
// nobody plays (its player resigned or was removed by the GM, or it was
// never filled: in civil disorder) is an open seat: LIST advertises it,
// and JOIN <game> as <power> takes it over, as njudge's and DPjudge's
// abandoned positions are taken over. The game's seats option says how:
// approve (the default: the GM decides, with REPLACE <power> WITH
// <address>, or ACCEPT where the game has juniors), open (the first to ask
// takes it) or closed (only the GM fills seats, by REPLACE). The new player
// gets the position, the open phase and its deadline, the last results and
// how to read the rest (HISTORY); everyone else is told that the power has
// a new player (not who: their address is theirs to give).

// openSeats lists g's surviving powers that nobody plays, in the engine's
// order.
func openSeats(g *store.Game) []string {
	if g.Status != store.Active {
		return nil
	}
	var out []string
	for _, p := range g.Alive {
		if !hasDiplomats(g, p) {
			out = append(out, p)
		}
	}
	return out
}

// seatsNote is LIST's word on g's open seats ("" for none).
func seatsNote(g *store.Game) string {
	seats := openSeats(g)
	if len(seats) == 0 {
		return ""
	}
	names := make([]string, len(seats))
	for i, p := range seats {
		names[i] = powerName(g, p)
	}
	how := "JOIN " + g.Name + " as <power>"
	if g.Options.Seats == store.SeatsClosed {
		how = "the GM fills them"
	}
	return fmt.Sprintf("; open seat%s: %s (%s)", plural(len(names)), strings.Join(names, ", "), how)
}

// joinSeat carries out JOIN <game> as <power> in a running game.
func (mc *mailCtx) joinSeat(g *store.Game, power string) error {
	e, err := engineFor(g)
	if err != nil {
		return err
	}
	if mc.game == nil {
		mc.game = g // a JOIN is always answered (identified)
	}
	pw, ok := matchPower(e, power)
	seats := openSeats(g)
	if !ok || !slices.Contains(seats, pw) {
		open := "none is open now"
		if len(seats) > 0 {
			names := make([]string, len(seats))
			for i, p := range seats {
				names[i] = powerName(g, p)
			}
			open = "open: " + strings.Join(names, ", ")
		}
		hint := ""
		if e.Info().Diplomats {
			hint = fmt.Sprintf(" To join a power that has a player, ask its senior: JOIN %s as junior of <power>.", g.Name)
		}
		mc.say("JOIN %s as %s: that is not an open seat (a surviving power nobody plays; %s).%s", g.Name, power, open, hint)
		return nil
	}
	pn := powerName(g, pw)
	switch g.Options.Seats {
	case store.SeatsClosed:
		mc.say("JOIN %s as %s: in %s only the GM fills open seats, so this mail has not made you a player. To ask for the seat, write to the GM of %s (%s); to follow the game meanwhile, send OBSERVE %s.",
			g.Name, pn, g.Name, g.Name, strings.Join(mc.d.gmsOf(g), ", "), g.Name)
		return nil
	case store.SeatsOpen:
		mc.say("You take over %s in %s. Your power mail, with the position and how to read the game so far, follows.", pn, g.Name)
		if err := mc.d.takeSeat(mc.tx, g, pw, mc.sender, mc.now, "first to ask"); err != nil {
			return err
		}
		if mc.game != g { // the mail was about another game of the sender's
			return mc.tx.PutGame(g)
		}
		return nil
	}
	return mc.askForSeat(g, pw)
}

// askForSeat records a request to take over an open seat and asks the GM.
func (mc *mailCtx) askForSeat(g *store.Game, power string) error {
	pn := powerName(g, power)
	for _, r := range g.Requests {
		if r.Address == mc.sender && r.Power == power {
			if r.Refused {
				mc.say("JOIN %s as %s: the GM declined your request to take it over. If you think that is wrong, ask the GM.", g.Name, pn)
			} else {
				mc.say("JOIN %s as %s: you asked already; the GM has not decided yet. I will write to you when they do.", g.Name, pn)
			}
			return nil
		}
	}
	waiting := 0
	for _, r := range g.Requests {
		if r.Power == power && !r.Refused {
			waiting++
		}
	}
	if waiting >= maxRequestsPerPower || len(g.Requests) >= maxRequests && !dropOldestRefused(g) {
		mc.say("JOIN %s as %s: too many requests are waiting for the GM's answer; please ask again later.", g.Name, pn)
		return nil
	}
	req := store.JoinRequest{Address: mc.sender, Power: power, Asked: mc.now.UTC(), Seat: true}
	var b strings.Builder
	fmt.Fprintf(&b, "%s asks to take over %s in %s, which nobody plays now (an open seat).\n", req.Address, pn, g.Name)
	fmt.Fprintf(&b, "Their record on this game master: %s.\n%s\n", recordText(mc.tx.RecordOf(req.Address)), candidateRating(mc.tx.Tx, req.Address)) // ratings.go
	fmt.Fprintf(&b, "To give them the seat, reply with\n  REPLACE %s WITH %s\n", commandPower(g, power), req.Address)
	if mc.d.diplomats(g) {
		fmt.Fprintf(&b, "(or ACCEPT %s); to decline, REFUSE %s [note].\n", req.Address, req.Address)
	} else {
		b.WriteString("To decline, do nothing: the request lapses when the seat is filled.\n")
	}
	to := g.GM
	if len(to) == 0 {
		to = mc.d.opt.GM
	}
	m := &Outgoing{To: to, Subject: fmt.Sprintf("[%s] %s asks to take over %s", g.Name, req.Address, pn), Text: b.String(), ReplyToken: g.GMToken, Game: g.Name, Phase: g.PhaseID}
	if err := mc.d.send(mc.tx, m); err != nil {
		return err
	}
	req.MsgID = m.MsgID
	g.Requests = append(g.Requests, req)
	if mc.game != g {
		if err := mc.tx.PutGame(g); err != nil {
			return err
		}
	}
	if err := mc.tx.Audit(store.AuditEntry{Time: mc.now.UTC(), Game: g.Name, Actor: mc.sender, Action: "seat-request", Detail: power, MsgID: mc.in.MsgID}); err != nil {
		return err
	}
	mc.say("I have asked the GM of %s to let you take over %s. I will write to you with the answer; until then you have no reply address and no say in %s's orders.", g.Name, pn, pn)
	return nil
}

// takeSeat makes addr the senior diplomat (the player) of the open seat
// power: a reply address, a password, the welcome with the position and
// the history, and a word to everyone else. how says who let them in, for
// the others ("approved by the GM").
func (d *Daemon) takeSeat(tx *txn, g *store.Game, power, addr string, now time.Time, how string) error {
	pn := powerName(g, power)
	for i := range g.Players { // an eliminated player's old record stays, marked
		if p := &g.Players[i]; p.Address == addr && !p.Left {
			p.Left, p.LeftHow, p.LeftAt = true, store.LeftMoved, now.UTC()
		}
	}
	p := store.Player{Address: addr, Power: power, Rank: 0, Token: newToken(), Joined: now.UTC()}
	welcome, err := d.seatWelcome(tx, g, power)
	if err != nil {
		return err
	}
	if err := d.mailSecretsWith(tx, g, &p, fmt.Sprintf("You take over %s in %s (an open seat, %s).\n\n", pn, g.Name, how), welcome); err != nil {
		return err
	}
	if err := tx.PutToken(p.Token, store.TokenRef{Game: g.Name, Address: addr}); err != nil {
		return err
	}
	g.Players = append(g.Players, p)
	noteSeniors(g, now) // their term as senior starts now (seniority.go)
	if err := d.dropSeatRequests(tx, g, power, addr); err != nil {
		return err
	}
	if err := tx.Audit(store.AuditEntry{Time: now.UTC(), Game: g.Name, Actor: addr, Action: "seat", Detail: power + " (" + how + ")"}); err != nil {
		return err
	}
	return d.publish(tx, g, fmt.Sprintf("[%s] New player for %s", g.Name, pn),
		fmt.Sprintf("%s has a new player, who took over the open seat (%s). Its units are no longer in civil disorder.\n", pn, how), map[string]bool{addr: true})
}

// gmsOf is the addresses of g's GM: its own, or the site GM's.
func (d *Daemon) gmsOf(g *store.Game) []string {
	if len(g.GM) > 0 {
		return g.GM
	}
	return d.opt.GM
}

// seatWelcome is what a player who takes over a power in a running game
// needs to play at once: the phase and its deadline, the position, the
// last results and how to read the rest.
func (d *Daemon) seatWelcome(tx *txn, g *store.Game, power string) (string, error) {
	e, err := engineFor(g)
	if err != nil || g.Status != store.Active {
		return "", err
	}
	state, err := tx.State(g.Name)
	if err != nil {
		return "", err
	}
	st, err := e.Status(state)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nThe game is in %s; orders are due by %s.\n", g.PhaseTitle, d.showTime(g.Deadline, nil))
	if slices.Contains(g.Waiting, power) {
		// What stands is what STATUS shows: an ejected player's orders
		// were struck (diplomats.go), a replaced one's still count.
		ords, err := currentOrders(tx.Tx, e, state, g)
		if err != nil {
			return "", err
		}
		if len(ords[power]) > 0 {
			fmt.Fprintf(&b, "%s owes orders this phase. Orders its last player sent for it stand until you send your own (STATUS shows them).\n", powerName(g, power))
		} else {
			fmt.Fprintf(&b, "%s owes orders this phase and has none: send yours by the deadline, or its units follow the civil disorder rule.\n", powerName(g, power))
		}
	}
	b.WriteString("\nThe position now:\n" + st.Summary)
	if g.Phase > 0 {
		rec, err := tx.Phase(g.Name, g.Phase-1)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\nThe last results (%s):\n%s\n", rec.Title, strings.TrimRight(rec.Public+rec.Position, "\n"))
	}
	fmt.Fprintf(&b, "\nThe game so far: %d phase%s processed. Reply HISTORY for the list, HISTORY <phase> for one in full with its public press, MAP for the board, RULES for the rules.\n", g.Phase, plural(g.Phase))
	return b.String(), nil
}

// dropSeatRequests ends the requests for a seat that is now filled and
// tells those who asked (but the one who took it).
func (d *Daemon) dropSeatRequests(tx *txn, g *store.Game, power, taker string) error {
	kept := g.Requests[:0]
	var lapsed []store.JoinRequest
	for _, r := range g.Requests {
		if r.Seat && r.Power == power {
			if r.Address != taker && !r.Refused {
				lapsed = append(lapsed, r)
			}
			continue
		}
		kept = append(kept, r)
	}
	g.Requests = kept
	for _, r := range lapsed {
		if err := d.send(tx, &Outgoing{To: []string{r.Address}, Subject: fmt.Sprintf("[%s] Your request to take over %s", g.Name, powerName(g, power)),
			Text: fmt.Sprintf("%s in %s has a new player now, so your request to take it over lapses. LIST %s shows whether another seat is open.\n", powerName(g, power), g.Name, g.Name), Game: g.Name, Phase: g.PhaseID}); err != nil {
			return err
		}
	}
	return nil
}
