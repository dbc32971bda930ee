package mailserver

import (
	"errors"

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
