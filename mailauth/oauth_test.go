package mailauth

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
	"golang.org/x/crypto/bcrypt"

	"pbemd/mailauth/mailauthtest"
	"pbemd/mailserver"
)

// mailServer is the embedded mail server in its bearer mode: IMAP and
// SMTP sign users in with XOAUTH2 or OAUTHBEARER and a token the provider
// says is live (mailserver.Config.BearerCheck).
func mailServer(t *testing.T, p *mailauthtest.Provider) *mailserver.Server {
	srv, err := mailserver.Start(mailserver.Config{
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "example.org",
		StateFile: filepath.Join(t.TempDir(), "mail.db"), HashCost: bcrypt.MinCost,
		BearerCheck: func(user, token string) error { return p.Introspect(token) },
	}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// send signs in over SMTP with src and sends one mail.
func send(srv *mailserver.Server, src *Source, user, body string) error {
	c, err := smtp.Dial(srv.SMTPAddr())
	if err != nil {
		return err
	}
	defer c.Close()
	auth, err := src.SASL(user)
	if err != nil {
		return err
	}
	if err := c.Auth(auth); err != nil {
		return err
	}
	return c.SendMail(user, []string{user}, strings.NewReader("Subject: t\r\n\r\n"+body+"\r\n"))
}

// count signs in over IMAP with src and counts the mails in the inbox.
func count(srv *mailserver.Server, src *Source, user string) (uint32, error) {
	c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	auth, err := src.SASL(user)
	if err != nil {
		return 0, err
	}
	if err := c.Authenticate(auth); err != nil {
		return 0, err
	}
	d, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		return 0, err
	}
	return d.NumMessages, nil
}

func TestLoginRefreshRotationAndRevocation(t *testing.T) {
	for _, mech := range []string{"xoauth2", "oauthbearer"} {
		t.Run(mech, func(t *testing.T) {
			p := mailauthtest.NewProvider(t)
			mail := mailServer(t, p)
			dir := t.TempDir()
			file := TokenFile{StorePath: filepath.Join(dir, "pbemd.db"), Path: filepath.Join(dir, "oauth-token")}
			cfg := Config{ClientID: mailauthtest.ClientID, Scopes: []string{mailauthtest.Scope}, DeviceURL: p.DeviceURL(), TokenURL: p.TokenURL(), Mechanism: mech}

			// The GM signs in once: pbemd prints the address and the code,
			// and waits while the provider says "pending".
			var out bytes.Buffer
			go func() {
				for !strings.Contains(outString(&out), "WDJB-MJHT") {
					time.Sleep(10 * time.Millisecond)
				}
				p.Approve()
			}()
			tok, err := Login(t.Context(), cfg, nil, &lockedWriter{w: &out})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(outString(&out), p.URL()+"/activate") {
				t.Errorf("the GM is not told where to sign in:\n%s", outString(&out))
			}
			if err := file.Save(tok); err != nil {
				t.Fatal(err)
			}
			st, err := os.Stat(file.Path)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != 0o600 {
				t.Errorf("token file mode %04o, want 0600", st.Mode().Perm())
			}
			raw, _ := os.ReadFile(file.Path)
			if bytes.Contains(raw, []byte(tok.RefreshToken)) || bytes.Contains(raw, []byte(tok.AccessToken)) {
				t.Error("the token file holds the token in clear")
			}

			// serve signs in and sends; each use refreshes (expires_in 1)
			// and the rotated refresh token is kept.
			src, err := NewSource(cfg, file, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				if err := send(mail, src, "gm@example.org", fmt.Sprintf("mail %d", i)); err != nil {
					t.Fatalf("send %d: %v", i, err)
				}
			}
			saved, err := file.Load()
			if err != nil {
				t.Fatal(err)
			}
			if saved.RefreshToken == tok.RefreshToken {
				t.Errorf("the rotated refresh token was not kept (still %s)", saved.RefreshToken)
			}
			// a restart reads the kept token and goes on
			src2, err := NewSource(cfg, file, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := send(mail, src2, "gm@example.org", "after a restart"); err != nil {
				t.Fatalf("after a restart: %v", err)
			}
			if n, err := count(mail, src2, "gm@example.org"); err != nil || n != 4 {
				t.Errorf("IMAP: %d mails in the inbox (%v), want 4", n, err)
			}
			if src2.Err() != nil {
				t.Errorf("Err = %v while the sign-in works", src2.Err())
			}

			// Revoked: a permanent failure, said once and kept for /healthz.
			p.Revoke()
			err = send(mail, src2, "gm@example.org", "after revocation")
			if !errors.Is(err, ErrSignInAgain) {
				t.Errorf("send after revocation: %v, want ErrSignInAgain", err)
			}
			if !errors.Is(src2.Err(), ErrSignInAgain) {
				t.Errorf("Err = %v after revocation", src2.Err())
			}
		})
	}
}

// TestBrowserLogin: the authorization code grant with PKCE and a loopback
// redirect, Google's way (its device flow does not grant the mail scope).
// The test is the GM's browser: it opens the address pbemd prints and
// follows the provider's redirect back to pbemd's loopback port.
func TestBrowserLogin(t *testing.T) {
	p := mailauthtest.NewProvider(t)
	p.Approve()
	cfg := Config{ClientID: mailauthtest.ClientID, Scopes: []string{mailauthtest.Scope}, AuthURL: p.AuthURL(), TokenURL: p.TokenURL()}
	if cfg.flow() != "browser" {
		t.Fatalf("flow %q, want browser", cfg.flow())
	}
	var out bytes.Buffer
	browsed := make(chan error, 1)
	go func() {
		for !strings.Contains(outString(&out), "Waiting") {
			time.Sleep(10 * time.Millisecond)
		}
		var addr string
		for _, l := range strings.Split(outString(&out), "\n") {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "http") {
				addr = l
			}
		}
		resp, err := http.Get(addr)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(body), "signed in") {
				err = fmt.Errorf("the browser shows %q", body)
			}
		}
		browsed <- err
	}()
	tok, err := Login(t.Context(), cfg, nil, &lockedWriter{w: &out})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-browsed; err != nil {
		t.Fatal(err)
	}
	if tok.RefreshToken == "" || tok.AccessToken == "" {
		t.Errorf("token %+v", tok)
	}
	if !strings.Contains(outString(&out), "ssh -L") {
		t.Errorf("a GM on a server is not told how to forward the port:\n%s", outString(&out))
	}
}

