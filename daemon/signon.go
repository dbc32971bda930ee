package daemon

import (
	"bytes"
	"crypto/subtle"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"

	"pbemd/orders"
	"pbemd/store"
)

// Password sign-on (SIGNON <power> <game> <password>, or SIGNON GM …).
//
// Guessing is bounded, and it is the guesser who is stopped, not the
// owner of the password. Failed SIGNONs are counted for an hour per
// sender address, per target (one game's power, or the GM password) and
// over all:
//
//   - an address with signonPerSender failures may not sign on by
//     password for the rest of the hour: its SIGNONs are refused without
//     comparing the password, so a refused guess costs no bcrypt and
//     tells nothing;
//   - past signonPerTarget failures against one target, or signonOverall
//     in all, the password is only delayed: it is compared at most once
//     per signonSpacing for mail from other addresses (the rest are
//     refused with the time to try again), which caps what a guesser
//     with many addresses learns without locking anyone out;
//   - the owner's own address (the power's player, a GM of the site or of
//     the game named for SIGNON GM) is never delayed by the others'
//     failures: only its own count stops it.
//
// The GM is alerted once when a limit is reached (not per attempt), every
// failure is logged at warn. Reply tokens are never limited: a player or
// GM refused password sign-on replies to one of the daemon's mails
// instead.
//
// bcrypt (tens of milliseconds at the default cost) runs before the
// mail's write transaction, on what a read-only transaction found; the
// write transaction only checks that the matched hash is still the
// player's. A flood of SIGNONs therefore never holds the write lock
// while hashing.
const (
	signonWindow    = time.Hour
	signonPerSender = 5  // failures from one address: it is stopped
	signonPerTarget = 10 // failures against one power (or the GM password): it is delayed
	signonOverall   = 50 // failures in all: every password is delayed
	signonSpacing   = time.Minute
)

// signonGuard counts failed SIGNONs in memory (a restart clears it; the
// limits are per hour anyway). Its maps stay small: past signonOverall
// failures a window, only one check a signonSpacing may fail, besides the
// owners' own addresses, each stopped after signonPerSender failures.
type signonGuard struct {
	mu        sync.Mutex
	start     time.Time // of the current window
	all       int
	lastAll   time.Time // the last check made past the overall limit
	bySender  map[string]int
	byTarget  map[string]int
	lastCheck map[string]time.Time // per target, the last check made past its limit
	tripped   map[string]bool      // limits reached this window (alerted once)
}

func newSignonGuard() *signonGuard { return &signonGuard{} }

func (s *signonGuard) roll(now time.Time) {
	if s.bySender == nil || now.Sub(s.start) >= signonWindow || now.Before(s.start) {
		s.start, s.all, s.lastAll = now, 0, time.Time{}
		s.bySender, s.byTarget, s.tripped = map[string]int{}, map[string]int{}, map[string]bool{}
		s.lastCheck = map[string]time.Time{}
	}
}

