package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"pbemd/mailer"
	"pbemd/mailserver"
	"pbemd/store"
	"pbemd/store/storetest"
)

// countingSMTP is a real SMTP server on 127.0.0.1:0 that counts every
// copy of each Message-ID it accepts. hold, if set, is called with the
// number of mails accepted so far and the Message-ID of the last, after
// the mail is counted and before the server answers 250.
type countingSMTP struct {
	srv  *smtp.Server
	addr string
	hold func(n int, id string)

	mu     sync.Mutex
	copies map[string]int
	total  int
}

func startCountingSMTP(t *testing.T) *countingSMTP {
	t.Helper()
	s := &countingSMTP{copies: map[string]int{}}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return countingSession{s}, nil }))
	s.srv.Domain = "relay.localhost"
	s.srv.ReadTimeout, s.srv.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	done := make(chan struct{})
	go func() { defer close(done); s.srv.Serve(ln) }()
	t.Cleanup(func() { s.srv.Close(); ln.Close(); <-done })
	return s
}

// seen returns how many distinct Message-IDs and how many mails in all
// the server accepted.
func (s *countingSMTP) seen() (distinct, total int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.copies), s.total
}

type countingSession struct{ s *countingSMTP }

func (countingSession) Mail(string, *smtp.MailOptions) error { return nil }
func (countingSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (countingSession) Reset()                               {}
func (countingSession) Logout() error                        { return nil }

func (c countingSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return &smtp.SMTPError{Code: 554, Message: "cannot parse the mail"}
	}
	id := strings.Trim(m.Header.Get("Message-ID"), "<> ")
	c.s.mu.Lock()
	c.s.copies[id]++
	c.s.total++
	n, hold := c.s.total, c.s.hold
	c.s.mu.Unlock()
	if hold != nil {
		hold(n, id)
	}
	return nil
}

// TestKillDuringDrainLosesNothing queues 600 mails in the store of a
// pbemd that is not running, starts the real binary against an SMTP
// server on loopback, and SIGKILLs it three times while it drains: once
// while the server holds the 250 of a mail it took (the window SMTP
// leaves open), twice at moments the test does not choose. After the
// last restart every mail reached the server at least once, the outbox
// is empty, and the copies beyond the first number at most the kills:
// one mail is in flight at a time (one sender, one session, each mail
// recorded as sent straight after its 250), and only it can go twice,
// with the same Message-ID. The mail held at the first kill is one of
// the repeats.
func TestKillDuringDrainLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary through three kills and a 30 s retry; skipped with -short")
	}
	const queued = 600
	bin := binary(t)
	dir := t.TempDir()
	relay := startCountingSMTP(t)
	box, err := mailserver.Start(mailserver.Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "drain.test", HashCost: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer box.Close()

	// The outbox, filled before pbemd first runs.
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(data, "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, queued)
	err = db.Update(func(tx *store.Tx) error {
		for i := range ids {
			c, err := mailer.Compose(&mailer.Outgoing{From: mail.Address{Address: "gm@drain.test"}, To: []mail.Address{{Address: fmt.Sprintf("p%d@drain.test", i)}},
				Subject: fmt.Sprintf("[g%d] results", i), Text: strings.Repeat("A Vie - Bud (succeeds)\n", 20)})
			if err != nil {
				return err
			}
			ids[i] = c.MessageID
			if _, err := tx.EnqueueMail(store.OutboxMessage{MessageID: c.MessageID, From: c.EnvelopeFrom, To: c.Recipients, Raw: c.Raw, Queued: time.Now()}); err != nil {
				return err
			}
		}
		return nil
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}

	httpAddr := freePort(t)
	cfgPath := filepath.Join(dir, "pbemd.toml")
	cfg := fmt.Sprintf(`data_dir = %q
address = "gm@drain.test"
gm = ["master@drain.test"]
gm_password = "pw"
http = %q
log_level = "warn"
[imap]
addr = %q
username = "gm@drain.test"
password = "gm"
security = "plain"
[smtp]
addr = %q
security = "plain"
`, data, httpAddr, box.IMAPAddr(), relay.addr)
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	proc := newServeProcess(t, bin, cfgPath)

	// Kill 1: the server has taken mail 150 and holds its 250 until the
	// daemon is dead.
	took, resume := make(chan struct{}), make(chan struct{})
	var held string // the Message-ID of the mail in flight at kill 1
	relay.mu.Lock()
	relay.hold = func(n int, id string) {
		if n == 150 {
			held = id
			close(took)
			<-resume
		}
	}
	relay.mu.Unlock()
	proc.start()
	select {
	case <-took:
	case <-time.After(60 * time.Second):
		t.Fatal("the drain did not reach 150 mails")
	}
	proc.kill()
	close(resume)
	kills := 1
	// Kills 2 and 3: while the drain goes on, when the test sees 300 and
	// 450 mails taken.
	for _, at := range []int{300, 450} {
		proc.start()
		for end := time.Now().Add(60 * time.Second); ; time.Sleep(time.Millisecond) {
			if _, total := relay.seen(); total >= at {
				break
			}
			if time.Now().After(end) {
				t.Fatalf("the drain did not reach %d mails", at)
			}
		}
		proc.kill()
		kills++
	}
	distinct, total := relay.seen()
	t.Logf("%d kills, at %d mails taken", kills, total)
	if distinct >= queued {
		t.Fatalf("the drain was over (%d of %d mails) before the last kill", distinct, queued)
	}

	// The last start: a mail an attempt was cut off in waits for its
	// retry (30 s), then the outbox is empty.
	proc.start()
	waitFor(t, 120*time.Second, "outbox drained", func() bool { return outboxEmpty(httpAddr) })
	proc.stop()

	relay.mu.Lock()
	copies, total := relay.copies, relay.total
	relay.mu.Unlock()
	repeats := 0
	for _, n := range copies {
		repeats += n - 1
	}
	for _, id := range ids {
		if copies[id] == 0 {
			t.Errorf("mail <%s> never reached the server", id)
		}
	}
	t.Logf("%d mails queued, %d kills: %d mails taken by the server in all, %d repeats", queued, kills, total, repeats)
	if repeats > kills {
		t.Errorf("%d mails went twice after %d kills: more than the one mail in flight per kill", repeats, kills)
	}
	if copies[held] != 2 {
		t.Errorf("the mail in flight at the first kill reached the server %d times, want 2 (taken, its 250 lost, sent again)", copies[held])
	}

	db = storetest.OpenFile(t, filepath.Join(data, "pbemd.db"))
	err = db.View(func(tx *store.Tx) error {
		if n := tx.OutboxLen(); n != 0 {
			return fmt.Errorf("%d mails still in the outbox", n)
		}
		for _, id := range ids {
			if st, err := tx.MailStatus(id); err != nil || st.State != store.OutboxSent {
				return fmt.Errorf("mail <%s>: %+v %v, want sent", id, st, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
