package daemon

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"pbemd/orders"
	"pbemd/store"
)

// A power's diplomats: who may join it, who decides, and how everyone on
// the power hears who joined and who left.
//
// The seed gives juniors "as much power and authority as the senior
// partner chooses to give them". So a JOIN into a running game is a
// request to the power's senior diplomat, who answers ACCEPT or REFUSE;
// until then the candidate has no reply address, no password and no say in
// the power's orders. A power with no senior (the senior resigned or was
// ejected and nobody was promoted) has its requests decided by the GM. An
// accepted junior's orders count like the senior's (the latest version of
// any diplomat stands) until the senior sends LOCK JUNIORS; the senior may
// RELEASE a junior, the GM EJECT anyone.

// Bounds on join requests: each one costs the deciding diplomat a mail, so
// nobody can make many.
const (
	maxRequestsPerPower = 3  // waiting for an answer at once, per power
	maxRequests         = 32 // kept per game, refused ones included
)

// askToJoin records the sender's request to join power as a junior and
// mails it to whoever decides.
func (mc *mailCtx) askToJoin(g *store.Game, power string) error {
	for _, r := range g.Requests {
		if r.Address != mc.sender || r.Power != power {
			continue
		}
		if mc.game == nil {
			mc.game = g // a JOIN is always answered (identified)
		}
		if r.Refused {
			mc.say("JOIN %s: your request to join %s was declined. If you think that is wrong, ask the GM.", g.Name, powerName(g, power))
		} else {
			mc.say("JOIN %s: you asked to join %s on %s; the answer is not in yet. I will write to you when it is.", g.Name, powerName(g, power), mc.d.showTime(r.Asked, nil))
		}
		return nil
	}
	waiting := 0
	for _, r := range g.Requests {
		if r.Power == power && !r.Refused {
			waiting++
		}
	}
	if waiting >= maxRequestsPerPower {
		mc.say("JOIN %s: %d requests to join %s are waiting for an answer already; please ask again later.", g.Name, waiting, powerName(g, power))
		return nil
	}
	if len(g.Requests) >= maxRequests && !dropOldestRefused(g) {
		mc.say("JOIN %s: too many requests are waiting for an answer; please ask again later.", g.Name)
		return nil
	}
	req := store.JoinRequest{Address: mc.sender, Power: power, Asked: mc.now.UTC(), AskedOf: seniorOf(g, power)}
	m, err := mc.d.mailRequest(mc.tx, g, req)
	if err != nil {
		return err
	}
	req.MsgID = m.MsgID
	g.Requests = append(g.Requests, req)
	if mc.game == nil {
		mc.game = g
	}
	if mc.game != g {
		if err := mc.tx.PutGame(g); err != nil {
			return err
		}
	}
	if err := mc.tx.Audit(store.AuditEntry{Time: mc.now.UTC(), Game: g.Name, Actor: mc.sender, Action: "join-request", Detail: power, MsgID: mc.in.MsgID}); err != nil {
		return err
	}
	who := "the senior diplomat of " + powerName(g, power)
	if req.AskedOf == "" {
		who = "the GM (" + powerName(g, power) + " has no senior diplomat now)"
	}
	mc.say("I have asked %s to accept you as a junior diplomat of %s in %s. I will write to you with the answer; until then you have no reply address and no say in %s's orders.",
		who, powerName(g, power), g.Name, powerName(g, power))
	return nil
}

// dropOldestRefused makes room among a game's requests.
func dropOldestRefused(g *store.Game) bool {
	for i, r := range g.Requests {
		if r.Refused {
			g.Requests = append(g.Requests[:i], g.Requests[i+1:]...)
			return true
		}
	}
	return false
}

