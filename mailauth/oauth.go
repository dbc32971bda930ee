// Package mailauth signs pbemd into the GM's mailbox with OAuth 2.0 where a
// provider no longer takes a password over IMAP and SMTP (Outlook.com and
// Microsoft 365) or prefers not to (Gmail).
//
// The GM signs in once, with `pbemd auth login`: by the device
// authorization grant (RFC 8628; Microsoft's way), where pbemd prints a
// short code and a web address and the GM signs in there from any
// browser, or by the authorization code grant with PKCE and a loopback
// redirect (RFC 8252; Google's way, whose device grant does not cover
// mail; browser.go). pbemd keeps the refresh token it gets, sealed with the store's key, in a file of the data folder (mode
// 0600; TokenFile). pbemd serve then asks for an access token as its mail
// clients need one (golang.org/x/oauth2 refreshes it before it expires),
// keeps a refresh token the provider rotates, and signs in with the SASL
// mechanism the provider takes: XOAUTH2 (Google and Microsoft) or
// OAUTHBEARER (RFC 7628).
//
// A refresh token that no longer works (revoked, expired, the password
// changed) is a permanent failure: Source.Err says so, /healthz reports it,
// and the mail waits in the outbox and on the server until the GM logs in
// again; a new login while serve runs is taken at the next try. A
// provider that cannot be reached is a temporary one, retried as the mail
// clients retry.
//
// It never asks for or keeps a password, and never logs a token.
package mailauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"pbemd/store"
)

// Config says where to sign in and as what. It is the [oauth] table of
// pbemd's config.
type Config struct {
	// Provider fills the endpoints and scopes: "google" or "microsoft".
	// Empty: DeviceURL, TokenURL and Scopes must be given.
	Provider string `toml:"provider"`
	// ClientID (and for some registrations ClientSecret) of the app the GM
	// registered with the provider (docs/real-mail.md walks it).
	ClientID     string `toml:"client_id"`
	ClientSecret string `toml:"client_secret"`
	// Tenant is Microsoft's directory: "common" (default), "organizations",
	// "consumers" or a tenant id.
	Tenant string `toml:"tenant"`
	// Scopes override the provider's.
	Scopes []string `toml:"scopes"`
	// DeviceURL, AuthURL and TokenURL override the provider's endpoints.
	DeviceURL string `toml:"device_url"`
	AuthURL   string `toml:"auth_url"`
	TokenURL  string `toml:"token_url"`
	// Flow is how `pbemd auth login` signs in: "device" (a code to enter
	// in any browser; Microsoft's default) or "browser" (a browser on the
	// same machine opens the provider's page, which sends the answer back
	// to pbemd on a loopback port; Google's default, since Google's
	// device flow does not grant the mail scope).
	Flow string `toml:"flow"`
	// Mechanism is the SASL mechanism: "xoauth2" (default) or "oauthbearer".
	Mechanism string `toml:"mechanism"`
}

// Validate reports a config that cannot sign in, saying what to set.
func (c Config) Validate() error {
	switch c.Provider {
	case "google", "microsoft":
	case "":
		if c.DeviceURL == "" && c.AuthURL == "" || c.TokenURL == "" || len(c.Scopes) == 0 {
			return errors.New(`oauth: set provider = "google" or "microsoft", or give device_url (or auth_url), token_url and scopes`)
		}
	default:
		return fmt.Errorf(`oauth: provider %q is not known (known: "google", "microsoft"; or leave it out and give device_url, token_url and scopes)`, c.Provider)
	}
	if c.ClientID == "" {
		return errors.New("oauth: client_id is missing: it is the id of the app you registered with the provider (docs/real-mail.md)")
	}
	switch strings.ToLower(c.Mechanism) {
	case "", "xoauth2", "oauthbearer":
	default:
		return fmt.Errorf(`oauth: mechanism %q is not known (known: "xoauth2", "oauthbearer")`, c.Mechanism)
	}
	switch c.flow() {
	case "device", "browser":
	default:
		return fmt.Errorf(`oauth: flow %q is not known (known: "device", "browser")`, c.Flow)
	}
	return nil
}

