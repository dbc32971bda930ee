package mailserver

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"golang.org/x/crypto/bcrypt"
)

const (
	testDomain = "example.test"
	gm         = "gm@" + testDomain
	master     = "master@" + testDomain
)

// testLogger logs to t.Log, at debug level when -v is given.
func testLogger(t testing.TB) *slog.Logger {
	level := slog.LevelInfo
	if testing.Verbose() {
		level = slog.LevelDebug
	}
	w := &tWriter{t: t}
	t.Cleanup(func() { w.done.Store(true) })
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// tWriter sends log lines to t.Log until the test is over (a server
// goroutine may still log while it shuts down).
type tWriter struct {
	t    testing.TB
	done atomic.Bool
}

func (w *tWriter) Write(p []byte) (int, error) {
	if !w.done.Load() {
		w.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

// testConfig is a server on 127.0.0.1:0 with gm@ and p1@ configured,
// memory only unless stateFile is set, and cheap hashing.
func testConfig(stateFile string) Config {
	return Config{
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: testDomain, StateFile: stateFile,
		Accounts: []Account{{Address: gm, Password: "gmpass"}, {Address: "p1@" + testDomain, Password: "p1pass"}},
		HashCost: bcrypt.MinCost,
	}
}

// start starts a server, stopped at the end of the test.
func start(t testing.TB, cfg Config) *Server {
	t.Helper()
	srv, err := Start(cfg, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func startServer(t testing.TB, stateFile string) *Server {
	t.Helper()
	return start(t, testConfig(stateFile))
}

func tempPath(t testing.TB, name string) string { return filepath.Join(t.TempDir(), name) }

var mailSeq atomic.Int64

// rawMail is a small mail as a mail client writes it.
func rawMail(from, to, subject, body string) []byte {
	n := mailSeq.Add(1)
	return fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <m%d@%s>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		from, to, subject, time.Now().Format(time.RFC1123Z), n, testDomain, strings.ReplaceAll(body, "\n", "\r\n"))
}

// testMail is a mail with its envelope.
type testMail struct {
	from string
	to   []string
	raw  []byte
}

// mailTo is a small mail from one address to another.
func mailTo(from, to, subject, body string) testMail {
	return testMail{from, []string{to}, rawMail(from, to, subject, body)}
}

// orderMail is a small order mail from p1 to gm+token.
func orderMail(i int, token string) testMail {
	from := "p1@" + testDomain
	rcpt := "gm+" + token + "@" + testDomain
	return testMail{from, []string{rcpt}, rawMail("Player One <"+from+">", rcpt, fmt.Sprintf("orders %d", i), fmt.Sprintf("A PAR - BUR\nF BRE - MAO\n# mail %d", i))}
}

func deliver(t testing.TB, srv *Server, m testMail) {
	t.Helper()
	if err := srv.Deliver(m.from, m.to, m.raw); err != nil {
		t.Fatal(err)
	}
}

func dialIMAP(t testing.TB, srv *Server, user, pass string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatalf("login %s: %v", user, err)
	}
	return c
}

// imapLoginErr tries an IMAP LOGIN and returns its error.
func imapLoginErr(t testing.TB, srv *Server, user, pass string) error {
	t.Helper()
	c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.Login(user, pass).Wait()
}

// imapAuthErr tries AUTHENTICATE PLAIN and returns its error.
func imapAuthErr(t testing.TB, srv *Server, user, pass string) error {
	t.Helper()
	c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.Authenticate(sasl.NewPlainClient("", user, pass))
}

// smtpAuthErr tries SMTP AUTH PLAIN and returns its error.
func smtpAuthErr(t testing.TB, srv *Server, user, pass string) error {
	t.Helper()
	c, err := smtp.Dial(srv.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.test"); err != nil {
		t.Fatal(err)
	}
	return c.Auth(sasl.NewPlainClient("", user, pass))
}

// sendSMTP sends raw over SMTP without AUTH, with SIZE= when size > 0,
// and returns the first error of the transaction.
func sendSMTP(t testing.TB, srv *Server, from string, to []string, raw []byte, size int64) error {
	t.Helper()
	var opts *smtp.MailOptions
	if size > 0 {
		opts = &smtp.MailOptions{Size: size}
	}
	return sendSMTPWith(t, srv, from, to, raw, opts)
}

// sendSMTPWith is sendSMTP with the MAIL FROM parameters opts (nil: none).
func sendSMTPWith(t testing.TB, srv *Server, from string, to []string, raw []byte, opts *smtp.MailOptions) error {
	t.Helper()
	c, err := smtp.Dial(srv.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.test"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Extension("SMTPUTF8"); !ok && opts != nil && opts.UTF8 {
		t.Fatal("EHLO does not offer SMTPUTF8")
	}
	if err := c.Mail(from, opts); err != nil {
		return err
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt, nil); err != nil {
			return err
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(raw); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// smtpCode is the reply code and enhanced code of an SMTP error ("" when
// err is not one).
func smtpCode(err error) string {
	if se, ok := err.(*smtp.SMTPError); ok {
		return fmt.Sprintf("%d %d.%d.%d", se.Code, se.EnhancedCode[0], se.EnhancedCode[1], se.EnhancedCode[2])
	}
	return ""
}

// mailboxState lists the UIDs and flags of a mailbox, from memory.
func mailboxState(t testing.TB, srv *Server, addr, name string) (uids []uint32, flags map[uint32][]imap.Flag) {
	t.Helper()
	srv.store.mu.Lock()
	defer srv.store.mu.Unlock()
	u := srv.store.userLocked(addr)
	if u == nil {
		t.Fatalf("no account %s", addr)
	}
	mb := u.mailboxes[mailboxKey(name)]
	if mb == nil {
		return nil, nil
	}
	flags = map[uint32][]imap.Flag{}
	for _, m := range mb.msgs {
		uids = append(uids, m.uid)
		flags[m.uid] = slices.Clone(m.flags)
	}
	return uids, flags
}

func hasFlag(fs []imap.Flag, f imap.Flag) bool { return slices.Contains(fs, f) }

// fetchBodies reads every message of a mailbox over IMAP (BODY.PEEK[]).
func fetchBodies(t testing.TB, c *imapclient.Client, mailbox string) [][]byte {
	t.Helper()
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	fetch := c.Fetch(imap.SeqSet{imap.SeqRange{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}})
	var out [][]byte
	for {
		m := fetch.Next()
		if m == nil {
			break
		}
		buf, err := m.Collect()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, buf.BodySection[0].Bytes)
	}
	if err := fetch.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}