func TestRefusedTokenFailsTheSignIn(t *testing.T) {
	p := mailauthtest.NewProvider(t)
	mail := mailServer(t, p)
	c, err := smtp.Dial(mail.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.Auth(&xoauth2Client{user: "gm@example.org", token: "forged"})
	if err == nil {
		t.Fatal("a forged token signed in")
	}
	ic, err := imapclient.DialInsecure(mail.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ic.Close()
	if err := ic.Authenticate(&xoauth2Client{user: "gm@example.org", token: "forged"}); err == nil {
		t.Error("IMAP: a forged token signed in")
	}
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Provider: "google", ClientID: "x"}, ""},
		{Config{Provider: "microsoft", ClientID: "x", Tenant: "organizations"}, ""},
		{Config{Provider: "yahoo", ClientID: "x"}, "not known"},
		{Config{Provider: "google"}, "client_id"},
		{Config{ClientID: "x"}, "device_url"},
		{Config{Provider: "google", ClientID: "x", Mechanism: "plain"}, "mechanism"},
	} {
		err := c.cfg.Validate()
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
	ms := Config{Provider: "microsoft", ClientID: "x"}.oauth2Config()
	if !strings.Contains(ms.Endpoint.TokenURL, "/common/") || !strings.Contains(strings.Join(ms.Scopes, " "), "offline_access") {
		t.Errorf("microsoft: %+v", ms)
	}
}

type lockedWriter struct{ w *bytes.Buffer }

var outMu sync.Mutex

func (l *lockedWriter) Write(b []byte) (int, error) {
	outMu.Lock()
	defer outMu.Unlock()
	return l.w.Write(b)
}

func outString(b *bytes.Buffer) string {
	outMu.Lock()
	defer outMu.Unlock()
	return b.String()
}
