package daemon

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"pbemd/adjudicator"
	"pbemd/orders"
	"pbemd/store"
)

// mailCtx is the work on one incoming mail, inside one transaction.
type mailCtx struct {
	d      *Daemon
	tx     *txn
	in     *Incoming
	now    time.Time
	sender string
	log    *slog.Logger

	// Who the mail proved to be from.
	game     *store.Game
	player   *store.Player   // points into game.Players
	gm       bool            // the GM of game
	siteGM   bool            // the site's GM (may CREATE games)
	observer bool            // an observer of game (obs is its record)
	obs      *store.Observer // points into game.Observers
	// how it proved it, for the reply ("by your reply address", "by password")
	authBy string
	// signon is the first SIGNON of the mail, its password compared
	// before this transaction (signon.go); nil when it has none.
	signon *signonCheck
	// password is the first PASSWORD of the mail, hashed before this
	// transaction (password.go); passwordSet once it is the player's.
	password    *passwordChange
	passwordSet bool

	engine adjudicator.Engine
	state  []byte

	reply  []string // sections of the reply, in order
	silent bool     // GM said SILENT: do not announce to players
	done   bool     // answered already: read nothing more of the mail

	// pictures go with the reply (STATUS, MAP: mapcmd.go)
	pictures []*mailPicture
}

func (mc *mailCtx) say(format string, args ...any) {
	mc.reply = append(mc.reply, fmt.Sprintf(format, args...))
}

// HandleMail carries out everything one mail asks for, in one transaction,
// and queues its reply. It returns an error only when the mail could not be
// processed at all (the store failed; errors.Is store.ErrWrite when it
// could not write): the caller retries it later, and the Message-ID record
// makes the retry harmless.
func (d *Daemon) HandleMail(ctx context.Context, in *Incoming) error {
	p, err := d.prepare(in)
	if err != nil {
		return err
	}
	return d.handlePrepared(p)
}

// prepared is one mail after the pass outside any write transaction:
// bcrypt runs there (signon.go, password.go), never inside the write lock.
type prepared struct {
	in       *Incoming
	now      time.Time
	log      *slog.Logger
	signon   *signonCheck
	password *passwordChange
}

// prepare is the pass over one mail before its write transaction.
func (d *Daemon) prepare(in *Incoming) (*prepared, error) {
	p := &prepared{in: in, now: d.now(), log: d.log.With("msgid", in.MsgID, "from", in.From)}
	d.metrics.MailsIn.Add(1)
	if in.Auto {
		return p, nil
	}
	var err error
	if p.signon, err = d.checkSignon(in, p.now); err != nil {
		return nil, fmt.Errorf("handle mail %s: %w", in.MsgID, err)
	}
	if p.password, err = d.checkPassword(in, p.signon); err != nil {
		return nil, fmt.Errorf("handle mail %s: %w", in.MsgID, err)
	}
	return p, nil
}

// handlePrepared carries out a prepared mail in its own transaction.
func (d *Daemon) handlePrepared(p *prepared) error {
	var counted string
	err := d.update(func(tx *txn) error {
		var err error
		counted, err = d.handleIn(tx, p)
		return err
	})
	if err != nil {
		// Nothing of the mail landed, its answer included, and it will be
		// handed over again: its count toward the sender's rate limit is
		// taken back.
		if counted != "" {
			d.rate.uncount(counted, p.now)
		}
		return fmt.Errorf("handle mail %s: %w", p.in.MsgID, err)
	}
	return nil
}

