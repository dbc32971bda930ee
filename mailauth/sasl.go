package mailauth

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
