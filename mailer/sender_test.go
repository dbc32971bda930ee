package mailer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// scriptSMTP is a go-smtp server whose replies follow a script: for a
// stage ("mail", "rcpt:<addr>", "data") the n-th use returns the n-th
// scripted error (nil = accept); past the script everything is accepted.
type scriptSMTP struct {
	srv *smtp.Server
	ln  net.Listener

	mu        sync.Mutex
	script    map[string][]error
	used      map[string]int
	delivered []delivery
	// afterData, if set, is called with the number delivered so far
	// after each delivery, before the server answers 250.
	afterData func(n int)
}

type delivery struct {
	from string
	to   []string
	raw  string
}

func smtpErr(code int, msg string) error {
	return &smtp.SMTPError{Code: code, EnhancedCode: smtp.EnhancedCode{code / 100, 0, 0}, Message: msg}
}

func startScriptSMTP(t testing.TB, script map[string][]error) *scriptSMTP {
	t.Helper()
	s := &scriptSMTP{script: script, used: map[string]int{}}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &scriptSession{s: s}, nil }))
	s.srv.Domain = "mx.example.test"
	s.srv.AllowInsecureAuth = true
	s.srv.ErrorLog = slogPrintf{testLogger(t)}
	var err error
	if s.ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { s.srv.Serve(s.ln); close(done) }()
	// close the listener too: go-smtp's Close misses a listener whose
	// Serve goroutine has not started yet
	t.Cleanup(func() { s.srv.Close(); s.ln.Close(); <-done })
	return s
}

func (s *scriptSMTP) addr() string { return s.ln.Addr().String() }

func (s *scriptSMTP) next(stage string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.used[stage]
	s.used[stage]++
	if l := s.script[stage]; n < len(l) {
		return l[n]
	}
	return nil
}

func (s *scriptSMTP) deliveries() []delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]delivery(nil), s.delivered...)
}

type scriptSession struct {
	s    *scriptSMTP
	from string
	to   []string
}

func (c *scriptSession) Reset()        { c.from, c.to = "", nil }
func (c *scriptSession) Logout() error { return nil }
func (c *scriptSession) Mail(from string, _ *smtp.MailOptions) error {
	c.from = from
	return c.s.next("mail")
}
func (c *scriptSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if err := c.s.next("rcpt:" + to); err != nil {
		return err
	}
	c.to = append(c.to, to)
	return nil
}
func (c *scriptSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if err := c.s.next("data"); err != nil {
		return err
	}
	c.s.mu.Lock()
	c.s.delivered = append(c.s.delivered, delivery{c.from, append([]string(nil), c.to...), string(raw)})
	n, after := len(c.s.delivered), c.s.afterData
	c.s.mu.Unlock()
	if after != nil {
		after(n)
	}
	return nil
}

func testSMTPConfig(addr string) SMTPConfig {
	return SMTPConfig{Addr: addr, Security: SecurityPlain, Auth: "none", Hello: "pbemd.test", Timeout: 5 * time.Second}
}

// drain runs Flush until the queue is empty or the deadline passes.
func drain(t testing.TB, s *Sender, q *memQueue, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		wait, _ := s.Flush(context.Background())
		if _, _, pending := q.snapshot(); pending == 0 {
			return
		}
		time.Sleep(min(wait, 10*time.Millisecond) + time.Millisecond)
	}
	t.Fatalf("outbox not drained within %v", within)
}