// handleIn is a prepared mail's work inside the write transaction tx:
// test-and-record its Message-ID, carry it out, queue its answer. It
// returns the address the rate limit counted the mail for ("" when none),
// also with an error: the count is taken back if tx is not committed.
func (d *Daemon) handleIn(tx *txn, p *prepared) (counted string, err error) {
	in, now, log := p.in, p.now, p.log
	if in.Auto {
		log.Info("mail not answered: bounce or auto-reply")
		d.metrics.MailsIgnored.Add(1)
		_, err := tx.MarkMailProcessed(in.MsgID, now)
		return "", err
	}
	first, err := tx.MarkMailProcessed(in.MsgID, now)
	if err != nil {
		return "", err
	}
	if !first {
		log.Info("duplicate mail ignored")
		d.metrics.MailsIgnored.Add(1)
		return "", nil
	}
	if in.TooBig {
		// Not read, so not proven: answered at its From address, once
		// an hour, and a stranger within its budget.
		to := in.unproven()
		once, err := tx.AllowOncePer("too-big:"+to, now, time.Hour)
		if err != nil || !once {
			return "", err
		}
		if ok, _, err := d.mayAnswerUnproven(tx.Tx, to, now, log); err != nil || !ok {
			return "", err
		}
		if d.rate.check(to, now) == silent {
			return to, nil
		}
		return to, d.send(tx, &Outgoing{
			To: []string{to}, Subject: reSubject(in.Subject), InReplyTo: in.MsgID,
			References: append(in.References, in.MsgID), Auto: autoReplied,
			Text: "Your mail was too large for me to read, so I did not look at it.\n" +
				"Please send your orders as plain text in the body of a short mail\n" +
				"(no attachments); a few kilobytes is plenty.\n",
		})
	}
	mc := &mailCtx{d: d, tx: tx, in: in, now: now, sender: in.unproven(), log: log, signon: p.signon, password: p.password}
	if err := mc.run(); err != nil {
		return "", err
	}
	if len(mc.reply) == 0 {
		return "", nil
	}
	if in.UnknownCharset != "" {
		mc.reply = append([]string{fmt.Sprintf("Your mail says its text is in the character set %q, which I cannot read, so I guessed at its letters: "+
			"anything outside plain English letters may have been misread below. If something is wrong, set your mail program to send UTF-8 and send it again.",
			in.UnknownCharset)}, mc.reply...)
	}
	if !mc.identified() {
		ok, last, err := d.mayAnswerUnproven(tx.Tx, mc.sender, now, log)
		if err != nil || !ok {
			return "", err
		}
		if last {
			mc.say("(I answer an address I do not know yet at most %d times a day, and this is the last answer today. Once you have joined a game, I answer replies to my mails to you.)", strangerAnswers)
		}
	}
	switch d.rate.check(mc.sender, now) {
	case silent:
		log.Warn("rate limit: mail processed, not answered", "sender", mc.sender)
		return mc.sender, nil
	case notice:
		mc.reply = append(mc.reply, fmt.Sprintf("You have sent more than %d mails in the last hour. I have carried out this one, but I will not answer you again for a while.", d.opt.RateLimit))
	}
	return mc.sender, mc.sendReply()
}

// Where answers go. A mail that proves who sent it (a reply token, a
// password) is answered at its Reply-To, else its From: the sender holds
// the secret, and may well write from one mailbox and read another. A
// mail that proves nothing is answered at its From address only, never at
// a Reply-To: Reply-To is a header anyone sets to anything at no cost,
// while a forged From of a domain that publishes DMARC is refused on its
// way in. Even so, From is forgeable, so such a mail from an address the
// daemon has never mailed as a player, observer or GM (a stranger) is
// answered within a small budget, durably (a restart does not reopen the
// tap): strangerAnswers a day per address, enough for a newcomer's HELP,
// LIST and questions (mailing-list managers answer about ten automatic
// replies a day per address), and strangersPerHour an hour to all
// strangers together, so the daemon cannot be made to reflect much mail
// at anyone by forged senders. Past either, it is silent. A JOIN or
// OBSERVE makes the sender known and is always answered.
const (
	strangerDay      = 24 * time.Hour
	strangerAnswers  = 10  // per stranger address and strangerDay
	strangersPerHour = 100 // to all strangers together
)

// unproven is the address an unproven mail is answered at: its From.
func (in *Incoming) unproven() string {
	if in.From == "" {
		return in.Sender()
	}
	return strings.ToLower(in.From)
}

// mayAnswerUnproven reports whether an answer to a mail that proved
// nothing may go to addr: always to a known address, within the budgets
// above to a stranger; last says that this is the stranger's last answer
// of the day.
func (d *Daemon) mayAnswerUnproven(tx *store.Tx, addr string, now time.Time, log *slog.Logger) (ok, last bool, err error) {
	if tx.KnownAddress(addr) {
		return true, false, nil
	}
	// The address's own budget first: one address past it uses up
	// nothing of the budget all strangers share.
	ok, left, err := tx.AllowNPer("stranger-day:"+addr, now, strangerDay, strangerAnswers)
	if err != nil || !ok {
		if err == nil {
			log.Info("stranger answered as often as a day allows: not answered", "to", addr, "limit", strangerAnswers)
		}
		return false, false, err
	}
	ok, _, err = tx.AllowNPer("strangers-hour", now, time.Hour, strangersPerHour)
	if err == nil && !ok {
		log.Warn("strangers answered as often as an hour allows: not answered", "to", addr, "limit", strangersPerHour)
	}
	return ok, left == 0, err
}

// identified reports whether the mail proved who sent it (by token or
// password) or made its sender one of a game (JOIN, OBSERVE).
func (mc *mailCtx) identified() bool {
	return mc.player != nil || mc.gm || mc.siteGM || mc.observer || mc.game != nil
}