// admit returns why a SIGNON from sender against target is not even
// checked now ("" when it may be), and for a delay when it may be sent
// again. owner says that sender is the target's own address. A check
// admitted past the target's or the overall limit takes that limit's one
// slot per signonSpacing.
func (s *signonGuard) admit(sender, target string, owner bool, now time.Time) (why string, retry time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.roll(now)
	if s.bySender[sender] >= signonPerSender {
		return "too many failed SIGNONs from your address in the last hour", time.Time{}
	}
	if owner {
		return "", time.Time{}
	}
	overTarget, overAll := s.byTarget[target] >= signonPerTarget, s.all >= signonOverall
	next := now
	if overTarget {
		next = later(next, s.lastCheck[target].Add(signonSpacing))
	}
	if overAll {
		next = later(next, s.lastAll.Add(signonSpacing))
	}
	if next.After(now) {
		what := "for this power"
		if overAll && !(overTarget && s.lastCheck[target].Add(signonSpacing).After(now)) {
			what = "on this game master"
		}
		if r := next.Truncate(time.Minute); r.Before(next) {
			next = r.Add(time.Minute) // shown to the minute: not before it
		}
		return "many SIGNONs " + what + " have failed in the last hour, so I compare a password at most once a minute from addresses other than its owner's", next
	}
	if overTarget {
		s.lastCheck[target] = now
	}
	if overAll {
		s.lastAll = now
	}
	return "", time.Time{}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// fail counts one failure and returns the limits it reached just now
// (each once a window): "overall", "target", "sender".
func (s *signonGuard) fail(sender, target string, now time.Time) (reached []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.roll(now)
	s.all++
	s.bySender[sender]++
	s.byTarget[target]++
	for _, l := range []struct {
		key   string
		n     int
		limit int
	}{{"overall", s.all, signonOverall}, {"target:" + target, s.byTarget[target], signonPerTarget}, {"sender:" + sender, s.bySender[sender], signonPerSender}} {
		if l.n >= l.limit && !s.tripped[l.key] {
			s.tripped[l.key] = true
			reached = append(reached, strings.SplitN(l.key, ":", 2)[0])
		}
	}
	return reached
}

// signonCheck is what the pass before the write transaction made of the
// first SIGNON of a mail.
type signonCheck struct {
	res     *orders.Result  // the mail parsed for commands (reused)
	cmd     *orders.Command // its first SIGNON, nil if none
	target  string          // "gm", or game/power
	refused string          // why it was not checked (the guard), or ""
	retry   time.Time       // … when it may be sent again (zero: not within the hour)
	owner   bool            // the sender is the target's own address
	skipped bool            // not checked: the mail has a reply token
	ok      bool            // the password matched
	gm      bool            // … the GM password
	left    bool            // … the password of a diplomat who left the power
	game    string          // … of this game (players)
	address string          // … of this player
	hash    []byte          // … whose hash was this
}

// checkSignon reads the first SIGNON of a mail that may need one and
// compares its password outside any write transaction. It returns nil
// when the mail has none (or will not be read at all).
func (d *Daemon) checkSignon(in *Incoming, now time.Time) (*signonCheck, error) {
	if in.Auto || in.TooBig || !containsFold(in.Text, "signon") || orders.ReadLines(in.Text, maxReadLines) > maxReadLines {
		return nil, nil
	}
	res := orders.Parse(in.Text, orders.Options{})
	sc := &signonCheck{res: res}
	for _, c := range res.Commands() {
		if c.Verb == orders.VerbSignon {
			sc.cmd = c
			break
		}
	}
	if sc.cmd == nil {
		return sc, nil
	}
	power := strings.ToLower(strings.TrimSpace(sc.cmd.Power))
	game := strings.ToLower(strings.TrimSpace(sc.cmd.Game))
	isGM := power == "gm" || power == "master"
	type candidate struct {
		address string
		hash    []byte
	}
	var cands []candidate
	var gone *candidate // the sender, if a diplomat of the power who left it
	err := d.db.View(func(tx *store.Tx) error {
		if ref, ok := tx.Token(in.Token); ok && ref.Game != "" && tokenNamesPlayerOrGM(tx, ref, in.Token) {
			sc.skipped = true // identified by its token: SIGNON is not used
			return nil
		}
		if isGM {
			sc.target = "gm"
			gms := d.opt.GM
			if g, err := tx.Game(game); err == nil {
				gms = append(slices.Clip(gms), g.GM...)
			}
			sc.owner = slices.ContainsFunc(gms, func(a string) bool { return strings.EqualFold(a, in.unproven()) })
			return nil
		}
		sc.target = game + "/" + power
		g, err := tx.Game(game)
		if err != nil {
			return nil // no such game: fails, no hash to compare
		}
		plays := false
		for _, p := range g.Players {
			if !p.Left && powerMatches(p.Power, power) && p.PassHash != nil {
				cands = append(cands, candidate{p.Address, bytes.Clone(p.PassHash)})
				sc.target = game + "/" + p.Power // one target however the power is written
				plays = plays || p.Address == in.unproven()
			}
		}
		// Someone removed from the power (replaced, released, ejected,
		// resigned) who signs on with their old password gets the one
		// sentence their old reply address gets, not "SIGNON failed". Only
		// the latest record of the sender's own address is tried: one
		// bcrypt more at most, and none for a stranger's guess.
		for _, p := range g.Players {
			if p.Left && !plays && powerMatches(p.Power, power) && p.PassHash != nil && p.Address == in.unproven() {
				gone = &candidate{p.Address, bytes.Clone(p.PassHash)}
			}
		}
		return nil
	})
	if err != nil || sc.skipped {
		return sc, err
	}
	sc.owner = sc.owner || slices.ContainsFunc(cands, func(c candidate) bool { return c.address == in.unproven() })
	if sc.refused, sc.retry = d.signons.admit(in.unproven(), sc.target, sc.owner, now); sc.refused != "" {
		return sc, nil
	}
	if isGM {
		sc.ok = d.opt.GMPassword != "" && subtle.ConstantTimeCompare([]byte(sc.cmd.Password), []byte(d.opt.GMPassword)) == 1
		sc.gm = sc.ok
		return sc, nil
	}
	for _, c := range cands {
		if bcrypt.CompareHashAndPassword(c.hash, []byte(sc.cmd.Password)) == nil {
			sc.ok, sc.game, sc.address, sc.hash = true, game, c.address, c.hash
			return sc, nil
		}
	}
	if gone != nil && bcrypt.CompareHashAndPassword(gone.hash, []byte(sc.cmd.Password)) == nil {
		sc.left, sc.game, sc.address, sc.hash = true, game, gone.address, gone.hash
	}
	return sc, nil
}

// signedOnAsLeft answers the SIGNON of a diplomat who left the power, with
// the password they had, with the one sentence their old reply address
// gets; nothing else of the mail is done.
func (mc *mailCtx) signedOnAsLeft(sc *signonCheck) bool {
	if !sc.left {
		return false
	}
	g, err := mc.tx.Game(sc.game)
	if err != nil {
		return false
	}
	for i := len(g.Players) - 1; i >= 0; i-- {
		p := &g.Players[i]
		if p.Left && p.Address == sc.address && bytes.Equal(p.PassHash, sc.hash) {
			mc.say("%s", mc.d.leftSentence(g, p.Token))
			mc.done = true
			return true
		}
	}
	return false // changed since the password was compared
}

// tokenNamesPlayerOrGM reports whether a token makes its mail a game GM's
// or a current player's, so that identifyByPassword is not reached (an
// observer's or the site GM's token may still SIGNON as a player).
func tokenNamesPlayerOrGM(tx *store.Tx, ref store.TokenRef, token string) bool {
	g, err := tx.Game(ref.Game)
	if err != nil {
		return false
	}
	if ref.GM {
		return true
	}
	p := findPlayer(g, ref.Address)
	return p != nil && store.SameToken(p.Token, token)
}

func containsFold(s, sub string) bool {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return true
		}
	}
	return false
}

