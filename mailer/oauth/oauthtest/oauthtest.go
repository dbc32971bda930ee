// Package oauthtest is an OAuth 2.0 authorization server on loopback for
// tests of pbemd's OAuth sign-in: the device authorization, token and
// introspection endpoints of a provider, with refresh tokens that rotate.
package oauthtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
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
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch r.FormValue("grant_type") {
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
