package server

import (
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"pbemd/store"
)

// refusingSMTP is a real SMTP server on 127.0.0.1:0 that answers 550 to
// every MAIL FROM (and would to every RCPT and DATA). It counts the
// transactions it refused.
type refusingSMTP struct {
	srv     *smtp.Server
	addr    string
	refused atomic.Int64
}

func startRefusingSMTP(t *testing.T) *refusingSMTP {
	t.Helper()
	r := &refusingSMTP{}
	r.srv, r.addr = serveSMTP(t, refusingBackend{r})
	return r
}

// serveSMTP serves be on 127.0.0.1:0 until the test ends, and returns
// the server and its address.
func serveSMTP(t *testing.T, be smtp.Backend) (*smtp.Server, string) {
	t.Helper()
	srv := smtp.NewServer(be)
	srv.Domain = "relay.localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close(); ln.Close(); <-done })
	return srv, ln.Addr().String()
}

type refusingBackend struct{ r *refusingSMTP }

func (b refusingBackend) NewSession(*smtp.Conn) (smtp.Session, error) {
	return refusingSession(b), nil
}

type refusingSession struct{ r *refusingSMTP }

var errRefused = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "no mail accepted here"}

func (s refusingSession) Mail(string, *smtp.MailOptions) error {
	s.r.refused.Add(1)
	return errRefused
}
func (s refusingSession) Rcpt(string, *smtp.RcptOptions) error { return errRefused }
func (s refusingSession) Data(io.Reader) error                 { return errRefused }
func (s refusingSession) Reset()                               {}
func (s refusingSession) Logout() error                        { return nil }

// TestRefusedAlertsDoNotMultiply: with an SMTP server that refuses
// everything, one incoming mail used to queue 21,551 mails in a minute
// (each undeliverable alert was itself undeliverable and alerted about).
// Now the number of queued mails stays what the incoming mails caused,
// plus one alert per quarter of an hour.
func TestRefusedAlertsDoNotMultiply(t *testing.T) {
	smtpSrv := startRefusingSMTP(t)
	c := &clock{t: time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)}
	srv, box := runWithRelay(t, smtpSrv.addr, c.Now)

	seq := 0
	deliver := func(from, body string) {
		t.Helper()
		seq++
		raw := fmt.Sprintf("From: %s\r\nTo: gm@pbemd.localhost\r\nSubject: m%d\r\nMessage-ID: <storm-%d@pbemd.localhost>\r\n\r\n%s\r\n", from, seq, seq, strings.ReplaceAll(body, "\n", "\r\n"))
		c, err := smtp.Dial(box.SMTPAddr())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.SendMail(from, []string{"gm@pbemd.localhost"}, strings.NewReader(raw)); err != nil {
			t.Fatal(err)
		}
	}
	queued := func() int64 { return srv.Daemon.Metrics().MailsOut.Load() }
	// settle waits until the outbox is empty and nothing more is queued
	// for a while, and returns the number of mails queued since the start.
	settle := func(what string) int64 {
		t.Helper()
		end := time.Now().Add(20 * time.Second)
		last, since := int64(-1), time.Now()
		for time.Now().Before(end) {
			n, empty := queued(), false
			srv.DB.View(func(tx *store.Tx) error { empty = tx.OutboxLen() == 0; return nil })
			if n != last || !empty {
				last, since = n, time.Now()
			} else if time.Since(since) > 700*time.Millisecond {
				return n
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("%s: mail is still being queued after 20 s: %d mails so far, %d refused by the server", what, queued(), smtpSrv.refused.Load())
		return 0
	}
	alerts := func() (n int) {
		srv.DB.View(func(tx *store.Tx) error {
			failed, err := tx.FailedMail()
			for _, m := range failed { // the failed list keeps no body: the codes record the subject
				if c, ok := tx.SentMail(m.MessageID); ok && strings.Contains(c.Subject, "GM: Mail could not be delivered") {
					n++
				}
			}
			return err
		})
		return n
	}

	// One mail: the GM creates a game by password. Welcome (to the GM)
	// and the reply (to the GM) are refused; neither is alerted about,
	// as the alert would go to the same refused address.
	deliver("master@pbemd.localhost", "SIGNON GM - sesame\nCREATE storm standard")
	if n := settle("after CREATE"); n != 2 {
		t.Errorf("after one mail to the GM: %d mails queued, want 2 (welcome, reply)", n)
	}
	// A player joins: the answer is refused, the GM is alerted once, the
	// refused alert causes nothing more.
	deliver("p0@pbemd.localhost", "JOIN storm")
	n := settle("after the first JOIN")
	t.Logf("after 2 incoming mails, %d mails queued in all, %d refused", n, smtpSrv.refused.Load())
	if n != 4 || alerts() != 1 {
		t.Errorf("after one player's mail: %d mails queued, %d delivery alerts; want 4 (welcome, reply, answer, one alert) and 1", n, alerts())
	}
	// Six more join: the game starts; every answer, power mail and
	// announcement is refused, but the alerts are held back.
	for i := 1; i < 7; i++ {
		deliver(fmt.Sprintf("p%d@pbemd.localhost", i), "JOIN storm")
	}
	n = settle("after seven JOINs")
	t.Logf("after 8 incoming mails, %d mails queued in all, %d refused by the server, %d delivery alerts", n, smtpSrv.refused.Load(), alerts())
	if alerts() != 1 {
		t.Errorf("%d delivery alerts within a quarter of an hour, want 1", alerts())
	}
	if n > 40 {
		t.Errorf("%d mails queued for 8 incoming mails", n)
	}
	// A quarter of an hour later the next refusal is alerted again.
	c.Add(15 * time.Minute) // the daemon holds back alerts of a kind for so long
	deliver("p7@pbemd.localhost", "JOIN storm")
	settle("after the last JOIN")
	if alerts() != 2 {
		t.Fatalf("%d delivery alerts after the quarter of an hour, want 2", alerts())
	}
}
