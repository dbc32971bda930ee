package mailer

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// deadlineConn gives every Read and Write its own deadline, so a server
// that stops answering (or a connection that silently died) fails one
// operation after timeout instead of hanging the sender.
type deadlineConn struct {
	net.Conn
	timeout time.Duration
}

func (c *deadlineConn) Read(p []byte) (int, error) {
	c.Conn.SetReadDeadline(time.Now().Add(c.timeout))
	return c.Conn.Read(p)
}

func (c *deadlineConn) Write(p []byte) (int, error) {
	c.Conn.SetWriteDeadline(time.Now().Add(c.timeout))
	return c.Conn.Write(p)
}

// go-smtp sets and clears whole-connection deadlines around commands;
// the per-operation deadlines above replace them.
func (c *deadlineConn) SetDeadline(time.Time) error      { return nil }
func (c *deadlineConn) SetReadDeadline(time.Time) error  { return nil }
func (c *deadlineConn) SetWriteDeadline(time.Time) error { return nil }

// connError marks a failure to set up the SMTP session (dial, TLS,
// greeting, EHLO, AUTH): the server or our account is at fault, not the
// mail being sent, so no mail is failed because of it.
type connError struct{ err error }

func (e *connError) Error() string { return "smtp connection: " + e.err.Error() }
func (e *connError) Unwrap() error { return e.err }

// dialSMTP opens an authenticated SMTP session as cfg says: implicit TLS,
// STARTTLS, or plain (loopback). It never uses smtp.SendMail, which
// always insists on STARTTLS.
func dialSMTP(ctx context.Context, cfg SMTPConfig, log *slog.Logger) (*smtp.Client, error) {
	d := net.Dialer{Timeout: cfg.Timeout}
	raw, err := d.DialContext(ctx, "tcp", cfg.Addr)
	if err != nil {
		return nil, &connError{err}
	}
	conn := net.Conn(&deadlineConn{Conn: raw, timeout: cfg.Timeout})
	var c *smtp.Client
	switch cfg.Security {
	case SecurityTLS:
		tc := tls.Client(conn, tlsConfig(cfg.Addr, cfg.InsecureSkipVerify))
		if err := tc.HandshakeContext(ctx); err != nil {
			raw.Close()
			return nil, &connError{fmt.Errorf("tls: %w", err)}
		}
		c = smtp.NewClient(tc)
	case SecurityStartTLS:
		// NewClientStartTLS greets as "localhost" before the upgrade; the
		// EHLO after it uses our name (Hello below).
		c, err = smtp.NewClientStartTLS(conn, tlsConfig(cfg.Addr, cfg.InsecureSkipVerify))
		if err != nil {
			raw.Close()
			return nil, &connError{fmt.Errorf("starttls: %w", err)}
		}
	default:
		c = smtp.NewClient(conn)
	}
	c.CommandTimeout = cfg.Timeout
	c.SubmissionTimeout = cfg.Timeout
	if w := newTranscript(log, "smtp", cfg.Username, cfg.Password); w != nil {
		c.DebugWriter = w
	}
	fail := func(stage string, err error) (*smtp.Client, error) {
		c.Close()
		return nil, &connError{fmt.Errorf("%s: %w", stage, err)}
	}
	if err := c.Hello(helloName(cfg)); err != nil {
		return fail("hello", err)
	}
	if cfg.OAuth != nil {
		a, err := cfg.OAuth.SASL(cfg.Username)
		if err != nil {
			return fail("oauth", err)
		}
		if err := c.Auth(a); err != nil {
			return fail("auth oauth", err)
		}
		return c, nil
	}
	switch cfg.Auth {
	case "plain":
		if err := c.Auth(sasl.NewPlainClient("", cfg.Username, cfg.Password)); err != nil {
			return fail("auth plain", err)
		}
	case "login":
		if err := c.Auth(sasl.NewLoginClient(cfg.Username, cfg.Password)); err != nil {
			return fail("auth login", err)
		}
	}
	return c, nil
}

func helloName(cfg SMTPConfig) string {
	if cfg.Hello != "" {
		return cfg.Hello
	}
	if h, err := os.Hostname(); err == nil && h != "" && !strings.ContainsAny(h, " \r\n") {
		return h
	}
	return "localhost"
}

// ErrNoSMTPUTF8 is why a mail that names a non-ASCII address was not
// sent: the server did not offer SMTPUTF8 (RFC 6531), and raw UTF-8 in an
// envelope or header (RFC 6532) may only go to a server that agreed to
// it. It is permanent: no retry makes the server agree.
var ErrNoSMTPUTF8 = errors.New("the mail names a non-ASCII address and the SMTP server does not offer SMTPUTF8 to carry it")

// startMail sends MAIL FROM for m: with SMTPUTF8 when m needs it
// (needsSMTPUTF8) and the server offers it; when it does not offer it,
// nothing is sent and the error is ErrNoSMTPUTF8.
func startMail(c *smtp.Client, m QueuedMail) error {
	if !needsSMTPUTF8(m) {
		return c.Mail(m.From, nil)
	}
	if ok, _ := c.Extension("SMTPUTF8"); !ok {
		return ErrNoSMTPUTF8
	}
	return c.Mail(m.From, &smtp.MailOptions{UTF8: true})
}

// needsSMTPUTF8 reports whether m's envelope or header holds non-ASCII
// bytes: an internationalised address, which has no ASCII form when its
// local part is not ASCII (an encoded-word may not stand in an address).
// Only a header with such an address has them: every other header
// value is written in ASCII (RFC 2047 words).
func needsSMTPUTF8(m QueuedMail) bool {
	if !isASCII(m.From) {
		return true
	}
	for _, to := range m.To {
		if !isASCII(to) {
			return true
		}
	}
	header := m.Raw
	if i := bytes.Index(header, []byte("\n\r\n")); i >= 0 {
		header = header[:i]
	}
	if i := bytes.Index(header, []byte("\n\n")); i >= 0 {
		header = header[:i]
	}
	return !isASCII(string(header))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// smtpTemporary classifies an error from MAIL, RCPT or DATA: 4xx replies
// and anything that is not an SMTP reply (network, timeout) are
// temporary; 5xx replies and ErrNoSMTPUTF8 are permanent.
func smtpTemporary(err error) bool {
	if errors.Is(err, ErrNoSMTPUTF8) {
		return false
	}
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		return se.Code < 500
	}
	return true
}
