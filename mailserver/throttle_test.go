package mailserver

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"golang.org/x/crypto/bcrypt"
)

// testClock is a clock the test moves by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// useClock makes the server's login throttle read clock.
func useClock(srv *Server, clock *testClock) {
	srv.throttle.mu.Lock()
	srv.throttle.now = clock.Now
	srv.throttle.mu.Unlock()
}

// loginClients try logins as a password guesser would: many attempts
// per IMAP connection, a new SMTP connection for each.
type loginClients struct {
	t    testing.TB
	imap *imapclient.Client
	srv  *Server
}

func newLoginClients(t testing.TB, srv *Server) *loginClients {
	t.Helper()
	c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &loginClients{t: t, imap: c, srv: srv}
}

// try logs in by IMAP LOGIN (way 0), IMAP AUTHENTICATE PLAIN (1) or SMTP
// AUTH PLAIN (2); a good login is ended at once.
func (l *loginClients) try(way int, user, pass string) error {
	l.t.Helper()
	switch way % 3 {
	case 0:
		err := l.imap.Login(user, pass).Wait()
		if err == nil {
			l.relogin()
		}
		return err
	case 1:
		err := l.imap.Authenticate(sasl.NewPlainClient("", user, pass))
		if err == nil {
			l.relogin()
		}
		return err
	}
	// go-smtp drops a connection after a few errors: a guesser reconnects
	c, err := smtp.Dial(l.srv.SMTPAddr())
	if err != nil {
		l.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("guesser.test"); err != nil {
		l.t.Fatal(err)
	}
	return c.Auth(sasl.NewPlainClient("", user, pass))
}

// relogin replaces an IMAP connection that logged in.
func (l *loginClients) relogin() {
	l.imap.Close()
	c, err := imapclient.DialInsecure(l.srv.IMAPAddr(), nil)
	if err != nil {
		l.t.Fatal(err)
	}
	l.t.Cleanup(func() { c.Close() })
	l.imap = c
}

// isThrottled reports whether err is the throttle's temporary refusal:
// IMAP NO [UNAVAILABLE] or SMTP 454 4.7.0.
func isThrottled(err error) bool {
	var ie *imap.Error
	if errors.As(err, &ie) {
		return ie.Type == imap.StatusResponseTypeNo && ie.Code == imap.ResponseCodeUnavailable
	}
	return smtpCode(err) == "454 4.7.0"
}

// isWrongPassword reports whether err is the plain "authentication
// failed" (IMAP NO [AUTHENTICATIONFAILED], SMTP 535 5.7.8).
func isWrongPassword(err error) bool {
	var ie *imap.Error
	if errors.As(err, &ie) {
		return ie.Type == imap.StatusResponseTypeNo && ie.Code == imap.ResponseCodeAuthenticationFailed
	}
	return smtpCode(err) == "535 5.7.8"
}

// floodConfig is sysConfig with 61 more configured accounts (c0…c49@,
// d0…d9@, p2@), each with a password of its own.
func floodConfig(dir string) Config {
	cfg := sysConfig(dir)
	for i := range 50 {
		cfg.Accounts = append(cfg.Accounts, Account{Address: fmt.Sprintf("c%d@%s", i, testDomain), Password: fmt.Sprintf("pw%d", i)})
	}
	for i := range 10 {
		cfg.Accounts = append(cfg.Accounts, Account{Address: fmt.Sprintf("d%d@%s", i, testDomain), Password: fmt.Sprintf("pw%d", i)})
	}
	cfg.Accounts = append(cfg.Accounts, Account{Address: "p2@" + testDomain, Password: "p2pass"})
	return cfg
}

// A flood of 1,000 wrong logins over IMAP LOGIN, IMAP AUTHENTICATE and
// SMTP AUTH, spread over 53 accounts with passwords of their own, runs
// bcrypt 20 times (the server's budget; the clock stands still here):
// the rest are refused at once with a temporary error. Meanwhile the
// daemon's mailbox, a player's and an account nobody attacked still open.
func TestLoginFloodRunsAlmostNoBcrypt(t *testing.T) {
	srv := start(t, floodConfig(t.TempDir()))
	clock := &testClock{t: time.Now()}
	useClock(srv, clock)
	sys := srv.SystemAccounts()
	targets := []string{sys[0].Address, sys[1].Address, "p1@" + testDomain}
	for i := range 50 {
		targets = append(targets, fmt.Sprintf("c%d@%s", i, testDomain))
	}
	l := newLoginClients(t, srv)
	before := srv.bcrypts.Load()
	var wrong, throttled int
	for i := range 1000 {
		err := l.try(i, targets[i%len(targets)], fmt.Sprintf("guess%d", i))
		switch {
		case err == nil:
			t.Fatalf("guess %d opened %s", i, targets[i%len(targets)])
		case isThrottled(err):
			throttled++
		case isWrongPassword(err):
			wrong++
		default:
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	ran := srv.bcrypts.Load() - before
	t.Logf("1000 wrong logins: %d bcrypt checks, %d answered \"wrong password\", %d throttled", ran, wrong, throttled)
	if ran != loginBurst || wrong != loginBurst || throttled != 1000-loginBurst {
		t.Fatalf("1000 wrong logins ran bcrypt %d times (%d wrong, %d throttled), want %d", ran, wrong, throttled, loginBurst)
	}

	// who knows the password still gets in, without bcrypt
	for _, a := range []struct{ user, pass string }{
		{sys[0].Address, sys[0].Password}, // attacked, and throttled: a system account
		{"alice@" + testDomain, "alice"},  // an automatic account
		{"p2@" + testDomain, "p2pass"},    // not attacked
	} {
		for way := range 3 {
			if err := l.try(way, a.user, a.pass); err != nil {
				t.Errorf("way %d: %s during the flood: %v", way, a.user, err)
			}
		}
	}
	if n := srv.bcrypts.Load() - before; n != ran {
		t.Errorf("good logins ran bcrypt %d times", n-ran)
	}

	// the budget refills at loginRate a second (d0…d9 were not attacked
	// yet: the accounts above are throttled on their own by now)
	clock.Add(5 * time.Second)
	for i := range 100 {
		l.try(i, fmt.Sprintf("d%d@%s", i%10, testDomain), "again")
	}
	if n := srv.bcrypts.Load() - before - ran; n != 5 {
		t.Fatalf("5 s later, 100 more wrong logins ran bcrypt %d times, want 5", n)
	}
}

// An account with a password of its own is throttled after
// LoginFailures wrong passwords: then even the right one is refused, at
// once and without bcrypt, with a temporary error (a guesser learns
// nothing), until LoginLockout has passed; the next lockout lasts twice
// as long; a good login starts afresh. A system account's generated
// password opens it even while it is throttled.
func TestThrottledAccountOpensAgainAfterTheLockout(t *testing.T) {
	cfg := sysConfig(t.TempDir())
	cfg.LoginFailures, cfg.LoginLockout = 3, time.Minute
	srv := start(t, cfg)
	clock := &testClock{t: time.Now()}
	useClock(srv, clock)
	l := newLoginClients(t, srv)
	p1 := "p1@" + testDomain

	lockOut := func(user string) {
		t.Helper()
		for i := range 3 {
			if err := l.try(i, user, "wrong"); !isWrongPassword(err) {
				t.Fatalf("wrong password %d for %s: %v", i, user, err)
			}
		}
	}
	refused := func(when string) {
		t.Helper()
		before := srv.bcrypts.Load()
		for way := range 3 {
			if err := l.try(way, p1, "p1pass"); !isThrottled(err) {
				t.Fatalf("%s: way %d: the right password got %v, want a temporary refusal", when, way, err)
			}
			if err := l.try(way, p1, "wrong"); !isThrottled(err) {
				t.Fatalf("%s: way %d: a wrong password got %v, want a temporary refusal", when, way, err)
			}
		}
		if n := srv.bcrypts.Load() - before; n != 0 {
			t.Fatalf("%s: %d bcrypt checks while throttled", when, n)
		}
	}
	opens := func(when string) {
		t.Helper()
		if err := l.try(0, p1, "p1pass"); err != nil {
			t.Fatalf("%s: the right password: %v", when, err)
		}
	}

	lockOut(p1)
	refused("at once")
	clock.Add(59 * time.Second)
	refused("after 59 s")
	clock.Add(2 * time.Second)
	opens("after the first lockout")

	// a good login forgets the failures: the next lockout is the first
	lockOut(p1)
	refused("locked again")
	clock.Add(61 * time.Second)
	if err := l.try(1, p1, "wrong"); !isWrongPassword(err) {
		t.Fatalf("after the lockout a wrong password: %v", err)
	}
	// …but not without one: lockout number two lasts two minutes
	l.try(2, p1, "wrong")
	l.try(0, p1, "wrong")
	clock.Add(61 * time.Second)
	refused("61 s into the second lockout")
	clock.Add(60 * time.Second)
	opens("after the second lockout")

	// a system account hammered with wrong passwords: its own opens it
	sys := srv.SystemAccounts()[0]
	lockOut(sys.Address)
	for way := range 3 {
		if err := l.try(way, sys.Address, sys.Address); !isThrottled(err) {
			t.Fatalf("throttled %s, way %d, wrong password: %v", sys.Address, way, err)
		}
		if err := l.try(way, sys.Address, sys.Password); err != nil {
			t.Fatalf("throttled %s, way %d, its generated password: %v", sys.Address, way, err)
		}
	}
}

// BenchmarkWrongLoginFlood is the cost of one wrong IMAP LOGIN to an
// account with a bcrypt password (cost 10, as in production) once the
// throttle holds, beside BenchmarkBcryptCheck, what each one cost before.
func BenchmarkWrongLoginFlood(b *testing.B) {
	cfg := testConfig("")
	cfg.HashCost = bcrypt.DefaultCost
	srv := start(b, cfg)
	l := newLoginClients(b, srv)
	before := srv.bcrypts.Load()
	b.ResetTimer()
	for i := range b.N {
		if err := l.try(0, gm, fmt.Sprint("guess", i)); err == nil {
			b.Fatal("a guess opened gm@")
		}
	}
	b.ReportMetric(float64(srv.bcrypts.Load()-before)/float64(b.N), "bcrypt/op")
}

func BenchmarkBcryptCheck(b *testing.B) {
	hash, err := bcrypt.GenerateFromPassword([]byte("right"), bcrypt.DefaultCost)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		checkHash(hash, "wrong")
	}
}
