package daemon

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"golang.org/x/crypto/bcrypt"

	"pbemd/orders"
	"pbemd/store"
)

// PASSWORD <new password> (or SET PASSWORD): a player chooses the password
// that SIGNON takes in mail sent from scratch (njudge's SET PASSWORD). As
// for SIGNON, bcrypt runs before the mail's write transaction, and only
// for a mail that proves itself a player's (by its reply token, or by a
// SIGNON whose password matched), so a stranger's PASSWORD costs no
// hashing. The reply confirms without echoing the password, and no log
// line holds it.

// The length of a password a player chooses: bcrypt reads at most 72
// bytes, and a short one is guessed sooner.
const (
	minPassword = 6
	maxPassword = 64
)

// passwordChange is the first PASSWORD of a mail as the pass before the
// write transaction made it.
type passwordChange struct {
	sum     [32]byte // SHA-256 of the new password: the command it is for
	refused string   // why it was not taken (its length), or ""
	game    string   // whose it is: the player the mail proved to be …
	address string   // … ("" when none: not hashed)
	hash    []byte   // the bcrypt hash of the new password
}

// checkPassword finds the first PASSWORD of a mail and, when the mail
// proves whose it is, hashes the new password outside any write
// transaction. sc is the mail's SIGNON, compared already (nil: none). It
// returns nil when the mail has no PASSWORD.
func (d *Daemon) checkPassword(in *Incoming, sc *signonCheck) (*passwordChange, error) {
	if in.Auto || in.TooBig || !containsFold(in.Text, "password") || orders.ReadLines(in.Text, maxReadLines) > maxReadLines {
		return nil, nil
	}
	res := orders.Parse(in.Text, orders.Options{})
	if sc != nil && sc.res != nil {
		res = sc.res // parsed already, the same way
	}
	var cmd *orders.Command
	for _, c := range res.Commands() {
		if c.Verb == orders.VerbPassword {
			cmd = c
			break
		}
	}
	if cmd == nil {
		return nil, nil
	}
	pc := &passwordChange{sum: sha256.Sum256([]byte(cmd.Arg))}
	if n := len(cmd.Arg); n < minPassword || n > maxPassword {
		pc.refused = fmt.Sprintf("a password has %d to %d characters (yours has %d)", minPassword, maxPassword, n)
		return pc, nil
	}
	err := d.db.View(func(tx *store.Tx) error {
		ref, ok := tx.Token(in.Token)
		if !ok || ref.Game == "" || ref.GM {
			return nil
		}
		g, err := tx.Game(ref.Game)
		if err != nil {
			return nil
		}
		if p := findPlayer(g, ref.Address); p != nil && p.Token == in.Token {
			pc.game, pc.address = g.Name, p.Address
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if pc.game == "" && sc != nil && sc.ok && !sc.gm {
		pc.game, pc.address = sc.game, sc.address
	}
	if pc.game == "" {
		return pc, nil // nobody proven: PASSWORD is refused in the mail's transaction
	}
	if pc.hash, err = bcrypt.GenerateFromPassword([]byte(cmd.Arg), d.passwordCost()); err != nil {
		return nil, fmt.Errorf("hash a new password: %w", err)
	}
	return pc, nil
}

// passwordCost is the bcrypt cost of players' passwords.
func (d *Daemon) passwordCost() int {
	if d.opt.PasswordCost == 0 {
		return bcrypt.DefaultCost
	}
	return d.opt.PasswordCost
}

func cmdPassword(mc *mailCtx, cmd *orders.Command) error {
	pc, p := mc.password, mc.player
	switch {
	case pc != nil && pc.refused != "":
		mc.say("PASSWORD: your password is not changed: %s.", pc.refused)
	case pc == nil || pc.hash == nil || pc.game != mc.game.Name || pc.address != p.Address ||
		pc.sum != sha256.Sum256([]byte(cmd.Arg)) || mc.passwordSet:
		mc.say("PASSWORD: your password is not changed: a mail sets one password, with its first PASSWORD, for the player it comes from. Send PASSWORD <new password> on its own, as a reply to one of my mails.")
	default:
		p.PassHash = pc.hash
		mc.passwordSet = true
		if err := mc.audit("password", p.Power); err != nil {
			return err
		}
		mc.say("PASSWORD: your password for %s in %s is changed. From any mailbox, start a mail to %s with\n  SIGNON %s %s <your password>\nReplying to one of my mails needs no password.",
			powerName(mc.game, p.Power), mc.game.Name, mc.d.opt.Address, p.Power, mc.game.Name)
	}
	return nil
}

// shownText is a mail's line as a reply may quote it: a SIGNON's or a
// PASSWORD's words after the verb are a password, and are not quoted.
func shownText(text string) string {
	t := strings.TrimSpace(text)
	f := strings.Fields(strings.ToLower(t))
	switch {
	case len(f) == 0:
		return t
	case f[0] == "signon" || f[0] == "password":
		return strings.Fields(t)[0] + " …"
	case len(f) > 1 && f[0] == "set" && f[1] == "password":
		w := strings.Fields(t)
		return w[0] + " " + w[1] + " …"
	}
	return t
}