// mailRequest asks the senior diplomat of the request's power (or the GM)
// to answer it.
func (d *Daemon) mailRequest(tx *txn, g *store.Game, req store.JoinRequest) (*Outgoing, error) {
	pn := powerName(g, req.Power)
	var b strings.Builder
	to, token := []string{req.AskedOf}, ""
	if req.AskedOf == "" {
		to, token = g.GM, g.GMToken
		if len(to) == 0 {
			to = d.opt.GM
		}
		fmt.Fprintf(&b, "%s asks to join %s in %s as a junior diplomat. %s has no senior diplomat now, so you decide.\n", req.Address, pn, g.Name, pn)
	} else {
		if p := findPlayer(g, req.AskedOf); p != nil {
			token = p.Token
		}
		fmt.Fprintf(&b, "%s asks to join %s in %s as a junior diplomat. As its senior diplomat, you decide.\n", req.Address, pn, g.Name)
	}
	// Whoever decides sees the candidate's record, as the GM does for an
	// open seat (record.go).
	fmt.Fprintf(&b, "Their record on this game master: %s.\n%s\n", recordText(tx.RecordOf(req.Address)), candidateRating(tx.Tx, req.Address)) // ratings.go
	fmt.Fprintf(&b, "A junior diplomat gets a reply address and a password, the power's results and\n"+
		"press, and sends orders for %s: the latest orders of any of its diplomats\n"+
		"stand, unless the senior sends LOCK JUNIORS (this phase) or LOCK JUNIORS ALWAYS,\n"+
		"which make the senior's orders win.\n\n", pn)
	fmt.Fprintf(&b, "To accept, reply with\n  ACCEPT %s\nTo refuse, reply with\n  REFUSE %s\n(you may add a note for them after the address).\n\n", req.Address, req.Address)
	fmt.Fprintf(&b, "Until then %s has no reply address and no say in %s's orders.\nA junior can be released at any time with RELEASE <address>.\n", req.Address, pn)
	m := &Outgoing{To: to, Subject: fmt.Sprintf("[%s] %s asks to join %s", g.Name, req.Address, pn), Text: b.String(), ReplyToken: token, Game: g.Name, Phase: g.PhaseID}
	return m, d.send(tx, m)
}

func cmdAccept(mc *mailCtx, cmd *orders.Command) error { return mc.answerRequest(cmd, true) }
func cmdRefuse(mc *mailCtx, cmd *orders.Command) error { return mc.answerRequest(cmd, false) }

// decides tells whether the sender answers requests to join power: its
// senior diplomat, or the GM when it has none.
func (mc *mailCtx) decides(power string) bool {
	senior := seniorOf(mc.game, power)
	if mc.gm {
		return senior == ""
	}
	return mc.player != nil && senior != "" && mc.player.Address == senior
}

// answerRequest carries out ACCEPT (accept) or REFUSE.
func (mc *mailCtx) answerRequest(cmd *orders.Command, accept bool) error {
	g, verb := mc.game, cmd.Verb
	addr := strings.ToLower(strings.TrimSpace(cmd.Address))
	var mine []int // the open requests the sender decides
	for i, r := range g.Requests {
		if !r.Refused && mc.decides(r.Power) {
			mine = append(mine, i)
		}
	}
	pick := -1
	switch {
	case addr != "":
		for _, i := range mine {
			if g.Requests[i].Address == addr {
				pick = i
			}
		}
		if pick < 0 {
			mc.say("%s %s: %s", verb, addr, mc.noRequestFrom(addr))
			return nil
		}
	default:
		for _, i := range mine {
			if g.Requests[i].MsgID != "" && (g.Requests[i].MsgID == strings.Trim(mc.in.InReplyTo, "<> ") || slices.Contains(mc.in.References, g.Requests[i].MsgID)) {
				pick = i
			}
		}
		if pick < 0 && len(mine) == 1 {
			pick = mine[0]
		}
		if pick < 0 {
			if len(mine) == 0 {
				mc.say("%s: nobody is waiting for your answer to join a power of %s.", verb, g.Name)
				return nil
			}
			var who []string
			for _, i := range mine {
				who = append(who, g.Requests[i].Address+" ("+powerName(g, g.Requests[i].Power)+")")
			}
			mc.say("%s: several people are waiting for an answer: %s. Write %s <address>.", verb, strings.Join(who, ", "), verb)
			return nil
		}
	}
	req := g.Requests[pick]
	if !accept {
		g.Requests[pick].Refused = true
		return mc.refused(req, strings.TrimSpace(cmd.Arg))
	}
	g.Requests = append(g.Requests[:pick], g.Requests[pick+1:]...)
	if req.Seat { // an open seat (seats.go)
		if !slices.Contains(openSeats(g), req.Power) {
			mc.say("ACCEPT %s: %s is not an open seat any more, so the request lapses.", req.Address, powerName(g, req.Power))
			return nil
		}
		mc.say("%s now plays %s in %s; they have their password, reply address and the position.", req.Address, powerName(g, req.Power), g.Name)
		return mc.d.takeSeat(mc.tx, g, req.Power, req.Address, mc.now, "approved by the GM")
	}
	if g.Status != store.Active || !isAlive(g, req.Power) {
		mc.say("ACCEPT %s: %s is no longer in play in %s, so the request lapses.", req.Address, powerName(g, req.Power), g.Name)
		return nil
	}
	if p := findPlayer(g, req.Address); p != nil && p.Power != "" && isAlive(g, p.Power) {
		mc.say("ACCEPT %s: %s plays %s in %s already, so the request lapses.", req.Address, req.Address, powerName(g, p.Power), g.Name)
		return nil
	}
	return mc.admitJunior(req)
}

