package mailserver

import (
	"errors"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"
)

// Failed logins are throttled, so that a local user who floods the
// server with wrong passwords costs it almost no CPU and guesses slowly.
// Only a password of its own (a system or configured account) costs a
// bcrypt to check; an automatic account's password is a rule over the
// public address, compared by digest, and a login that names no usable
// address fails at once: neither needs a throttle.
//
//   - Per account: after Config.LoginFailures failed logins (5) in a row
//     the account is throttled for Config.LoginLockout (1 minute); each
//     lockout that follows another without a good login in between lasts
//     twice as long, up to an hour, and an account that has not failed
//     for an hour starts afresh. While an account is throttled every
//     login to it is refused at once, without bcrypt, with a temporary
//     error (IMAP NO [UNAVAILABLE], SMTP 454 4.7.0) — also the right
//     password, or the throttle would be an oracle — except that a system
//     account's generated password still opens it: it has 128 bits, so
//     nobody guesses it at any speed, and the daemon must read its
//     mailbox while someone hammers it.
//   - Overall: at most loginBurst failing bcrypt checks at once, then
//     loginRate a second, for all accounts together; beyond that a login
//     that would need bcrypt is refused the same way (and counts as a
//     failure of its account). A password that passed bcrypt before is
//     recognised by its digest and needs no bcrypt, so the daemon's and
//     the players' clients go on logging in.
//
// The key is the account, not the client's address: the server listens
// on loopback only, so every client comes from the same address.
type throttle struct {
	mu       sync.Mutex
	now      func() time.Time
	failures int           // per account, before a lockout
	lockout  time.Duration // the first lockout
	accounts map[string]*accountFailures
	tokens   float64 // failing bcrypt checks the server may still run now
	refilled time.Time
	warned   time.Time // last log line about the budget
}

type accountFailures struct {
	count    int       // failures since the last good login or lockout
	lockouts int       // lockouts in a row
	until    time.Time // throttled until
	last     time.Time // last failure
}

const (
	loginBurst = 20
	loginRate  = 1.0 // per second
	maxLockout = time.Hour
)

func newThrottle(failures int, lockout time.Duration) *throttle {
	if failures <= 0 {
		failures = DefaultLoginFailures
	}
	if lockout <= 0 {
		lockout = DefaultLoginLockout
	}
	return &throttle{now: time.Now, failures: failures, lockout: lockout, accounts: map[string]*accountFailures{}, tokens: loginBurst}
}

// errThrottled is a login refused by the throttle: temporary.
var errThrottled = errors.New("mailserver: too many failed logins, try again later")

// imapThrottled and smtpThrottled are errThrottled as the protocols say
// it: a temporary refusal, not "wrong password".
var (
	imapThrottled = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeUnavailable, Text: "Too many failed logins; try again later"}
	smtpThrottled = &smtp.SMTPError{Code: 454, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: "Temporary authentication failure: too many failed logins, try again later"}
)

// locked reports whether the account is throttled now.
func (t *throttle) locked(base string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	a := t.accounts[base]
	return a != nil && t.now().Before(a.until)
}

// reserve takes one failing bcrypt check from the server's budget; false
// when there is none left (refund gives it back after a good password).
// warn is true for a refusal worth a log line (one a minute at most).
func (t *throttle) reserve() (ok, warn bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if !t.refilled.IsZero() {
		t.tokens = min(loginBurst, t.tokens+now.Sub(t.refilled).Seconds()*loginRate)
	}
	t.refilled = now
	if t.tokens < 1 {
		if now.Sub(t.warned) >= time.Minute {
			t.warned = now
			return false, true
		}
		return false, false
	}
	t.tokens--
	return true, false
}

func (t *throttle) refund() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tokens = min(loginBurst, t.tokens+1)
}

// fail records a failed login to the account; the last of a run locks
// it, and then fail returns for how long (else 0).
func (t *throttle) fail(base string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	a := t.accounts[base]
	if a == nil || now.Sub(a.last) > maxLockout && !now.Before(a.until) {
		a = &accountFailures{}
		t.accounts[base] = a
	}
	a.last = now
	if now.Before(a.until) {
		return 0 // locked already
	}
	a.count++
	if a.count < t.failures {
		return 0
	}
	a.count = 0
	a.lockouts++
	d := t.lockout
	for i := 1; i < a.lockouts && d < maxLockout; i++ {
		d *= 2
	}
	d = min(d, maxLockout)
	a.until = now.Add(d)
	return d
}

// succeed forgets the failures of an account that is not throttled.
func (t *throttle) succeed(base string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if a := t.accounts[base]; a != nil && !t.now().Before(a.until) {
		delete(t.accounts, base)
	}
}