// flow is the sign-in flow: the config's, else the provider's.
func (c Config) flow() string {
	switch {
	case c.Flow != "":
		return strings.ToLower(c.Flow)
	case c.Provider == "google", c.Provider == "" && c.DeviceURL == "":
		return "browser"
	}
	return "device"
}

// oauth2Config is the x/oauth2 configuration c describes.
func (c Config) oauth2Config() *oauth2.Config {
	oc := &oauth2.Config{ClientID: c.ClientID, ClientSecret: c.ClientSecret, Scopes: c.Scopes}
	switch c.Provider {
	case "google":
		oc.Endpoint = oauth2.Endpoint{
			AuthURL:       "https://accounts.google.com/o/oauth2/v2/auth",
			DeviceAuthURL: "https://oauth2.googleapis.com/device/code",
			TokenURL:      "https://oauth2.googleapis.com/token",
			AuthStyle:     oauth2.AuthStyleInParams,
		}
		if len(oc.Scopes) == 0 {
			oc.Scopes = []string{"https://mail.google.com/"}
		}
	case "microsoft":
		tenant := c.Tenant
		if tenant == "" {
			tenant = "common"
		}
		base := "https://login.microsoftonline.com/" + tenant + "/oauth2/v2.0/"
		oc.Endpoint = oauth2.Endpoint{AuthURL: base + "authorize", DeviceAuthURL: base + "devicecode", TokenURL: base + "token", AuthStyle: oauth2.AuthStyleInParams}
		if len(oc.Scopes) == 0 {
			oc.Scopes = []string{"https://outlook.office.com/IMAP.AccessAsUser.All", "https://outlook.office.com/SMTP.Send", "offline_access"}
		}
	}
	if c.DeviceURL != "" {
		oc.Endpoint.DeviceAuthURL = c.DeviceURL
	}
	if c.AuthURL != "" {
		oc.Endpoint.AuthURL = c.AuthURL
	}
	if c.TokenURL != "" {
		oc.Endpoint.TokenURL = c.TokenURL
	}
	if oc.Endpoint.AuthStyle == oauth2.AuthStyleAutoDetect {
		oc.Endpoint.AuthStyle = oauth2.AuthStyleInParams
	}
	return oc
}

// Login runs the device authorization grant: it asks the provider for a
// code, tells the GM on out where to enter it, and waits until the GM has
// signed in (or the code expires, or ctx ends). client is the HTTP client
// to use (nil: http.DefaultClient).
func Login(ctx context.Context, c Config, client *http.Client, out io.Writer) (*oauth2.Token, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if client != nil {
		ctx = context.WithValue(ctx, oauth2.HTTPClient, client)
	}
	var tok *oauth2.Token
	var err error
	if c.flow() == "browser" {
		tok, err = browserLogin(ctx, c.oauth2Config(), out)
	} else {
		tok, err = deviceLogin(ctx, c.oauth2Config(), out)
	}
	if err != nil {
		return nil, err
	}
	if tok.RefreshToken == "" {
		return nil, errors.New("oauth: the provider gave no refresh token, so pbemd could not sign in again later (Microsoft: add the offline_access scope)")
	}
	return tok, nil
}

// deviceLogin is the device authorization grant (RFC 8628).
func deviceLogin(ctx context.Context, oc *oauth2.Config, out io.Writer) (*oauth2.Token, error) {
	da, err := oc.DeviceAuth(ctx)
	if err != nil {
		return nil, fmt.Errorf("oauth: ask %s for a sign-in code: %w", oc.Endpoint.DeviceAuthURL, err)
	}
	fmt.Fprintf(out, "To let pbemd use the mailbox, open %s in any browser and enter the code %s", da.VerificationURI, da.UserCode)
	if !da.Expiry.IsZero() {
		fmt.Fprintf(out, " (within %s)", time.Until(da.Expiry).Round(time.Minute))
	}
	fmt.Fprintln(out, ".\nWaiting for you to sign in …")
	tok, err := oc.DeviceAccessToken(ctx, da)
	if err != nil {
		return nil, fmt.Errorf("oauth: sign-in was not completed: %w", err)
	}
	return tok, nil
}

