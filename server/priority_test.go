package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"pbemd/mailer"
	"pbemd/mailserver"
	"pbemd/store"
)

// slowSMTP is a real SMTP server on 127.0.0.1:0 that takes delay to
// accept each mail, as a busy relay does, and records what it accepted.
type slowSMTP struct {
	srv   *smtp.Server
	addr  string
	delay time.Duration

	mu  sync.Mutex
	got []received
	new chan struct{} // signalled after each mail
}

// received is one mail the server accepted.
type received struct {
	at        time.Time
	messageID string // without <>
	inReplyTo string
	subject   string
}

func startSlowSMTP(t *testing.T, delay time.Duration) *slowSMTP {
	t.Helper()
	s := &slowSMTP{delay: delay, new: make(chan struct{}, 1)}
	s.srv, s.addr = serveSMTP(t, slowBackend{s})
	return s
}

// wait waits up to limit for a mail that match accepts, and returns it.
func (s *slowSMTP) wait(limit time.Duration, match func(received) bool) (received, bool) {
	end := time.NewTimer(limit)
	defer end.Stop()
	for {
		s.mu.Lock()
		got := s.got
		s.mu.Unlock()
		for _, r := range got {
			if match(r) {
				return r, true
			}
		}
		select {
		case <-s.new:
		case <-end.C:
			return received{}, false
		}
	}
}

func (s *slowSMTP) count(match func(received) bool) (n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.got {
		if match(r) {
			n++
		}
	}
	return n
}

type slowBackend struct{ s *slowSMTP }

func (b slowBackend) NewSession(*smtp.Conn) (smtp.Session, error) { return slowSession(b), nil }

type slowSession struct{ s *slowSMTP }

func (slowSession) Mail(string, *smtp.MailOptions) error { return nil }
func (slowSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (slowSession) Reset()                               {}
func (slowSession) Logout() error                        { return nil }

func (ss slowSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	time.Sleep(ss.s.delay)
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return &smtp.SMTPError{Code: 554, Message: "cannot parse the mail: " + err.Error()}
	}
	trim := func(id string) string { return strings.Trim(strings.TrimSpace(id), "<>") }
	subject, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		return &smtp.SMTPError{Code: 554, Message: "cannot decode the subject: " + err.Error()}
	}
	rec := received{at: time.Now(), messageID: trim(m.Header.Get("Message-ID")), inReplyTo: trim(m.Header.Get("In-Reply-To")), subject: subject}
	ss.s.mu.Lock()
	ss.s.got = append(ss.s.got, rec)
	ss.s.mu.Unlock()
	select {
	case ss.s.new <- struct{}{}:
	default:
	}
	return nil
}

// runWithRelay runs a whole pbemd that reads its mail from an embedded
// mail server (box, domain pbemd.localhost; the site GM's password is
// "sesame") and sends through the SMTP server at relay, until the test
// ends.
func runWithRelay(t *testing.T, relay string, now func() time.Time) (srv *Server, box *mailserver.Server) {
	t.Helper()
	box, err := mailserver.Start(mailserver.Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "pbemd.localhost", HashCost: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { box.Close() })
	imapCfg, err := EmbeddedIMAP(box, "gm@pbemd.localhost")
	if err != nil {
		t.Fatal(err)
	}
	imapCfg.Poll = 50 * time.Millisecond
	cfg := DefaultConfig()
	cfg.DataDir, cfg.HTTP, cfg.GMPassword, cfg.PasswordCost = t.TempDir(), "", "sesame", 4
	cfg.IMAP = &imapCfg
	cfg.SMTP = &mailer.SMTPConfig{Addr: relay, Security: mailer.SecurityPlain, Hello: "localhost", Timeout: 5 * time.Second}
	if srv, err = Open(cfg, nil, now); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("Run: %v", err)
		}
		srv.Close()
	})
	return srv, box
}

// TestAnswerOvertakesResults: with 5,000 results mails queued and an SMTP
// server that takes 20 ms a mail (the drain takes minutes), a player's
// mail is answered within 2 s: the answer leaves before the bulk mail
// queued ahead of it, after the one mail in flight.
func TestAnswerOvertakesResults(t *testing.T) {
	const bulk, delay, within = 5000, 20 * time.Millisecond, 2 * time.Second
	relay := startSlowSMTP(t, delay)
	srv, box := runWithRelay(t, relay.addr, time.Now)

	seq := 0
	deliver := func(from, body string) string {
		t.Helper()
		seq++
		id := fmt.Sprintf("prio-%d@pbemd.localhost", seq)
		raw := fmt.Sprintf("From: %s\r\nTo: gm@pbemd.localhost\r\nSubject: m%d\r\nMessage-ID: <%s>\r\n\r\n%s\r\n", from, seq, id, strings.ReplaceAll(body, "\n", "\r\n"))
		if err := box.Deliver(from, []string{"gm@pbemd.localhost"}, []byte(raw)); err != nil {
			t.Fatal(err)
		}
		return id
	}
	answered := func(id string) func(received) bool { return func(r received) bool { return r.inReplyTo == id } }

	// The GM creates the game while the outbox is empty.
	create := deliver("master@pbemd.localhost", "SIGNON GM - sesame\nCREATE prio standard")
	if _, ok := relay.wait(30*time.Second, answered(create)); !ok {
		t.Fatal("the GM's CREATE was not answered")
	}

	// A deadline burst's worth of results mails is queued (as the daemon
	// queues them: in one transaction, bulk) and starts to drain.
	isResults := func(r received) bool { return strings.Contains(r.subject, "— results") }
	if err := srv.DB.Update(func(tx *store.Tx) error {
		for i := range bulk {
			c, err := mailer.Compose(&mailer.Outgoing{
				From: mail.Address{Address: "gm@pbemd.localhost"}, To: []mail.Address{{Address: fmt.Sprintf("p%d@elsewhere.test", i)}},
				Subject: fmt.Sprintf("[g%d] Spring 1901 — results", i/7), Text: strings.Repeat("A Vie - Bud (succeeds)\n", 40), Auto: mailer.AutoGenerated,
			})
			if err != nil {
				return err
			}
			if _, err := tx.EnqueueMail(store.OutboxMessage{MessageID: c.MessageID, From: c.EnvelopeFrom, To: c.Recipients, Raw: c.Raw, Queued: time.Now()}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	srv.kickSender()
	if _, ok := relay.wait(30*time.Second, func(received) bool { return relay.count(isResults) >= 20 }); !ok {
		t.Fatalf("the results do not drain: %d sent", relay.count(isResults))
	}

	// A player's mail now: its answer must not wait for the results.
	join := deliver("p0@pbemd.localhost", "JOIN prio")
	sent := time.Now()
	ack, ok := relay.wait(within+5*time.Second, answered(join))
	if !ok {
		t.Fatalf("JOIN not answered in %v; %d of %d results sent meanwhile", within+5*time.Second, relay.count(isResults), bulk)
	}
	between := relay.count(func(r received) bool { return isResults(r) && r.at.After(sent) && r.at.Before(ack.at) })
	t.Logf("the answer reached the server %v after the player's mail was delivered; %d results mails went in between (a %v server, %d queued)",
		ack.at.Sub(sent).Round(time.Millisecond), between, delay, bulk)
	if took := ack.at.Sub(sent); took > within {
		t.Errorf("the answer took %v from the player's mail, want at most %v: it waited behind bulk mail", took, within)
	}
	if !strings.Contains(ack.subject, "prio") {
		t.Errorf("the answer's subject %q does not name the game", ack.subject)
	}
}
