package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-smtp"

	"pbemd/mailer"
	"pbemd/store"
)

// healthz fetches /healthz from the server's endpoint.
func healthz(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// serveEndpoint serves the server's loopback endpoint on 127.0.0.1:0.
func serveEndpoint(t *testing.T, s *Server) string {
	t.Helper()
	ts := httptest.NewServer(s.Handler(""))
	t.Cleanup(ts.Close)
	return ts.URL
}

var errDiskFull = errors.New("write pbemd.db: no space left on device")

// A nearly full disk: small commits (a failure counter, a checkpoint)
// still fit, a whole mail's transaction does not. 41 order mails arrive
// meanwhile. None may be set aside or lost: once the disk has room, every
// mail is handled exactly once, in the order it came, and /healthz says
// "failing" with the reason while the store cannot write.
func TestE2EFullDiskLosesNoMail(t *testing.T) {
	e := newE2E(t)
	_, pl := e.standardGame("full")
	url := serveEndpoint(t, e.srv)
	if code, body := healthz(t, url); code != http.StatusOK {
		t.Fatalf("healthz before the fault: %d %s", code, body)
	}

	var refused atomic.Int32
	e.srv.DB.SetWriteFault(func(c store.Commit) error {
		if c.Nodes > 2 {
			refused.Add(1)
			return errDiskFull
		}
		return nil
	})
	powers := []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"}
	orders := map[string]string{"austria": "A Vie H", "england": "F Lon H", "france": "A Par H", "germany": "A Ber H",
		"italy": "A Rom H", "russia": "A Mos H", "turkey": "A Con H"}
	sent := map[string][]string{} // power → Message-IDs, in order
	const mails = 41
	for i := range mails {
		p := powers[i%len(powers)]
		id := e.send(pl[p].addr, tokenAddr(pl[p].token), fmt.Sprintf("%s\n# mail %d", orders[p], i))
		sent[p] = append(sent[p], id)
	}

	// The fault lasts for 3 × 41 refused mail transactions: enough for
	// every mail to fail three times (which set it aside before this
	// fix), or for the first waiting mail to be retried 123 times.
	deadline := time.Now().Add(60 * time.Second)
	var body string
	for {
		var code int
		code, body = healthz(t, url)
		if code == http.StatusServiceUnavailable && refused.Load() >= 3*mails {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("during the fault: %d commits refused, healthz %d %q", refused.Load(), code, body)
		}
		e.srv.fetcher.Kick() // as the cron does every minute
		time.Sleep(20 * time.Millisecond)
	}
	mustContain(t, body, "failing", "store:", "no space left on device", "incoming mail", "will be retried")

	e.srv.DB.SetWriteFault(nil)
	e.srv.fetcher.Kick()

	// every mail acknowledged once
	acks := map[string]int{}
	for deadline := time.Now().Add(60 * time.Second); len(acks) < mails; {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d mails acknowledged after the disk had room again", len(acks), mails)
		}
		for _, p := range powers {
			for _, m := range e.fresh(pl[p].addr) {
				if m.InReplyTo != "" {
					acks[m.InReplyTo]++
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.quiet(e2eGM, "set aside")
	for _, p := range powers {
		for _, m := range e.fresh(pl[p].addr) {
			acks[m.InReplyTo]++
		}
	}
	for _, ids := range sent {
		for _, id := range ids {
			if acks[id] != 1 {
				t.Errorf("mail %s acknowledged %d times", id, acks[id])
			}
		}
	}
	// handled once each, in the order sent: the order sets of the phase
	// list each power's mails in sending order
	g := e.game("full")
	err := e.srv.DB.View(func(tx *store.Tx) error {
		sets, err := tx.OrderSets("full", g.Phase)
		if err != nil {
			return err
		}
		got := map[string][]string{}
		for _, s := range sets {
			got[s.Power] = append(got[s.Power], s.MsgID)
			if f, _ := tx.MailFailures(s.MsgID); f.Count != 0 {
				t.Errorf("mail %s counted %d failures for a full disk", s.MsgID, f.Count)
			}
		}
		for _, p := range powers {
			if strings.Join(got[p], " ") != strings.Join(sent[p], " ") {
				t.Errorf("%s: order sets %v, want %v", p, got[p], sent[p])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if code, body := healthz(t, url); code != http.StatusOK || strings.TrimSpace(body) != "ok" {
		t.Fatalf("healthz after recovery: %d %q", code, body)
	}
	t.Logf("%d mails during the fault: %d commits refused, all handled once after it", mails, refused.Load())
}

// startMemIMAP runs go-imap's in-memory IMAP server on loopback; accounts
// are added with AddUser.
func startMemIMAP(t *testing.T) (*imapmemserver.Server, string) {
	t.Helper()
	mem := imapmemserver.New()
	is := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}},
		InsecureAuth: true,
		Logger:       tLog{t},
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { is.Serve(ln); close(done) }()
	t.Cleanup(func() { is.Close(); ln.Close(); <-done })
	return mem, ln.Addr().String()
}

func addIMAPUser(t *testing.T, mem *imapmemserver.Server, user, pass string) {
	t.Helper()
	u := imapmemserver.NewUser(user, pass)
	if err := u.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(u)
}

// startAcceptSMTP runs an SMTP server on loopback that takes every mail.
func startAcceptSMTP(t *testing.T) string {
	t.Helper()
	ss := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return acceptAll{}, nil }))
	ss.Domain = "mx.example.test"
	ss.ErrorLog = tLog{t}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { ss.Serve(ln); close(done) }()
	t.Cleanup(func() { ss.Close(); ln.Close(); <-done })
	return ln.Addr().String()
}

// runWithAccounts runs a whole pbemd on real (loopback) IMAP and SMTP
// accounts and returns the URL of its endpoint.
func runWithAccounts(t *testing.T, imapAddr, smtpAddr string) string {
	t.Helper()
	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.HTTP = ""
	cfg.PasswordCost = 4
	cfg.Address = "gm@example.test"
	cfg.GM = []string{"master@example.test"}
	cfg.IMAP = &mailer.IMAPConfig{Addr: imapAddr, Security: mailer.SecurityPlain, Username: "gm@example.test", Password: "right"}
	cfg.SMTP = &mailer.SMTPConfig{Addr: smtpAddr, Security: mailer.SecurityPlain, Auth: "none", Hello: "pbemd.test"}
	srv, err := Open(cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; srv.Close() })
	return serveEndpoint(t, srv)
}

// waitHealthz polls /healthz until ok accepts it.
func waitHealthz(t *testing.T, url, what string, ok func(code int, body string) bool) string {
	t.Helper()
	var code int
	var body string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if code, body = healthz(t, url); ok(code, body) {
			return body
		}
	}
	t.Fatalf("%s: healthz %d %q", what, code, body)
	return ""
}

// With a real mail account whose IMAP login is refused, /healthz fails and
// names the account; once the server takes the login it is ok again.
func TestHealthzReportsIMAPLoginFailure(t *testing.T) {
	mem, imapAddr := startMemIMAP(t)
	url := runWithAccounts(t, imapAddr, startAcceptSMTP(t))
	body := waitHealthz(t, url, "while the login is refused", func(code int, _ string) bool { return code == http.StatusServiceUnavailable })
	mustContain(t, body, "failing", "incoming mail: IMAP login as gm@example.test", "fails")

	addIMAPUser(t, mem, "gm@example.test", "right")
	waitHealthz(t, url, "once the login works", func(code int, body string) bool { return code == http.StatusOK && strings.TrimSpace(body) == "ok" })
}

// An SMTP server that cannot be reached shows in /healthz too (the
// welcome mail to the site GM waits in the outbox).
func TestHealthzReportsSMTPOutage(t *testing.T) {
	mem, imapAddr := startMemIMAP(t)
	addIMAPUser(t, mem, "gm@example.test", "right")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	smtpAddr := ln.Addr().String()
	ln.Close() // nobody answers there
	url := runWithAccounts(t, imapAddr, smtpAddr)
	body := waitHealthz(t, url, "while SMTP is down", func(code int, _ string) bool { return code == http.StatusServiceUnavailable })
	mustContain(t, body, "failing", "outgoing mail: SMTP "+smtpAddr+": cannot open a session")
	if strings.Contains(body, "incoming mail") {
		t.Errorf("IMAP works, yet healthz says %q", body)
	}
}

// tLog is a Printf/Println logger for test servers.
type tLog struct{ t *testing.T }

func (l tLog) Printf(format string, args ...any) { l.t.Logf(format, args...) }
func (l tLog) Println(args ...any)               { l.t.Log(args...) }

// acceptAll is an SMTP session that takes every mail.
type acceptAll struct{}

func (acceptAll) Mail(string, *smtp.MailOptions) error { return nil }
func (acceptAll) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (acceptAll) Data(r io.Reader) error               { _, err := io.Copy(io.Discard, r); return err }
func (acceptAll) Reset()                               {}
func (acceptAll) Logout() error                        { return nil }