func outMail(t testing.TB, to ...string) *Composed {
	t.Helper()
	o := &Outgoing{From: gmAddr, Subject: "report", Text: "Spring 1901 results\n"}
	for _, a := range to {
		o.To = append(o.To, mail.Address{Address: a})
	}
	c, err := Compose(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSenderRepliesAndRetries(t *testing.T) {
	cases := []struct {
		name       string
		script     map[string][]error
		to         []string
		maxAtt     int
		delivered  int    // deliveries the server accepted
		deliverTo  string // recipients of the delivery
		failed     bool   // the mail was given up
		giveUpRcpt string // recipients reported in OnGiveUp
		partial    bool
		minBegun   int
	}{
		{name: "accepted", to: []string{"p1@x.org"}, delivered: 1, deliverTo: "p1@x.org", minBegun: 1},
		{name: "421 at MAIL, then accepted", script: map[string][]error{"mail": {smtpErr(421, "closing")}}, to: []string{"p1@x.org"}, delivered: 1, deliverTo: "p1@x.org", minBegun: 2},
		{name: "451 at DATA, then accepted", script: map[string][]error{"data": {smtpErr(451, "local error")}}, to: []string{"p1@x.org"}, delivered: 1, deliverTo: "p1@x.org", minBegun: 2},
		{name: "452 at RCPT, then accepted", script: map[string][]error{"rcpt:p1@x.org": {smtpErr(452, "mailbox full")}}, to: []string{"p1@x.org"}, delivered: 1, deliverTo: "p1@x.org", minBegun: 2},
		{name: "550 at RCPT", script: map[string][]error{"rcpt:p1@x.org": {smtpErr(550, "no such user")}}, to: []string{"p1@x.org"}, failed: true, giveUpRcpt: "p1@x.org", minBegun: 1},
		{name: "554 at DATA", script: map[string][]error{"data": {smtpErr(554, "rejected as spam")}}, to: []string{"p1@x.org"}, failed: true, giveUpRcpt: "p1@x.org", minBegun: 1},
		{name: "550 for one of two recipients", script: map[string][]error{"rcpt:p2@x.org": {smtpErr(550, "no such user")}}, to: []string{"p1@x.org", "p2@x.org"},
			delivered: 1, deliverTo: "p1@x.org", giveUpRcpt: "p2@x.org", partial: true, minBegun: 1},
		{name: "451 for ever: given up after MaxAttempts", script: map[string][]error{"data": {smtpErr(451, "a"), smtpErr(451, "b"), smtpErr(451, "c"), smtpErr(451, "d")}},
			to: []string{"p1@x.org"}, maxAtt: 3, failed: true, giveUpRcpt: "p1@x.org", minBegun: 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := startScriptSMTP(t, c.script)
			q := newMemQueue()
			var (
				mu      sync.Mutex
				giveUps []GiveUp
			)
			s, err := NewSender(testSMTPConfig(srv.addr()), q, SenderOptions{
				Logger: testLogger(t), MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, MaxAttempts: c.maxAtt, RunGrace: time.Nanosecond,
				OnGiveUp: func(g GiveUp) { mu.Lock(); giveUps = append(giveUps, g); mu.Unlock() },
			})
			if err != nil {
				t.Fatal(err)
			}
			m := outMail(t, c.to...)
			q.add(m, time.Now())
			drain(t, s, q, 5*time.Second)

			got := srv.deliveries()
			if len(got) != c.delivered {
				t.Fatalf("%d deliveries, want %d", len(got), c.delivered)
			}
			if c.delivered > 0 && (strings.Join(got[0].to, ",") != c.deliverTo || !strings.Contains(got[0].raw, m.MessageID)) {
				t.Errorf("delivery to %v", got[0].to)
			}
			sent, failed, _ := q.snapshot()
			if _, isFailed := failed[m.MessageID]; isFailed != c.failed || (len(sent) == 1) == c.failed {
				t.Errorf("sent %v, failed %v", sent, failed)
			}
			mu.Lock()
			defer mu.Unlock()
			if c.giveUpRcpt == "" {
				if len(giveUps) != 0 {
					t.Errorf("unexpected give-up reports %+v", giveUps)
				}
			} else if len(giveUps) != 1 || strings.Join(giveUps[0].Recipients, ",") != c.giveUpRcpt || giveUps[0].Partial != c.partial || giveUps[0].Err == nil {
				t.Errorf("give-up reports %+v", giveUps)
			}
			if q.begun < c.minBegun {
				t.Errorf("%d attempts begun, want at least %d", q.begun, c.minBegun)
			}
		})
	}
}

func TestSenderKeepsGoingAfterARefusal(t *testing.T) {
	srv := startScriptSMTP(t, map[string][]error{"rcpt:bad@x.org": {smtpErr(550, "no")}})
	q := newMemQueue()
	s, _ := NewSender(testSMTPConfig(srv.addr()), q, SenderOptions{Logger: testLogger(t), MinBackoff: time.Millisecond})
	q.add(outMail(t, "bad@x.org"), time.Now())
	q.add(outMail(t, "good@x.org"), time.Now())
	drain(t, s, q, 5*time.Second)
	if got := srv.deliveries(); len(got) != 1 || got[0].to[0] != "good@x.org" {
		t.Fatalf("deliveries %+v", got)
	}
}

func TestSenderWaitsForAServerThatIsDown(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close() // nobody listens there now
	q := newMemQueue()
	s, _ := NewSender(testSMTPConfig(addr), q, SenderOptions{Logger: testLogger(t), MinBackoff: 20 * time.Millisecond, MaxBackoff: 40 * time.Millisecond})
	m := outMail(t, "p@x.org")
	q.add(m, time.Now())
	wait, err := s.Flush(context.Background())
	var ce *connError
	if !errors.As(err, &ce) || wait < 10*time.Millisecond {
		t.Fatalf("Flush = %v, %v; want a connection error and a backoff", wait, err)
	}
	if _, failed, pending := q.snapshot(); pending != 1 || len(failed) != 0 || q.begun != 0 {
		t.Fatalf("a dead server must not count against the mail: pending %d failed %v begun %d", pending, failed, q.begun)
	}
	// the server comes up: the mail goes out, once
	ln2, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("port %s taken meanwhile: %v", addr, err)
	}
	srv := &scriptSMTP{script: nil, used: map[string]int{}, ln: ln2}
	srv.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &scriptSession{s: srv}, nil }))
	srv.srv.ErrorLog = slogPrintf{testLogger(t)}
	done := make(chan struct{})
	go func() { srv.srv.Serve(ln2); close(done) }()
	defer func() { srv.srv.Close(); ln2.Close(); <-done }()
	drain(t, s, q, 5*time.Second)
	if n := len(srv.deliveries()); n != 1 {
		t.Fatalf("%d deliveries", n)
	}
}

