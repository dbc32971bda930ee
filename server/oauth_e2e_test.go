package server

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
	"golang.org/x/crypto/bcrypt"

	"pbemd/mailauth"
	"pbemd/mailauth/mailauthtest"
	"pbemd/mailer"
	"pbemd/mailserver"
)

// TestE2EOAuthMailbox runs pbemd on a mailbox that takes no password: a
// mail server on loopback that signs its users in only with a bearer token
// its OAuth 2.0 provider (also on loopback) says is live. The GM signs in
// once with pbemd auth login; serve then reads and answers mail; when the
// provider revokes the sign-in, /healthz says so and nothing is lost; a
// new login mends it without a restart, and the answer held meanwhile
// goes out.
func TestE2EOAuthMailbox(t *testing.T) {
	t.Parallel() // it waits out the sender's retry after the new login
	p := mailauthtest.NewProvider(t)
	ms, err := mailserver.Start(mailserver.Config{
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "example.org",
		StateFile: filepath.Join(t.TempDir(), "mail.db"), HashCost: bcrypt.MinCost,
		BearerCheck: func(user, token string) error {
			if user != "gm@example.org" {
				return mailauth.ErrSignInAgain
			}
			return p.Introspect(token)
		},
	}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer ms.Close()

	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.HTTP = ""
	cfg.Address = "gm@example.org"
	cfg.GM = []string{"master@example.org"}
	cfg.GMPassword = "sesame"
	cfg.PasswordCost = 4
	cfg.Poll = Every{D: time.Second}
	cfg.IMAP = &mailer.IMAPConfig{Addr: ms.IMAPAddr(), Username: "gm@example.org", Security: mailer.SecurityPlain}
	cfg.SMTP = &mailer.SMTPConfig{Addr: ms.SMTPAddr(), Username: "gm@example.org", Security: mailer.SecurityPlain, Hello: "localhost"}
	cfg.OAuth = &mailauth.Config{ClientID: mailauthtest.ClientID, Scopes: []string{mailauthtest.Scope}, DeviceURL: p.DeviceURL(), TokenURL: p.TokenURL()}

	// No sign-in yet: serve refuses to start and says what to run.
	if _, err := Open(cfg, nil, nil); err == nil || !strings.Contains(err.Error(), "pbemd auth login") {
		t.Fatalf("Open without a sign-in: %v", err)
	}
	login := func() {
		t.Helper()
		var out bytes.Buffer
		p.Approve()
		if err := AuthLogin(t.Context(), cfg, nil, &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "WDJB-MJHT") || !strings.Contains(out.String(), "oauth-token") {
			t.Errorf("pbemd auth login says:\n%s", out.String())
		}
	}
	login()

	srv, err := Open(cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		srv.Close()
	}()

	send := func(body string) {
		t.Helper()
		raw := "From: alice@example.org\r\nTo: gm@example.org\r\nSubject: hello\r\nMessage-ID: <" + body + "@example.org>\r\n\r\n" + body + "\r\n"
		c, err := smtp.Dial(ms.SMTPAddr())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.SendMail("alice@example.org", []string{"gm@example.org"}, strings.NewReader(raw)); err != nil {
			t.Fatal(err)
		}
	}
	inbox := func() uint32 {
		t.Helper()
		c, err := imapclient.DialInsecure(ms.IMAPAddr(), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.Login("alice@example.org", "alice").Wait(); err != nil {
			t.Fatal(err)
		}
		d, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
		if err != nil {
			t.Fatal(err)
		}
		return d.NumMessages
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			if ok() {
				return
			}
		}
		t.Fatalf("no %s within 2 minutes", what)
	}
	health := func() string {
		rec := httptest.NewRecorder()
		srv.Handler("").ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1/healthz", nil))
		return rec.Body.String()
	}

	send("LIST")
	waitFor("answer to LIST", func() bool { return inbox() >= 1 })
	if h := health(); !strings.HasPrefix(h, "ok") {
		t.Errorf("/healthz while signed in: %s", h)
	}

	p.Revoke()
	send("HELP")
	waitFor("/healthz naming the sign-in", func() bool { return strings.Contains(health(), "pbemd auth login") })
	if n := inbox(); n != 1 {
		t.Errorf("%d mails reached alice while the sign-in was revoked", n)
	}

	p.Unrevoke()
	login()
	waitFor("answer to HELP after the new login", func() bool { return inbox() >= 2 })
	waitFor("/healthz ok again", func() bool { return strings.HasPrefix(health(), "ok") })
}