// signonFailed counts a failed SIGNON, logs it, and alerts the GM the
// first time it makes a limit reached.
func (mc *mailCtx) signonFailed(sc *signonCheck) error {
	d := mc.d
	game := strings.ToLower(strings.TrimSpace(sc.cmd.Game))
	reached := d.signons.fail(mc.sender, sc.target, mc.now)
	mc.log.Warn("password sign-on failed", "sender", mc.sender, "target", sc.target)
	if len(reached) == 0 {
		return nil
	}
	mc.log.Warn("password sign-on suspended: limit of failures reached", "limits", strings.Join(reached, ","), "sender", mc.sender, "target", sc.target)
	var g *store.Game // nil: the site GM is told (the GM password, or everyone locked out)
	if sc.target != "gm" && reached[0] != "overall" {
		g, _ = mc.tx.Game(game)
	}
	what := map[string]string{
		"overall": fmt.Sprintf("%d SIGNONs have failed on this game master within the hour: passwords are now compared at most once a minute from addresses other than their owners'", signonOverall),
		"target":  fmt.Sprintf("%d SIGNONs for %s have failed within the hour: its password is now compared at most once a minute from addresses other than its owner's", signonPerTarget, sc.target),
		"sender":  fmt.Sprintf("%d SIGNONs from %s have failed within the hour: that address may not sign on by password", signonPerSender, mc.sender),
	}
	var lines []string
	for _, r := range reached {
		lines = append(lines, what[r])
	}
	return d.alertLimited(mc.tx, g, alertSignon, "Failed SIGNONs",
		fmt.Sprintf("%s, until at most %s.\nThe latest attempt came from %s. Someone may be guessing passwords.\n\n"+
			"A reply to any of my GM mails always works, whatever these limits: its reply address carries your GM token, which needs no password. "+
			"So does a player's reply to one of my mails. A SIGNON from the power's own address (for SIGNON GM, a GM's address) is not delayed by others' failures.",
			strings.Join(lines, ";\n"), d.showTime(mc.now.Add(signonWindow), nil), mc.sender))
}
