package oauth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// provider is an OAuth 2.0 authorization server of the test's own on
// loopback: the device authorization endpoint (RFC 8628), the token
// endpoint with refresh tokens that rotate at every use, and an
// introspection endpoint (RFC 7662) the mail server asks about a bearer
// token. The GM "signs in" when the test calls approve.
type provider struct {
	srv *httptest.Server

	mu       sync.Mutex
	approved bool
	polls    int
	access   map[string]bool // live access tokens
	refresh  map[string]bool // live refresh tokens
	n        int
	revoked  bool
}

func newProvider(t *testing.T) *provider {
	p := &provider{access: map[string]bool{}, refresh: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /device", func(w http.ResponseWriter, r *http.Request) {
		if r.FormValue("client_id") != "pbemd-test" || r.FormValue("scope") != "mail" {
			http.Error(w, `{"error":"invalid_client"}`, http.StatusBadRequest)
			return
		}
		writeJSON(w, map[string]any{"device_code": "dev-1", "user_code": "WDJB-MJHT", "verification_uri": p.srv.URL + "/activate", "expires_in": 60, "interval": 1})
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch r.FormValue("grant_type") {
		case "urn:ietf:params:oauth:grant-type:device_code":
			p.polls++
			if !p.approved {
				w.WriteHeader(http.StatusBadRequest)
				writeJSON(w, map[string]any{"error": "authorization_pending"})
				return
			}
		case "refresh_token":
			rt := r.FormValue("refresh_token")
			if p.revoked || !p.refresh[rt] {
				w.WriteHeader(http.StatusBadRequest)
				writeJSON(w, map[string]any{"error": "invalid_grant", "error_description": "the refresh token was revoked"})
				return
			}
			delete(p.refresh, rt) // rotated: each refresh token works once
		default:
			http.Error(w, `{"error":"unsupported_grant_type"}`, http.StatusBadRequest)
			return
		}
		p.n++
		at, rt := fmt.Sprintf("access-%d", p.n), fmt.Sprintf("refresh-%d", p.n)
		p.access[at], p.refresh[rt] = true, true
		// expires_in 1: within x/oauth2's margin, so every Token call
		// refreshes, and the rotation is exercised at every use
		writeJSON(w, map[string]any{"access_token": at, "refresh_token": rt, "token_type": "Bearer", "expires_in": 1})
	})
	mux.HandleFunc("POST /introspect", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		defer p.mu.Unlock()
		writeJSON(w, map[string]any{"active": p.access[r.FormValue("token")] && !p.revoked})
	})
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func (p *provider) approve() {
	p.mu.Lock()
	p.approved = true
	p.mu.Unlock()
}

func (p *provider) revoke() {
	p.mu.Lock()
	p.revoked = true
	p.mu.Unlock()
}

// introspect asks the provider whether token is live, as a mail server
// with an OAuth 2.0 passdb does.
func (p *provider) introspect(token string) error {
	resp, err := http.PostForm(p.srv.URL+"/introspect", map[string][]string{"token": {token}})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var r struct{ Active bool }
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return err
	}
	if !r.Active {
		return errors.New("token not active")
	}
	return nil
}

func (p *provider) config(mech string) Config {
	return Config{ClientID: "pbemd-test", Scopes: []string{"mail"}, DeviceURL: p.srv.URL + "/device", TokenURL: p.srv.URL + "/token", Mechanism: mech}
}

// bearerSMTP is an SMTP server on loopback that signs users in only with
// XOAUTH2 or OAUTHBEARER and a token the provider says is live.
type bearerSMTP struct {
	addr string
	mu   sync.Mutex
	got  []string // "user: body" of each mail received
}

func newBearerSMTP(t *testing.T, p *provider) *bearerSMTP {
	b := &bearerSMTP{}
	s := smtp.NewServer(smtpBackend{b: b, p: p})
	s.Domain = "localhost"
	s.AllowInsecureAuth = true
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b.addr = l.Addr().String()
	go s.Serve(l)
	t.Cleanup(func() { s.Close() })
	return b
}

type smtpBackend struct {
	b *bearerSMTP
	p *provider
}

