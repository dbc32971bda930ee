package daemon

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"pbemd/store"
)

// Alerts about the mail system itself (a mail given up, a mail set
// aside) must not feed on themselves: an undeliverable alert used to
// cause another alert, for ever (21,551 mails in 60 s with the GM's
// address refused). So:
//
//   - every alert carries the header X-Pbemd-Alert (AlertHeader), and a
//     failed alert is only logged (the wiring reads the header back from
//     the mail it gave up on: Undelivered.Alert);
//   - a mail only the GM was to get is not alerted about either (the alert
//     would go to the same refused address);
//   - a mail to someone outside every game (a stranger's answer) is only
//     logged: the GM can do nothing about it, and a stranger must not be
//     able to make the daemon mail the GM;
//   - each kind of alert goes out at most once per alertEvery per game (or
//     for the site); those held back are logged at warn and counted in the
//     next one of the kind.
const (
	// AlertHeader marks a mail as an alert to a GM (its value is "yes").
	AlertHeader = "X-Pbemd-Alert"
	// GameHeader names the game a mail is about.
	GameHeader = "X-Pbemd-Game"
	alertEvery = 15 * time.Minute
)

// Kinds of rate-limited alerts.
const (
	alertUndeliverable = "undeliverable"
	alertSetAside      = "set-aside"
	alertSignon        = "signon"
)

// alertLimited sends the GM of g (nil: the site GM) an alert of a kind,
// unless one of that kind went out less than alertEvery ago.
func (d *Daemon) alertLimited(tx *txn, g *store.Game, kind, subject, text string) error {
	name := "site"
	if g != nil {
		name = g.Name
	}
	held := "alert-held:" + kind + ":" + name
	ok, err := tx.AllowOncePer("alert:"+kind+":"+name, d.now(), alertEvery)
	if err != nil {
		return err
	}
	n, _ := strconv.Atoi(tx.Meta(held))
	if !ok {
		d.log.Warn("GM alert held back: one of its kind went out less than 15 minutes ago", "kind", kind, "game", name, "subject", subject, "text", text, "held", n+1)
		return tx.PutMeta(held, strconv.Itoa(n+1))
	}
	if n > 0 {
		text += fmt.Sprintf("\n\n(%d more alerts of this kind were held back since the last one went out; the log has each of them.)", n)
		if err := tx.PutMeta(held, ""); err != nil {
			return err
		}
	}
	return d.alertGM(tx, g, subject, text)
}

// Undelivered is a mail of the daemon's that the sender gave up
// delivering, as the wiring read it: the refused recipients, why, and the
// marks compose put on it (AlertHeader, GameHeader).
type Undelivered struct {
	MessageID  string
	Recipients []string // the refused ones
	Err        error
	Alert      bool   // the mail was itself an alert to a GM
	Game       string // the game it was about ("" for none)
}

// Undeliverable tells the GM, within the limits above, that a mail could
// not be delivered.
func (d *Daemon) Undeliverable(u Undelivered) error {
	log := d.log.With("msgid", u.MessageID, "to", strings.Join(u.Recipients, ","))
	if u.Alert {
		log.Error("an alert to the GM could not be delivered; not alerting about it", "err", u.Err)
		return nil
	}
	if u.Game == "" {
		log.Warn("a mail outside every game could not be delivered; the GM is not told", "err", u.Err)
		return nil
	}
	return d.update(func(tx *txn) error {
		game, err := tx.Game(u.Game)
		if err != nil {
			game = nil // the game is gone: tell the site GM
		}
		gms := d.opt.GM
		if game != nil && len(game.GM) > 0 {
			gms = game.GM
		}
		if allIn(u.Recipients, gms) {
			log.Error("a mail to the GM could not be delivered; not alerting the same address", "err", u.Err)
			return nil
		}
		return d.alertLimited(tx, game, alertUndeliverable, "Mail could not be delivered",
			fmt.Sprintf("I gave up delivering a mail (Message-ID <%s>) to %s: %v\nThe players concerned did not get it; check the addresses (REPLACE a player whose address is dead).",
				u.MessageID, strings.Join(u.Recipients, ", "), u.Err))
	})
}