func TestSenderRunLoopKickAndShutdown(t *testing.T) {
	srv := startScriptSMTP(t, nil)
	q := &idleQueue{memQueue: newMemQueue(), idle: make(chan struct{}, 1)}
	s, _ := NewSender(testSMTPConfig(srv.addr()), q, SenderOptions{Logger: testLogger(t)})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Run(ctx) }()
	<-q.idle // Run found the outbox empty: it waits (an hour) for a Kick
	for i := range 3 {
		q.add(outMail(t, fmt.Sprintf("p%d@x.org", i)), time.Now())
		s.Kick()
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(srv.deliveries()) < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v", err)
	}
	if n := len(srv.deliveries()); n != 3 {
		t.Fatalf("%d deliveries after kicks", n)
	}
}

func TestSenderConnectionDroppedMidData(t *testing.T) {
	srv := startScriptSMTP(t, nil)
	proxy := startProxy(t, srv.addr())
	proxy.cutWhen(cutRule{conn: 0, fromServer: false, pattern: []byte("MIDDLE-OF-BODY"), extra: 3})
	q := newMemQueue()
	s, _ := NewSender(testSMTPConfig(proxy.addr()), q, SenderOptions{Logger: testLogger(t), MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond})
	o := &Outgoing{From: gmAddr, To: []mail.Address{{Address: "p@x.org"}}, Subject: "s",
		Text: strings.Repeat("head\n", 200) + "MIDDLE-OF-BODY\n" + strings.Repeat("tail\n", 200)}
	c, _ := Compose(o)
	q.add(c, time.Now())
	drain(t, s, q, 5*time.Second)
	got := srv.deliveries()
	if proxy.cutCount() != 1 || len(got) != 1 || !strings.Contains(got[0].raw, "tail\r\ntail\r\n") {
		t.Fatalf("cuts %d, deliveries %d: the cut transfer must leave nothing and the retry must deliver once, whole", proxy.cutCount(), len(got))
	}
}

// The one window that SMTP cannot close: the server took the mail but the
// reply to the final "." never arrived. The mail is sent again, with the
// same Message-ID.
func TestSenderDuplicateWindowAfterFinalDot(t *testing.T) {
	srv := startScriptSMTP(t, nil)
	proxy := startProxy(t, srv.addr())
	pattern := []byte("250 2.0.0 OK: queued")
	proxy.cutWhen(cutRule{conn: 0, fromServer: true, pattern: pattern, extra: -len(pattern)})
	q := newMemQueue()
	s, _ := NewSender(testSMTPConfig(proxy.addr()), q, SenderOptions{Logger: testLogger(t), MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond})
	c := outMail(t, "p@x.org")
	q.add(c, time.Now())
	drain(t, s, q, 5*time.Second)
	got := srv.deliveries()
	if proxy.cutCount() != 1 || len(got) != 2 || !strings.Contains(got[0].raw, c.MessageID) || !strings.Contains(got[1].raw, c.MessageID) {
		t.Fatalf("cuts %d, deliveries %d", proxy.cutCount(), len(got))
	}
}

// The SMTP server restarts between two flushes: every mail arrives, once.
func TestSenderAcrossServerRestart(t *testing.T) {
	path := tempPath(t, "mail.db")
	cfg := serverConfig(path)
	srv := startMailServer(t, cfg)
	smtpCfg, _ := srv.SMTPConfig(gm)
	q := newMemQueue()
	s, _ := NewSender(smtpCfg, q, SenderOptions{Logger: testLogger(t), MinBackoff: 5 * time.Millisecond, MaxBackoff: 20 * time.Millisecond})
	var ids []string
	send := func(n int) {
		for range n {
			c := outMail(t, "p1@"+testDomain)
			ids = append(ids, c.MessageID)
			q.add(c, time.Now())
		}
	}
	send(3)
	drain(t, s, q, 5*time.Second)
	cfg.IMAPAddr, cfg.SMTPAddr = srv.IMAPAddr(), srv.SMTPAddr()
	srv.Close()
	send(3) // queued while the server is down
	if _, err := s.Flush(context.Background()); err == nil {
		t.Fatal("flush to a stopped server reported no error")
	}
	srv2 := startMailServer(t, cfg)
	drain(t, s, q, 5*time.Second)

	var got []string
	for _, raw := range mailboxRaws(t, srv2, "p1@"+testDomain, "INBOX") {
		pm, err := ParseMail(raw, "")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, pm.ID)
	}
	if strings.Join(got, " ") != strings.Join(ids, " ") {
		t.Fatalf("mailbox holds %v, want each of %v once, in order", got, ids)
	}
}

// idleQueue is a memQueue that says when the sender found it empty (the
// last thing a flush asks is when the next mail is due).
type idleQueue struct {
	*memQueue
	idle chan struct{}
}

func (q *idleQueue) NextDue() (time.Time, bool, error) {
	t, ok, err := q.memQueue.NextDue()
	if !ok {
		select {
		case q.idle <- struct{}{}:
		default:
		}
	}
	return t, ok, err
}