// noRequestFrom explains why the sender cannot answer for addr.
func (mc *mailCtx) noRequestFrom(addr string) string {
	g := mc.game
	for _, r := range g.Requests {
		if r.Address != addr {
			continue
		}
		pn := powerName(g, r.Power)
		switch {
		case r.Refused:
			return fmt.Sprintf("the request of %s to join %s was refused already.", addr, pn)
		case mc.gm:
			return fmt.Sprintf("%s has a senior diplomat, who decides (PROMOTE or REPLACE changes who that is).", pn)
		default:
			return fmt.Sprintf("only the senior diplomat of %s can answer that request.", pn)
		}
	}
	return fmt.Sprintf("%s has not asked to join a power of %s.", addr, g.Name)
}

// refused tells the candidate that the request was declined.
func (mc *mailCtx) refused(req store.JoinRequest, note string) error {
	g := mc.game
	pn := powerName(g, req.Power)
	by := "The senior diplomat of " + pn
	if mc.gm {
		by = "The GM"
	}
	text := fmt.Sprintf("%s has declined your request to join %s in %s as a junior diplomat.\n", by, pn, g.Name)
	if req.Seat {
		text = fmt.Sprintf("%s has declined your request to take over %s in %s.\n", by, pn, g.Name)
	}
	if note != "" {
		text += "\nTheir note: " + note + "\n"
	}
	text += fmt.Sprintf("\nYou can still follow the game's public results: send OBSERVE %s.\n", g.Name)
	if err := mc.d.send(mc.tx, &Outgoing{To: []string{req.Address}, Subject: fmt.Sprintf("[%s] Your request to join %s", g.Name, pn), Text: text, Game: g.Name, Phase: g.PhaseID}); err != nil {
		return err
	}
	if req.Seat {
		mc.say("You have refused %s the open seat of %s; I have told them.", req.Address, pn)
	} else {
		mc.say("You have refused %s as a junior diplomat of %s; I have told them (without your address).", req.Address, pn)
	}
	return mc.audit("join-refused", req.Power+": "+req.Address)
}