// TokenFile is where the token is kept: a file in the data folder, sealed
// with the key of the store at StorePath (store.WriteSealedFile).
type TokenFile struct {
	StorePath string
	Path      string
}

const tokenKind = "oauth token v1"

// Save writes tok (mode 0600, sealed, whole or not at all).
func (f TokenFile) Save(tok *oauth2.Token) error {
	b, err := json.Marshal(tok)
	if err != nil {
		return err
	}
	return store.WriteSealedFile(f.StorePath, f.Path, tokenKind, b)
}

// Load reads the token Save wrote.
func (f TokenFile) Load() (*oauth2.Token, error) {
	b, err := store.ReadSealedFile(f.StorePath, f.Path, tokenKind)
	if err != nil {
		return nil, err
	}
	var tok oauth2.Token
	if err := json.Unmarshal(b, &tok); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	return &tok, nil
}

// ErrSignInAgain is wrapped by Source's errors when the refresh token no
// longer works: only `pbemd auth login` mends it.
var ErrSignInAgain = errors.New("the mailbox's OAuth sign-in no longer works: run pbemd auth login again")

// Source gives the mail clients access tokens. It is safe for concurrent
// use.
type Source struct {
	cfg  Config
	file TokenFile
	ctx  context.Context

	mu      sync.Mutex
	src     oauth2.TokenSource
	refresh string // the refresh token last saved
	err     error  // the permanent failure, if any
}

// NewSource loads the saved token. client is the HTTP client for the token
// endpoint (nil: http.DefaultClient).
func NewSource(c Config, file TokenFile, client *http.Client) (*Source, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	tok, err := file.Load()
	if err != nil {
		return nil, fmt.Errorf("oauth: no saved sign-in (%w): run pbemd auth login first", err)
	}
	ctx := context.Background()
	if client != nil {
		ctx = context.WithValue(ctx, oauth2.HTTPClient, client)
	}
	s := &Source{cfg: c, file: file, ctx: ctx, refresh: tok.RefreshToken}
	s.src = c.oauth2Config().TokenSource(ctx, tok)
	return s, nil
}

// Token returns a valid access token, refreshed when it has expired; a
// refresh token the provider rotates is saved.
func (s *Source) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		// signed in again (pbemd auth login) while serve runs: take the
		// new token
		if tok, err := s.file.Load(); err == nil && tok.RefreshToken != s.refresh {
			s.src = s.cfg.oauth2Config().TokenSource(s.ctx, tok)
			s.refresh, s.err = tok.RefreshToken, nil
		}
	}
	tok, err := s.src.Token()
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode >= 400 && re.Response.StatusCode < 500 {
			s.err = ErrSignInAgain
			if re.ErrorCode != "" {
				s.err = fmt.Errorf("%w (the provider says %s)", ErrSignInAgain, re.ErrorCode)
			}
			return nil, s.err
		}
		return nil, fmt.Errorf("oauth: refresh the access token: %w", err)
	}
	s.err = nil
	if tok.RefreshToken != "" && tok.RefreshToken != s.refresh {
		if err := s.file.Save(tok); err != nil {
			return nil, fmt.Errorf("oauth: keep the new refresh token: %w", err)
		}
		s.refresh = tok.RefreshToken
	}
	return tok, nil
}

// Err is the permanent failure of the last refresh (wrapping
// ErrSignInAgain), or nil.
func (s *Source) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Mechanism is the SASL mechanism the config names, in upper case.
func (s *Source) Mechanism() string {
	if strings.EqualFold(s.cfg.Mechanism, "oauthbearer") {
		return "OAUTHBEARER"
	}
	return "XOAUTH2"
}
