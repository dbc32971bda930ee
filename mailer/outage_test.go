package mailer

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// outageSMTP is a real SMTP server on loopback that, while down, answers
// every new session with 421 (as a relay that is shutting down or
// overloaded does) and otherwise accepts every mail. It counts sessions.
type outageSMTP struct {
	*scriptSMTP
	down     atomic.Bool
	sessions atomic.Int32
}

func startOutageSMTP(t testing.TB) *outageSMTP {
	t.Helper()
	o := &outageSMTP{scriptSMTP: &scriptSMTP{used: map[string]int{}}}
	o.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		o.sessions.Add(1)
		if o.down.Load() {
			return nil, &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 2}, Message: "service not available, closing channel"}
		}
		return &scriptSession{s: o.scriptSMTP}, nil
	}))
	o.srv.Domain = "mx.example.test"
	o.srv.ErrorLog = tLogPrintf{t}
	var err error
	if o.ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { o.srv.Serve(o.ln); close(done) }()
	t.Cleanup(func() { o.srv.Close(); o.ln.Close(); <-done })
	return o
}

// During an SMTP outage every incoming mail kicks the sender. The kicks
// must neither cause a connection each nor lengthen the wait: once the
// server answers again the outbox drains within the capped backoff, with
// no further kick.
func TestSenderOutageKicksDoNotStallTheOutbox(t *testing.T) {
	srv := startOutageSMTP(t)
	q := newMemQueue()
	const minB, maxB = 200 * time.Millisecond, 10 * time.Second
	s, err := NewSender(testSMTPConfig(srv.addr()), q, SenderOptions{Logger: testLogger(t), MinBackoff: minB, MaxBackoff: maxB})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	defer func() { cancel(); <-done }()

	srv.down.Store(true)
	outage := time.Now()
	n := 0
	for time.Since(outage) < 1200*time.Millisecond {
		if n%10 == 0 {
			q.add(outMail(t, fmt.Sprintf("p%d@x.org", n)), time.Now())
		}
		n++
		s.Kick()
		time.Sleep(10 * time.Millisecond)
	}
	tries := srv.sessions.Load()
	if hl := s.Health(); hl.OK() || !strings.Contains(hl.Problem, "cannot open a session") {
		t.Errorf("health during the outage: %+v", hl)
	}
	// one try per MinBackoff from kicks at most, plus the sender's own
	// doubling retries
	if limit := int32(1200*time.Millisecond/minB) + 6; tries > limit {
		t.Errorf("%d kicks made %d connection attempts in 1.2 s; want at most %d", n, tries, limit)
	}

	back := time.Now()
	srv.down.Store(false)
	queued := (n + 9) / 10
	for len(srv.deliveries()) < queued {
		if time.Since(back) > 5*time.Second {
			t.Fatalf("%d of %d mails delivered %v after the server came back (backoff cap %v): the outbox stalled",
				len(srv.deliveries()), queued, time.Since(back).Round(time.Millisecond), maxB)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("outage 1.2 s with %d kicks: %d connection attempts; all %d mails delivered %v after the server answered again (MinBackoff %v)",
		n, tries, queued, time.Since(back).Round(time.Millisecond), minB)
	if _, failed, pending := q.snapshot(); pending != 0 || len(failed) != 0 {
		t.Fatalf("pending %d failed %v", pending, failed)
	}
	for deadline := time.Now().Add(time.Second); !s.Health().OK() && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if hl := s.Health(); !hl.OK() {
		t.Errorf("health after the outage: %+v", hl)
	}
}

// fakeClock is a clock a test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// After the daemon was down for longer than MaxAge, the outbox is tried
// again: mail the server takes goes out, and mail it keeps deferring is
// retried for RunGrace before it is given up.
func TestSenderTriesOldMailAfterDowntime(t *testing.T) {
	t.Run("server takes it", func(t *testing.T) {
		srv := startScriptSMTP(t, nil)
		q := newMemQueue()
		var gaveUp atomic.Int32
		s, _ := NewSender(testSMTPConfig(srv.addr()), q, SenderOptions{Logger: testLogger(t), OnGiveUp: func(GiveUp) { gaveUp.Add(1) }})
		c := outMail(t, "p@x.org")
		id := q.add(c, time.Now().Add(-100*time.Hour)) // queued before three days of downtime
		q.mails[id].Attempts = 30
		drain(t, s, q, 5*time.Second)
		if got := srv.deliveries(); len(got) != 1 || gaveUp.Load() != 0 {
			t.Fatalf("deliveries %d, given up %d: mail queued before the downtime must get a try", len(got), gaveUp.Load())
		}
	})
	t.Run("server keeps deferring", func(t *testing.T) {
		var defers []error
		for range 1000 {
			defers = append(defers, smtpErr(451, "try again later"))
		}
		srv := startScriptSMTP(t, map[string][]error{"data": defers})
		q := newMemQueue()
		clock := &fakeClock{t: time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)}
		var giveUps []GiveUp
		var gaveUpAt time.Time
		s, _ := NewSender(testSMTPConfig(srv.addr()), q, SenderOptions{Logger: testLogger(t), Now: clock.Now,
			OnGiveUp: func(g GiveUp) { giveUps, gaveUpAt = append(giveUps, g), clock.Now() }})
		q.add(outMail(t, "p@x.org"), clock.Now().Add(-100*time.Hour))
		start := clock.Now()
		for step := 0; len(giveUps) == 0; step++ {
			if step > 500 {
				t.Fatal("never given up")
			}
			wait, err := s.Flush(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(giveUps) == 0 && wait > DefaultMaxBackoff*6/5 {
				t.Fatalf("retry in %v: the backoff must stay under %v", wait, DefaultMaxBackoff)
			}
			clock.Add(wait)
		}
		tries := q.begun
		took := gaveUpAt.Sub(start)
		if tries < 5 || took < time.Hour || !strings.Contains(giveUps[0].Err.Error(), "gave up") {
			t.Fatalf("given up after %d tries over %v (%v): want tries for at least an hour of running time", tries, took, giveUps[0].Err)
		}
		t.Logf("mail older than MaxAge given up after %d tries over %v of running time", tries, took.Round(time.Second))
	})
}

// A kicked try that fails leaves the sender's own retry time alone, and a
// kick within MinBackoff of the last try waits.
func TestSenderKickDuringBackoff(t *testing.T) {
	srv := startOutageSMTP(t)
	srv.down.Store(true)
	q := newMemQueue()
	clock := &fakeClock{t: time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)}
	s, _ := NewSender(testSMTPConfig(srv.addr()), q, SenderOptions{Logger: testLogger(t), Now: clock.Now, MinBackoff: time.Minute, MaxBackoff: 8 * time.Minute})
	q.add(outMail(t, "p@x.org"), clock.Now())
	var waits []time.Duration
	for range 4 { // the sender's own retries: 1, 2, 4, 8 minutes
		w, err := s.flush(context.Background(), false)
		var ce *connError
		if !errors.As(err, &ce) {
			t.Fatalf("flush = %v", err)
		}
		waits = append(waits, w)
		clock.Add(w)
	}
	if waits[3] < 6*time.Minute {
		t.Fatalf("own retries %v: want doubling", waits)
	}
	clock.Add(-waits[3] + 30*time.Second) // 30 s after the last try
	if !s.holdKick() {
		t.Fatal("a kick 30 s after a failed try (MinBackoff 1m) went through")
	}
	clock.Add(time.Minute)
	if s.holdKick() {
		t.Fatal("a kick 90 s after a failed try was held")
	}
	w, _ := s.flush(context.Background(), true)
	if want := waits[3] - 90*time.Second; w != want {
		t.Fatalf("a failed kicked try moved the retry: wait %v, want %v", w, want)
	}
	srv.down.Store(false)
	clock.Add(time.Minute)
	if w, err := s.flush(context.Background(), true); err != nil || len(srv.deliveries()) != 1 {
		t.Fatalf("kick once the server is back: %v, %v, %d delivered", w, err, len(srv.deliveries()))
	}
}