// admitJunior makes the candidate of an accepted request a junior
// diplomat: a token, a password, the power mail, and a word to the power.
func (mc *mailCtx) admitJunior(req store.JoinRequest) error {
	g := mc.game
	pn := powerName(g, req.Power)
	// An eliminated player may come back as the most junior diplomat of a
	// surviving power (seed): their old record stays, marked Left.
	for i := range g.Players {
		if p := &g.Players[i]; p.Address == req.Address && !p.Left {
			p.Left, p.LeftHow, p.LeftAt = true, store.LeftMoved, mc.now.UTC()
		}
	}
	p := store.Player{Address: req.Address, Power: req.Power, Rank: nextRank(g, req.Power), Token: newToken(), Joined: mc.now.UTC()}
	by := "its senior diplomat"
	if mc.gm {
		by = "the GM"
	}
	if err := mc.d.mailSecrets(mc.tx, g, &p, fmt.Sprintf("Your request to join %s was accepted by %s.\n\n", pn, by)); err != nil {
		return err
	}
	if err := mc.tx.PutToken(p.Token, store.TokenRef{Game: g.Name, Address: p.Address}); err != nil {
		return err
	}
	g.Players = append(g.Players, p)
	if mc.player != nil { // the append may have moved the records
		mc.player = findPlayer(g, mc.player.Address)
	}
	if err := mc.audit("join", req.Power+": "+req.Address); err != nil {
		return err
	}
	mc.say("%s is now a junior diplomat of %s (seniority %d), with a reply address and a password. RELEASE %s lets them go again.", p.Address, pn, p.Rank, p.Address)
	tell := mc.d.tellPowerAndGM
	if mc.gm {
		tell = mc.d.tellPower
	}
	return tell(mc.tx, g, req.Power, fmt.Sprintf("%s joined %s", p.Address, pn),
		fmt.Sprintf("%s has joined %s as a junior diplomat (seniority %d), accepted by %s.\n%s\n", p.Address, pn, p.Rank, by, authorityNote(g, req.Power)),
		p.Address, mc.sender)
}

// authorityNote says how much say the juniors of power have now.
func authorityNote(g *store.Game, power string) string {
	if seniorLocked(g, power) {
		return "The senior's LOCK JUNIORS is on: the senior's orders win over the juniors'."
	}
	return "Their orders count like any diplomat's: the latest version stands, unless the senior sends LOCK JUNIORS."
}

// tellPower mails every diplomat of power (but skip) a word about the
// power's diplomats. It is not subject to SILENT: who may order for a
// power is never hidden from the power.
func (d *Daemon) tellPower(tx *txn, g *store.Game, power, subject, text string, skip ...string) error {
	subject = fmt.Sprintf("[%s] %s", g.Name, subject)
	for i := range g.Players {
		p := &g.Players[i]
		if p.Left || p.Power != power || slices.Contains(skip, p.Address) {
			continue
		}
		if err := d.send(tx, &Outgoing{To: []string{p.Address}, Subject: subject, Text: text, ReplyToken: p.Token, Game: g.Name, Phase: g.PhaseID}); err != nil {
			return err
		}
	}
	return nil
}

// tellPowerAndGM is tellPower with a copy for the GM (for what a diplomat,
// not the GM, did).
func (d *Daemon) tellPowerAndGM(tx *txn, g *store.Game, power, subject, text string, skip ...string) error {
	if err := d.tellPower(tx, g, power, subject, text, skip...); err != nil {
		return err
	}
	return d.gmCopy(tx, g, fmt.Sprintf("[%s] %s", g.Name, subject), text)
}

// removeDiplomat takes p off its power (how: store.LeftReleased, …).
// Released and ejected diplomats' orders for the open phase stop counting;
// a resigned or replaced one's stand until the power sends others. why,
// when not empty, is mailed to p: they are told once, and later mails to
// their old reply address get one sentence (leftSentence). The rest of the
// power is told by the caller, with leftNote.
func (d *Daemon) removeDiplomat(tx *txn, g *store.Game, p *store.Player, how store.Departure, now time.Time, why string) error {
	if err := countLeft(tx.Tx, g, p, how); err != nil { // reliability record (record.go)
		return err
	}
	p.Left, p.LeftHow, p.LeftAt = true, how, now.UTC()
	if dropsOrders(how) {
		g.Dropped = append(g.Dropped, store.Drop{Address: p.Address, At: now.UTC()})
	}
	if why == "" {
		return nil
	}
	text := why + "\n\nYour reply address and password for " + g.Name + " no longer work. To follow the game's\npublic results, send OBSERVE " + g.Name + " to " + d.opt.Address + ".\n"
	return d.send(tx, &Outgoing{To: []string{p.Address}, Subject: fmt.Sprintf("[%s] You no longer play %s", g.Name, powerName(g, p.Power)), Text: text, Game: g.Name, Phase: g.PhaseID})
}

