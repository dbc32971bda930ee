package mailserver

import (
	"errors"
	"strings"

	"github.com/emersion/go-sasl"
)

// loginServer is the server side of the (obsolete but common) LOGIN SASL
// mechanism, which go-sasl implements only as a client: it asks
// "Username:" (unless the client sent it as an initial response) then
// "Password:".
type loginServer struct {
	check    func(username, password string) error
	step     int
	username string
}

func newLoginServer(check func(username, password string) error) sasl.Server {
	return &loginServer{check: check}
}

func (s *loginServer) Next(resp []byte) (challenge []byte, done bool, err error) {
	switch s.step {
	case 0:
		s.step = 1
		if resp == nil {
			return []byte("Username:"), false, nil
		}
		fallthrough
	case 1:
		s.username = string(resp)
		s.step = 2
		return []byte("Password:"), false, nil
	case 2:
		s.step = 3
		return nil, true, s.check(s.username, string(resp))
	}
	return nil, false, errors.New("sasl LOGIN: unexpected response")
}

// newBearerServer is the server side of XOAUTH2 or OAUTHBEARER (RFC 7628)
// for Config.BearerCheck; nil for another mechanism.
func newBearerServer(mech string, check func(user, token string) error) sasl.Server {
	switch mech {
	case "XOAUTH2":
		return &xoauth2Server{check: check}
	case sasl.OAuthBearer:
		return sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
			if check(o.Username, o.Token) != nil {
				return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
			}
			return nil
		})
	}
	return nil
}

// xoauth2Server is Google's and Microsoft's XOAUTH2, which go-sasl does
// not have: one response, "user=<user>^Aauth=Bearer <token>^A^A". A refused
// token gets a JSON error as a challenge, which the client answers with an
// empty response; the exchange then fails.
type xoauth2Server struct {
	check func(user, token string) error
	err   error
}

func (s *xoauth2Server) Next(resp []byte) ([]byte, bool, error) {
	if s.err != nil {
		return nil, true, s.err
	}
	if resp == nil {
		return []byte{}, false, nil // no initial response: ask for it
	}
	var user, token string
	for _, f := range strings.Split(string(resp), "\x01") {
		if v, ok := strings.CutPrefix(f, "user="); ok {
			user = v
		}
		if v, ok := strings.CutPrefix(f, "auth=Bearer "); ok {
			token = v
		}
	}
	if user == "" || token == "" {
		return nil, true, errors.New("xoauth2: malformed response")
	}
	if err := s.check(user, token); err != nil {
		s.err = err
		return []byte(`{"status":"401","schemes":"bearer"}`), false, nil
	}
	return nil, true, nil
}
