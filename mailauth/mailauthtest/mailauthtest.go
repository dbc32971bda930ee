// Package mailauthtest is an OAuth 2.0 authorization server on loopback for
// tests of pbemd's OAuth sign-in: the device authorization, token and
// introspection endpoints of a provider, with refresh tokens that rotate.
package mailauthtest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// Provider is an OAuth 2.0 authorization server of the test's own on
// loopback: the device authorization endpoint (RFC 8628), the token
// endpoint with refresh tokens that rotate at every use, and an
// introspection endpoint (RFC 7662) the mail server asks about a bearer
// token. The GM "signs in" when the test calls Approve.
type Provider struct {
	srv *httptest.Server

	mu       sync.Mutex
	approved bool
	polls    int
	access   map[string]bool // live access tokens
	refresh  map[string]bool // live refresh tokens
	n        int
	revoked  bool

	challenge, redirect string // of the browser sign-in under way
}

func NewProvider(t testing.TB) *Provider {
	p := &Provider{access: map[string]bool{}, refresh: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /device", func(w http.ResponseWriter, r *http.Request) {
		if r.FormValue("client_id") != ClientID || r.FormValue("scope") != Scope {
			http.Error(w, `{"error":"invalid_client"}`, http.StatusBadRequest)
			return
		}
		writeJSON(w, map[string]any{"device_code": "dev-1", "user_code": "WDJB-MJHT", "verification_uri": p.srv.URL + "/activate", "expires_in": 60, "interval": 1})
	})
	// the browser's sign-in page: once approved it sends the browser back
	// to the app's loopback address with a code tied to the PKCE challenge
	mux.HandleFunc("GET /authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("client_id") != ClientID || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" ||
			!strings.HasPrefix(q.Get("redirect_uri"), "http://127.0.0.1:") {
			http.Error(w, "bad authorization request", http.StatusBadRequest)
			return
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.approved {
			fmt.Fprint(w, "sign in first")
			return
		}
		p.challenge, p.redirect = q.Get("code_challenge"), q.Get("redirect_uri")
		http.Redirect(w, r, q.Get("redirect_uri")+"?code=code-1&state="+url.QueryEscape(q.Get("state")), http.StatusFound)
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch r.FormValue("grant_type") {
		case "authorization_code":
			sum := sha256.Sum256([]byte(r.FormValue("code_verifier")))
			if r.FormValue("code") != "code-1" || p.challenge == "" || base64.RawURLEncoding.EncodeToString(sum[:]) != p.challenge ||
				r.FormValue("redirect_uri") != p.redirect {
				writeError(w, "invalid_grant")
				return
			}
			p.challenge = "" // a code works once
		case "urn:ietf:params:oauth:grant-type:device_code":
			p.polls++
			if !p.approved {
				writeError(w, "authorization_pending")
				return
			}
		case "refresh_token":
			rt := r.FormValue("refresh_token")
			if p.revoked || !p.refresh[rt] {
				writeError(w, "invalid_grant")
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

// writeError answers as a token endpoint refuses (RFC 6749 5.2).
func writeError(w http.ResponseWriter, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	json.NewEncoder(w).Encode(map[string]string{"error": code})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func (p *Provider) Approve() {
	p.mu.Lock()
	p.approved = true
	p.mu.Unlock()
}

func (p *Provider) Revoke() {
	p.mu.Lock()
	p.revoked = true
	p.mu.Unlock()
}

// Introspect asks the provider whether token is live, as a mail server
// with an OAuth 2.0 passdb does.
func (p *Provider) Introspect(token string) error {
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

// AuthURL is the provider's browser sign-in endpoint.
func (p *Provider) AuthURL() string { return p.srv.URL + "/authorize" }

// DeviceURL and TokenURL are the provider's endpoints; its client id is
// ClientID and its one scope Scope.
func (p *Provider) DeviceURL() string { return p.srv.URL + "/device" }
func (p *Provider) TokenURL() string  { return p.srv.URL + "/token" }

const (
	ClientID = "pbemd-test"
	Scope    = "mail"
)

// Unrevoke lets the provider sign in again (the GM logs in anew; the
// refresh tokens revoked stay dead).
func (p *Provider) Unrevoke() {
	p.mu.Lock()
	p.revoked = false
	p.refresh = map[string]bool{}
	p.mu.Unlock()
}

// URL is the provider's base address.
func (p *Provider) URL() string { return p.srv.URL }