func dropsOrders(how store.Departure) bool {
	return how == store.LeftReleased || how == store.LeftEjected
}

// leftNote tells the rest of a power that p has left it.
func leftNote(g *store.Game, p *store.Player) string {
	pn := powerName(g, p.Power)
	what := map[store.Departure]string{
		store.LeftResigned: "resigned",
		store.LeftReplaced: "replaced by the GM",
		store.LeftReleased: "released by the senior diplomat",
		store.LeftEjected:  "removed by the GM",
	}[p.LeftHow]
	text := fmt.Sprintf("%s has left %s (%s).\n", p.Address, pn, what)
	if dropsOrders(p.LeftHow) {
		text += fmt.Sprintf("Orders they sent for %s no longer count.\n", g.PhaseTitle)
	}
	if seniorOf(g, p.Power) == "" && hasDiplomats(g, p.Power) {
		text += fmt.Sprintf("%s has no senior diplomat now: the GM chooses one (PROMOTE), and decides requests to join.\n", pn)
	}
	return text
}

// hasDiplomats tells whether anyone still plays power.
func hasDiplomats(g *store.Game, power string) bool { return diplomatsOf(g, power) > 0 }

func cmdRelease(mc *mailCtx, cmd *orders.Command) error {
	g, me := mc.game, mc.player
	addr := strings.ToLower(strings.TrimSpace(cmd.Address))
	pn := powerName(g, me.Power)
	if me.Rank != 0 {
		mc.say("RELEASE: only the senior diplomat of %s can release a junior.", pn)
		return nil
	}
	if addr == me.Address {
		mc.say("RELEASE: you cannot release yourself; RESIGN leaves the game.")
		return nil
	}
	p := findPlayer(g, addr)
	if p == nil || p.Power != me.Power {
		mc.say("RELEASE %s: %s is not a junior diplomat of %s.", addr, addr, pn)
		return nil
	}
	if err := mc.audit("release", me.Power+": "+addr); err != nil {
		return err
	}
	mc.say("%s is no longer a diplomat of %s; orders they sent for %s no longer count. They and the rest of %s are told.", addr, pn, g.PhaseTitle, pn)
	err := mc.d.removeDiplomat(mc.tx, g, p, store.LeftReleased, mc.now,
		fmt.Sprintf("The senior diplomat of %s has released you: you are no longer a diplomat of %s in %s.\nOrders you sent for %s no longer count.", pn, pn, g.Name, g.PhaseTitle))
	if err != nil {
		return err
	}
	return mc.d.tellPowerAndGM(mc.tx, g, p.Power, fmt.Sprintf("%s left %s", addr, pn), leftNote(g, p), me.Address)
}

// leftSentence is the one answer to a mail sent to the reply address of
// someone who no longer plays.
func (d *Daemon) leftSentence(g *store.Game, token string) string {
	var p *store.Player
	for i := range g.Players {
		if store.SameToken(g.Players[i].Token, token) {
			p = &g.Players[i]
		}
	}
	if p == nil {
		return fmt.Sprintf("That reply address belongs to someone who no longer plays in %s, so I did not act on this mail; if that is you, ask the GM.", g.Name)
	}
	if now := findPlayer(g, p.Address); now != nil && now.Power != "" {
		return fmt.Sprintf("That reply address was for %s, which you no longer play in %s; you now play %s: reply to a mail I sent you about it.", powerName(g, p.Power), g.Name, powerName(g, now.Power))
	}
	when := ""
	if !p.LeftAt.IsZero() {
		when = " on " + p.LeftAt.UTC().Format("2 Jan 2006")
	}
	what := map[store.Departure]string{
		store.LeftResigned: "You resigned from %s%s",
		store.LeftReplaced: "The GM replaced you in %s%s",
		store.LeftReleased: "The senior diplomat released you from %s%s",
		store.LeftEjected:  "The GM removed you from %s%s",
	}[p.LeftHow]
	if what == "" {
		what = "You no longer play in %s%s"
	}
	return fmt.Sprintf(what, g.Name, when) + ", so I did not act on this mail; write to " + d.opt.Address + " from scratch for anything else."
}