// AlertOnce mails the site GM subject and text unless an alert under key
// went out less than every ago; it reports whether this one went out.
// The wiring uses it for what the daemon cannot see itself (its mailbox
// filling up).
func (d *Daemon) AlertOnce(key string, every time.Duration, subject, text string) (sent bool, err error) {
	err = d.update(func(tx *txn) error {
		ok, err := tx.AllowOncePer(key, d.now(), every)
		if err != nil || !ok {
			return err
		}
		sent = true
		return d.alertGM(tx, nil, subject, text)
	})
	return sent && err == nil, err
}

// SetAside answers a mail the transport set aside, unread by the game
// master: it could not be handled after failures tries (0: it could not be
// read at all). The GM is told, and so is its sender, once a day at most,
// so that nobody's orders vanish without a word. in is what could be read
// of it (nil: nothing); its MsgID is used only to thread the answer (the
// mail was never handled, so it is not recorded).
func (d *Daemon) SetAside(in *Incoming, failures int, cause error) error {
	from, told := "an unknown sender", false
	if in != nil && in.From != "" {
		from = in.From
		var err error
		if told, err = d.tellUnreadable(in); err != nil {
			d.log.Error("answer to a mail that was set aside", "err", err, "to", in.From)
		}
	}
	what := fmt.Sprintf("could not be processed after %d attempts", failures)
	if failures == 0 {
		what = "could not be read at all"
	}
	answer := "The sender was not answered (no usable address, a robot, or told already today)."
	if told {
		answer = "The sender was told that the mail could not be read and was asked to send it again."
	}
	return d.update(func(tx *txn) error {
		return d.alertLimited(tx, nil, alertSetAside, "A mail was set aside",
			fmt.Sprintf("A mail from %s %s and was set aside (flagged in the mailbox).\nError: %v\n%s Please look at it by hand.", from, what, cause, answer))
	})
}

// tellUnreadable answers the From address of a mail that was set aside,
// unless it is a robot, ourselves, or was told so in the last day. It
// reports whether the answer was queued. The answer goes to From, never
// to Reply-To: a mail nobody could read is not trusted to name a third
// party.
func (d *Daemon) tellUnreadable(in *Incoming) (bool, error) {
	to := strings.ToLower(in.From)
	local, domain, _ := strings.Cut(to, "@")
	base, _, _ := strings.Cut(local, "+")
	if in.Auto || domain == "" || domain == d.domain && base == d.local {
		return false, nil
	}
	var refs []string
	if in.MsgID != "" {
		refs = append(append(refs, in.References...), in.MsgID)
	}
	told := false
	err := d.update(func(tx *txn) error {
		ok, err := tx.AllowOncePer("unreadable:"+to, d.now(), 24*time.Hour)
		if err != nil || !ok {
			return err
		}
		subject := in.Subject
		if subject == "" {
			subject = "(no subject)"
		}
		told = true
		return d.send(tx, &Outgoing{
			To: []string{to}, Subject: reSubject(in.Subject), InReplyTo: in.MsgID, References: refs, Auto: autoReplied,
			Text: fmt.Sprintf("I could not read your mail \"%s\", so nothing in it was carried out.\n"+
				"The game master has been told and will look at it.\n"+
				"Please send your orders again as plain text, in a new mail or as a reply to one of my mails.\n", subject),
		})
	})
	return told && err == nil, err
}

func allIn(xs, set []string) bool {
	for _, x := range xs {
		found := false
		for _, s := range set {
			found = found || strings.EqualFold(x, s)
		}
		if !found {
			return false
		}
	}
	return len(xs) > 0
}
