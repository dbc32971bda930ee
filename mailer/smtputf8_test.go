package mailer

import (
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// utf8SMTP is a go-smtp server on loopback that offers SMTPUTF8 or not
// and records each delivery with whether its MAIL FROM carried SMTPUTF8.
type utf8SMTP struct {
	ln  net.Listener
	mu  sync.Mutex
	got []utf8Delivery
}

type utf8Delivery struct {
	from string
	utf8 bool
	to   []string
	raw  string
}

func startUTF8SMTP(t *testing.T, offer bool) *utf8SMTP {
	t.Helper()
	s := &utf8SMTP{}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &utf8Session{s: s}, nil }))
	srv.Domain = "mx.example.test"
	srv.AllowInsecureAuth = true
	srv.EnableSMTPUTF8 = offer
	srv.ErrorLog = slogPrintf{testLogger(t)}
	var err error
	if s.ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { srv.Serve(s.ln); close(done) }()
	t.Cleanup(func() { srv.Close(); s.ln.Close(); <-done })
	return s
}

func (s *utf8SMTP) deliveries() []utf8Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]utf8Delivery(nil), s.got...)
}

type utf8Session struct {
	s *utf8SMTP
	d utf8Delivery
}

func (c *utf8Session) Reset()        { c.d = utf8Delivery{} }
func (c *utf8Session) Logout() error { return nil }
func (c *utf8Session) Mail(from string, opts *smtp.MailOptions) error {
	c.d = utf8Delivery{from: from, utf8: opts != nil && opts.UTF8}
	return nil
}
func (c *utf8Session) Rcpt(to string, _ *smtp.RcptOptions) error {
	c.d.to = append(c.d.to, to)
	return nil
}
func (c *utf8Session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	c.d.raw = string(raw)
	c.s.mu.Lock()
	c.s.got = append(c.s.got, c.d)
	c.s.mu.Unlock()
	return nil
}

// TestSenderSMTPUTF8: a mail to a non-ASCII address goes with SMTPUTF8,
// its To header in raw UTF-8 (RFC 6532), to a server that offers
// SMTPUTF8, while an ASCII mail goes without it; a server that does not
// offer it gets nothing at all (it would have taken the raw UTF-8, as
// go-smtp does), and the mail fails for good at once: one attempt, one
// give-up, no retry.
func TestSenderSMTPUTF8(t *testing.T) {
	const jurgen = "jürgen@beispiel.de"
	send := func(t *testing.T, offer bool, to ...string) (*utf8SMTP, *memQueue, []GiveUp) {
		srv := startUTF8SMTP(t, offer)
		q := newMemQueue()
		var mu sync.Mutex
		var giveUps []GiveUp
		s, err := NewSender(testSMTPConfig(srv.ln.Addr().String()), q, SenderOptions{
			Logger: testLogger(t), MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, RunGrace: time.Nanosecond,
			OnGiveUp: func(g GiveUp) { mu.Lock(); giveUps = append(giveUps, g); mu.Unlock() },
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range to {
			q.add(outMail(t, a), time.Now())
		}
		drain(t, s, q, 5*time.Second)
		mu.Lock()
		defer mu.Unlock()
		return srv, q, append([]GiveUp(nil), giveUps...)
	}

	t.Run("offered", func(t *testing.T) {
		srv, q, giveUps := send(t, true, jurgen, "p1@x.org")
		got := srv.deliveries()
		if len(got) != 2 || len(giveUps) != 0 {
			t.Fatalf("%d deliveries and %d give-ups, want 2 and 0", len(got), len(giveUps))
		}
		for _, d := range got {
			wantUTF8 := d.to[0] == jurgen
			if d.utf8 != wantUTF8 {
				t.Errorf("mail to %v: SMTPUTF8 %v, want %v", d.to, d.utf8, wantUTF8)
			}
			if wantUTF8 && !strings.Contains(d.raw, "\r\nTo: <"+jurgen+">\r\n") {
				t.Errorf("the header of the mail to %s does not name it in UTF-8:\n%s", jurgen, d.raw)
			}
		}
		if sent, _, _ := q.snapshot(); len(sent) != 2 {
			t.Errorf("%d mails recorded as sent, want 2", len(sent))
		}
	})
	t.Run("not offered", func(t *testing.T) {
		srv, q, giveUps := send(t, false, jurgen, "p1@x.org")
		got := srv.deliveries()
		if len(got) != 1 || got[0].to[0] != "p1@x.org" || got[0].utf8 {
			t.Fatalf("deliveries %+v, want only the ASCII mail, without SMTPUTF8", got)
		}
		_, failed, _ := q.snapshot()
		if len(failed) != 1 || q.begun != 2 {
			t.Fatalf("failed %v after %d attempts; want the mail to %s failed at its one attempt", failed, q.begun, jurgen)
		}
		for _, reason := range failed {
			if !strings.Contains(reason, ErrNoSMTPUTF8.Error()) {
				t.Errorf("failed because %q", reason)
			}
		}
		if len(giveUps) != 1 || giveUps[0].Recipients[0] != jurgen || !errors.Is(giveUps[0].Err, ErrNoSMTPUTF8) {
			t.Fatalf("give-ups %+v, want one for %s with ErrNoSMTPUTF8", giveUps, jurgen)
		}
	})
}
