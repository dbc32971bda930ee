package oauth

import (
	"errors"

	"github.com/emersion/go-sasl"
)

// SASL returns the client that signs user in over IMAP or SMTP with a
// fresh access token, by the config's mechanism.
func (s *Source) SASL(user string) (sasl.Client, error) {
	tok, err := s.Token()
	if err != nil {
		return nil, err
	}
	if s.Mechanism() == "OAUTHBEARER" {
		return sasl.NewOAuthBearerClient(&sasl.OAuthBearerOptions{Username: user, Token: tok.AccessToken}), nil
	}
	return &xoauth2Client{user: user, token: tok.AccessToken}, nil
}

// xoauth2Client is Google's and Microsoft's XOAUTH2 mechanism, which
// go-sasl does not have: one initial response, "user=<user>^Aauth=Bearer
// <token>^A^A". A server that refuses the token sends a JSON error as a
// challenge, which the client answers with an empty response to end the
// exchange; the server then fails it.
type xoauth2Client struct {
	user, token string
	failed      bool
}

func (c *xoauth2Client) Start() (string, []byte, error) {
	return "XOAUTH2", []byte("user=" + c.user + "\x01auth=Bearer " + c.token + "\x01\x01"), nil
}

func (c *xoauth2Client) Next(challenge []byte) ([]byte, error) {
	if c.failed {
		return nil, errors.New("xoauth2: the server refused the token")
	}
	c.failed = true
	return []byte{}, nil
}

// XOAUTH2Server is the server side of XOAUTH2 for a mail server that
// checks bearer tokens (the embedded server's test mode): check gets the
// user and the token.
func XOAUTH2Server(check func(user, token string) error) sasl.Server {
	return &xoauth2Server{check: check}
}

type xoauth2Server struct {
	check func(user, token string) error
	err   error
}

func (s *xoauth2Server) Next(resp []byte) ([]byte, bool, error) {
	if s.err != nil {
		return nil, true, s.err // the client's empty answer to the error
	}
	if resp == nil {
		return []byte{}, false, nil // no initial response: ask for it
	}
	user, token, ok := parseXOAUTH2(string(resp))
	if !ok {
		return nil, true, errors.New("xoauth2: malformed response")
	}
	if err := s.check(user, token); err != nil {
		s.err = err
		return []byte(`{"status":"401","schemes":"bearer","scope":"mail"}`), false, nil
	}
	return nil, true, nil
}

func parseXOAUTH2(s string) (user, token string, ok bool) {
	for _, f := range splitCtrlA(s) {
		switch {
		case len(f) > 5 && f[:5] == "user=":
			user = f[5:]
		case len(f) > 12 && f[:12] == "auth=Bearer ":
			token = f[12:]
		}
	}
	return user, token, user != "" && token != ""
}

func splitCtrlA(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != 1 {
			i++
		}
		out = append(out, s[:i])
		if i == len(s) {
			break
		}
		s = s[i+1:]
	}
	return out
}