// settleSender sets where the answer goes (see strangerAnswers).
func (mc *mailCtx) settleSender() {
	if mc.identified() {
		mc.sender = mc.in.Sender()
	} else {
		mc.sender = mc.in.unproven()
	}
}

// run identifies the sender, parses the mail and carries out what it says.
func (mc *mailCtx) run() error {
	if err := mc.identifyByToken(); err != nil || mc.done {
		return err
	}
	mc.settleSender()
	// Bounded work: a mail with more lines than anyone writes by hand is
	// refused before it is parsed (the parse and the engine's check run
	// inside the write lock).
	if n := orders.ReadLines(mc.in.Text, maxReadLines); n > maxReadLines {
		mc.log.Warn("mail refused: too many lines", "limit", maxReadLines)
		mc.say("Your mail has more than %d lines for me to read (quoted text and signatures not counted), so I did not read it: nothing in it was carried out. Please send at most %d lines in one mail; you may send several mails.", maxReadLines, maxReadLines)
		return nil
	}
	// A pass without a game's lexicon finds the commands: enough for
	// SIGNON and for mails that carry no orders. A player's mail is read
	// once more, with the game's lexicon, by the engine.
	var res *orders.Result
	if mc.player == nil && !mc.gm {
		if mc.signon != nil {
			res = mc.signon.res // parsed already, the same way
		} else {
			res = orders.Parse(mc.in.Text, orders.Options{})
		}
		if err := mc.identifyByPassword(res); err != nil || mc.done {
			return err
		}
		mc.settleSender()
	}
	if err := mc.loadGame(); err != nil {
		return err
	}
	var lines []orders.Line
	var check *adjudicator.Check
	if mc.player != nil && mc.player.Power != "" && mc.engine != nil && mc.game.Status == store.Active {
		c, err := mc.engine.Check(mc.state, mc.player.Power, mc.in.Text)
		if err != nil {
			return fmt.Errorf("check orders: %w", err)
		}
		check = &c
		lines = c.Lines
		mc.dropQuotedResults(lines) // quoted.go
	} else {
		if res == nil {
			res = orders.Parse(mc.in.Text, orders.Options{})
		}
		lines = res.Lines
	}
	if err := mc.execute(lines, check); err != nil {
		return err
	}
	return mc.saveGame()
}

// saveGame writes the mail's game back if the mail changed it. The record
// is compared with the one the store holds now (what this transaction
// wrote already included), so no command has to remember to say that it
// changed the game, and one a writer of its own has written (endGame,
// resume) is not written again.
func (mc *mailCtx) saveGame() error {
	g := mc.game
	if g == nil {
		return nil
	}
	noteSeniors(g, mc.now) // who is senior of which power, from when (seniority.go)
	if mc.tx.GameIs(g) {
		return nil
	}
	return mc.tx.PutGame(g)
}

// identifyByToken reads the +token of the address the mail was sent to.
func (mc *mailCtx) identifyByToken() error {
	if mc.in.Token == "" {
		return nil
	}
	ref, ok := mc.tx.Token(mc.in.Token)
	if !ok {
		mc.say("The reply address you wrote to is not one I know (it may belong to a game that has ended, or to a player who was replaced). I have treated your mail as if it had been sent to %s.", mc.d.opt.Address)
		return nil
	}
	if ref.Game == "" {
		mc.siteGM = ref.GM
		mc.authBy = "reply address"
		return nil
	}
	g, err := mc.tx.Game(ref.Game)
	if err != nil {
		return nil // the game is gone; the token is stale
	}
	mc.game = g
	mc.authBy = "reply address"
	switch {
	case ref.GM:
		mc.gm = true
	default:
		if p := findPlayer(g, ref.Address); p != nil && !p.Left && store.SameToken(p.Token, mc.in.Token) {
			mc.player = p
		} else if o := findObserver(g, ref.Address); o != nil && store.SameToken(o.Token, mc.in.Token) {
			mc.observer, mc.obs = true, o
		} else {
			// Someone who left (resigned, replaced, released, ejected):
			// told once when it happened, now one sentence, nothing done.
			mc.game = nil
			mc.say("%s", mc.d.leftSentence(g, mc.in.Token))
			mc.done = true
		}
	}
	return nil
}

