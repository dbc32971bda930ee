package daemon

import (
	"bufio"
	"bytes"
	"fmt"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"pbemd/mailer"
	"pbemd/store"
)

// Alerts about the mail system itself (a mail given up, a mail set
// aside) must not feed on themselves: an undeliverable alert used to
// cause another alert, for ever (21,551 mails in 60 s with the GM's
// address refused). So:
//
//   - every alert carries the header X-Pbemd-Alert, and a failed alert is
//     only logged;
//   - a mail only the GM was to get is not alerted about either (the alert
//     would go to the same refused address);
//   - a mail to someone outside every game (a stranger's answer) is only
//     logged: the GM can do nothing about it, and a stranger must not be
//     able to make the daemon mail the GM;
//   - each kind of alert goes out at most once per alertEvery per game (or
//     for the site); those held back are logged at warn and counted in the
//     next one of the kind.
const (
	alertHeader = "X-Pbemd-Alert"
	gameHeader  = "X-Pbemd-Game"
	alertEvery  = 15 * time.Minute
)

// Kinds of rate-limited alerts.
const (
	alertUndeliverable = "undeliverable"
	alertSetAside      = "set-aside"
	alertSignon        = "signon"
)

// alertLimited sends the GM of g (nil: the site GM) an alert of a kind,
// unless one of that kind went out less than alertEvery ago.
func (d *Daemon) alertLimited(tx *store.Tx, g *store.Game, kind, subject, text string) error {
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

// mailHeader returns a header field of a raw mail ("" when absent).
func mailHeader(raw []byte, key string) string {
	end := bytes.Index(raw, []byte("\r\n\r\n"))
	if end < 0 {
		end = len(raw)
	}
	h, err := textproto.NewReader(bufio.NewReader(bytes.NewReader(raw[:end]))).ReadMIMEHeader()
	if err != nil && len(h) == 0 {
		return ""
	}
	return strings.TrimSpace(h.Get(key))
}

// giveUpAlert tells the GM, within the limits above, that a mail could
// not be delivered.
func (d *Daemon) giveUpAlert(g mailer.GiveUp) error {
	log := d.log.With("msgid", g.Mail.MessageID, "to", strings.Join(g.Recipients, ","))
	if mailHeader(g.Mail.Raw, alertHeader) != "" {
		log.Error("an alert to the GM could not be delivered; not alerting about it", "err", g.Err)
		return nil
	}
	name := mailHeader(g.Mail.Raw, gameHeader)
	if name == "" {
		log.Warn("a mail outside every game could not be delivered; the GM is not told", "err", g.Err)
		return nil
	}
	return d.db.Update(func(tx *store.Tx) error {
		game, err := tx.Game(name)
		if err != nil {
			game = nil // the game is gone: tell the site GM
		}
		gms := d.opt.GM
		if game != nil && len(game.GM) > 0 {
			gms = game.GM
		}
		if allIn(g.Recipients, gms) {
			log.Error("a mail to the GM could not be delivered; not alerting the same address", "err", g.Err)
			return nil
		}
		return d.alertLimited(tx, game, alertUndeliverable, "Mail could not be delivered", giveUpText(g))
	})
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