func (be smtpBackend) NewSession(*smtp.Conn) (smtp.Session, error) {
	return &smtpSession{be: be}, nil
}

type smtpSession struct {
	be   smtpBackend
	user string
}

func (s *smtpSession) AuthMechanisms() []string { return []string{"XOAUTH2", "OAUTHBEARER"} }

func (s *smtpSession) Auth(mech string) (sasl.Server, error) {
	switch mech {
	case "XOAUTH2":
		return XOAUTH2Server(func(user, token string) error {
			if err := s.be.p.introspect(token); err != nil {
				return err
			}
			s.user = user
			return nil
		}), nil
	case "OAUTHBEARER":
		return sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
			if err := s.be.p.introspect(o.Token); err != nil {
				return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
			}
			s.user = o.Username
			return nil
		}), nil
	}
	return nil, errors.New("unknown mechanism")
}

func (s *smtpSession) Mail(string, *smtp.MailOptions) error {
	if s.user == "" {
		return smtp.ErrAuthRequired
	}
	return nil
}
func (s *smtpSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *smtpSession) Data(r io.Reader) error {
	body, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.be.b.mu.Lock()
	s.be.b.got = append(s.be.b.got, s.user+": "+strings.TrimSpace(string(body)))
	s.be.b.mu.Unlock()
	return nil
}
func (s *smtpSession) Reset()        {}
func (s *smtpSession) Logout() error { return nil }

// send signs in with src and sends one mail.
func (b *bearerSMTP) send(src *Source, user, body string) error {
	c, err := smtp.Dial(b.addr)
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
	return c.SendMail(user, []string{"player@example.org"}, strings.NewReader("Subject: t\r\n\r\n"+body+"\r\n"))
}

func TestLoginRefreshRotationAndRevocation(t *testing.T) {
	for _, mech := range []string{"xoauth2", "oauthbearer"} {
		t.Run(mech, func(t *testing.T) {
			p := newProvider(t)
			mail := newBearerSMTP(t, p)
			dir := t.TempDir()
			file := TokenFile{StorePath: filepath.Join(dir, "pbemd.db"), Path: filepath.Join(dir, "oauth-token")}
			cfg := p.config(mech)

			// The GM signs in once: pbemd prints the address and the code,
			// and waits while the provider says "pending".
			var out bytes.Buffer
			go func() {
				for !strings.Contains(outString(&out), "WDJB-MJHT") {
					time.Sleep(10 * time.Millisecond)
				}
				p.approve()
			}()
			tok, err := Login(t.Context(), cfg, nil, &lockedWriter{w: &out})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(outString(&out), p.srv.URL+"/activate") {
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
				if err := mail.send(src, "gm@example.org", fmt.Sprintf("mail %d", i)); err != nil {
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
			if err := mail.send(src2, "gm@example.org", "after a restart"); err != nil {
				t.Fatalf("after a restart: %v", err)
			}
			mail.mu.Lock()
			got := len(mail.got)
			mail.mu.Unlock()
			if got != 4 {
				t.Errorf("%d mails arrived, want 4", got)
			}
			if src2.Err() != nil {
				t.Errorf("Err = %v while the sign-in works", src2.Err())
			}

			// Revoked: a permanent failure, said once and kept for /healthz.
			p.revoke()
			err = mail.send(src2, "gm@example.org", "after revocation")
			if !errors.Is(err, ErrSignInAgain) {
				t.Errorf("send after revocation: %v, want ErrSignInAgain", err)
			}
			if !errors.Is(src2.Err(), ErrSignInAgain) {
				t.Errorf("Err = %v after revocation", src2.Err())
			}
		})
	}
}

func TestRefusedTokenFailsTheSignIn(t *testing.T) {
	p := newProvider(t)
	mail := newBearerSMTP(t, p)
	c, err := smtp.Dial(mail.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.Auth(&xoauth2Client{user: "gm@example.org", token: "forged"})
	if err == nil {
		t.Fatal("a forged token signed in")
	}
	if err := c.Mail("gm@example.org", nil); err == nil {
		t.Error("MAIL accepted without a sign-in")
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