// identifyByPassword looks for SIGNON (a player's or the GM's password) in
// a mail written from scratch. The password was compared before this
// transaction (checkSignon); here the match is taken only if the player
// still has the hash that matched.
func (mc *mailCtx) identifyByPassword(res *orders.Result) error {
	var cmd *orders.Command
	for _, c := range res.Commands() {
		if c.Verb == orders.VerbSignon {
			cmd = c
			break
		}
	}
	if cmd == nil {
		return nil
	}
	sc := mc.signon
	switch {
	case sc == nil || sc.cmd == nil || sc.skipped:
		// Sent to a reply address that is known but names nobody who
		// plays now: passwords are checked for mail to the plain address.
		mc.say("SIGNON was not checked, as this mail went to a reply address. To sign on by password, write to %s.", mc.d.opt.Address)
		return nil
	case sc.refused != "":
		mc.log.Info("password sign-on refused unchecked", "why", sc.refused, "target", sc.target)
		again := ""
		if !sc.retry.IsZero() {
			again = fmt.Sprintf(" You may send it again after %s.", mc.d.showTime(sc.retry, nil))
		}
		mc.say("SIGNON refused: %s, so I did not check the password. Nothing in this mail was carried out as %s.%s Replying to one of my mails to you needs no password and always works.", sc.refused, strings.ToUpper(cmd.Power), again)
		return nil
	}
	if mc.authenticate(sc) || mc.signedOnAsLeft(sc) {
		return nil
	}
	mc.say("SIGNON failed: the game, power or password is wrong. Nothing in this mail was carried out as %s. (Replying to one of my mails to you needs no password.)", strings.ToUpper(cmd.Power))
	return mc.signonFailed(sc)
}

// authenticate takes the result of checkSignon.
func (mc *mailCtx) authenticate(sc *signonCheck) bool {
	if !sc.ok {
		return false
	}
	if sc.gm {
		mc.authBy = "GM password"
		if sc.cmd.Game == "" {
			mc.siteGM = true
			return true
		}
		g, err := mc.tx.Game(sc.cmd.Game)
		if err != nil {
			mc.siteGM = true
			return true
		}
		mc.game, mc.gm, mc.siteGM = g, true, true
		return true
	}
	g, err := mc.tx.Game(sc.game)
	if err != nil {
		return false
	}
	for i := range g.Players {
		p := &g.Players[i]
		if p.Address == sc.address && !p.Left && bytes.Equal(p.PassHash, sc.hash) {
			mc.game, mc.player, mc.authBy = g, p, "password"
			return true
		}
	}
	return false // changed since the password was compared
}

// powerMatches compares a power id with what a player wrote: the id, the
// name in any case, or its initial letter (njudge's "SIGNON Rgame").
func powerMatches(id, written string) bool {
	w := strings.ToLower(strings.TrimSpace(written))
	id = strings.ToLower(id)
	return w == id || (len(w) == 1 && strings.HasPrefix(id, w))
}

func (mc *mailCtx) loadGame() error {
	if mc.game == nil {
		return nil
	}
	mc.log = mc.log.With("game", mc.game.Name, "phase", mc.game.PhaseID)
	e, err := engineFor(mc.game)
	if err != nil {
		return err
	}
	mc.engine = e
	if mc.game.Status == store.Active {
		// read only (engines are pure), so the transaction's copy
		st, err := mc.tx.SharedState(mc.game.Name)
		if err != nil {
			return err
		}
		mc.state = st
	}
	return nil
}

func findObserver(g *store.Game, address string) *store.Observer {
	for i := range g.Observers {
		if g.Observers[i].Address == address {
			return &g.Observers[i]
		}
	}
	return nil
}

// sendReply queues the answer to the mail.
func (mc *mailCtx) sendReply() error {
	if len(mc.reply) == 0 {
		return nil
	}
	var token string
	switch {
	case mc.gm && mc.game != nil:
		token = mc.game.GMToken
	case mc.player != nil:
		token = mc.player.Token
	case mc.obs != nil:
		token = mc.obs.Token
	case mc.siteGM:
		var err error
		if token, err = mc.tx.SiteToken(); err != nil {
			return err
		}
	}
	subject := reSubject(mc.in.Subject)
	if mc.game != nil && !strings.Contains(subject, "["+mc.game.Name+"]") {
		subject = "[" + mc.game.Name + "] " + subject
	}
	body := strings.Join(mc.reply, "\n\n") + "\n"
	return mc.d.send(mc.tx, &Outgoing{
		To:         []string{mc.sender},
		Subject:    subject,
		Text:       body,
		ReplyToken: token,
		InReplyTo:  mc.in.MsgID,
		References: append(append([]string(nil), mc.in.References...), mc.in.MsgID),
		Auto:       autoReplied,
		Game:       gameName(mc.game),
		Phase:      phaseOf(mc.game),
		Pictures:   mc.pictures,
	})
}

func reSubject(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "Re: your mail"
	}
	if len(s) >= 3 && strings.EqualFold(s[:3], "re:") {
		return s
	}
	return "Re: " + s
}
