package server

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/textproto"

	"pbemd/daemon/daemontest"
	"pbemd/mailer"
)

// rawMail writes a mail to gm@example.test as a mail program would;
// extra are whole header lines.
func rawMail(from, subject, msgid string, extra ...string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: gm@example.test\r\nSubject: %s\r\nMessage-ID: %s\r\nDate: Sun, 6 Dec 2026 21:00:00 +0000\r\n", from, subject, msgid)
	for _, l := range extra {
		b.WriteString(l + "\r\n")
	}
	b.WriteString("Content-Type: text/plain; charset=utf-8\r\n\r\nHELP\r\n")
	return []byte(b.String())
}

// in parses raw as the fetcher does and hands it to the daemon of tb.
func in(tb *daemontest.Table, raw []byte) error {
	tb.T.Helper()
	m, err := mailer.ParseMail(raw, daemontest.Address)
	if err != nil {
		tb.T.Fatalf("ParseMail: %v", err)
	}
	return tb.D.HandleMail(context.Background(), IncomingFromMail(m))
}

// Mail from lists, robots and out-of-office replies is never answered,
// however it is marked; the same mail from a person is.
func TestLoopMailIsNeverAnswered(t *testing.T) {
	tb := daemontest.New(t)
	cases := []struct {
		name, from, subject string
		extra               []string
	}{
		{"List-Id only", "club@lists.example.org", "[club] digest", []string{"List-Id: Dip club <club.lists.example.org>"}},
		{"List-Unsubscribe only", "news@shop.example.com", "offers", []string{"List-Unsubscribe: <mailto:u@shop.example.com>"}},
		{"List-Post only", "club@lists.example.org", "[club] hello", []string{"List-Post: <mailto:club@lists.example.org>"}},
		{"postmaster", "Postmaster <postmaster@mx.example.net>", "Undeliverable: HELP", nil},
		{"mailer-daemon", "MAILER-DAEMON@mx.example.net", "failure notice", nil},
		{"noreply", "noreply@service.example.com", "your account", nil},
		{"no-reply with a tag", "No-Reply+alerts@service.example.com", "alert", nil},
		{"do-not-reply", "do-not-reply@bank.example.com", "statement", nil},
		{"donotreply", "DoNotReply@bank.example.com", "statement", nil},
		{"X-Auto-Response-Suppress: All", "anna@corp.example.com", "Re: HELP", []string{"X-Auto-Response-Suppress: All"}},
		{"X-Auto-Response-Suppress: OOF", "bert@corp.example.com", "Re: HELP", []string{"X-Auto-Response-Suppress: DR, OOF"}},
		{"Out of Office subject", "carl@corp.example.com", "Out of Office: Re: HELP", nil},
		{"Automatic reply subject", "dora@corp.example.com", "Automatic reply: HELP", nil},
		{"Autoreply subject", "emil@corp.example.com", "Autoreply", nil},
		{"Abwesenheitsnotiz subject", "fritz@firma.example.de", "Abwesenheitsnotiz: HELP", nil},
		{"Automatische Antwort subject", "gerd@firma.example.de", "=?utf-8?q?Automatische_Antwort=3A_HELP?=", nil},
		{"Absence subject", "hugo@societe.example.fr", "Absence : Re: HELP", nil},
		{"Réponse automatique subject", "ines@societe.example.fr", "=?utf-8?q?R=C3=A9ponse_automatique_=3A_HELP?=", nil},
		{"Respuesta automática subject", "juan@empresa.example.es", "=?utf-8?q?Respuesta_autom=C3=A1tica=3A_HELP?=", nil},
		{"Japanese subject", "kenji@kaisha.example.jp", "=?utf-8?b?6Ieq5YuV6L+U5L+hOiBIRUxQ?=", nil},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := in(tb, rawMail(c.from, c.subject, fmt.Sprintf("<loop-%d@example.net>", i), c.extra...)); err != nil {
				t.Fatal(err)
			}
			if out := tb.Outbox(); len(out) != 0 {
				t.Fatalf("%d mails out, first to %s: %q", len(out), out[0].To, out[0].Subject)
			}
		})
	}
	// the same kind of mail from people is answered: the test can fail
	for i, c := range []struct{ from, subject string }{
		{"lena@corp.example.com", "HELP"},
		{"mona@corp.example.com", "Out of office next week, my orders below"},
		{"nina@corp.example.com", "Absence"},
		{"otto@corp.example.com", "Re: automatic replies are a pest"},
	} {
		if err := in(tb, rawMail(c.from, c.subject, fmt.Sprintf("<person-%d@example.net>", i))); err != nil {
			t.Fatal(err)
		}
		daemontest.One(t, tb.Outbox(), c.from, "")
	}
}

// headerBlock is the raw header of a composed mail.
func headerBlock(raw []byte) []byte {
	if i := bytes.Index(raw, []byte("\r\n\r\n")); i >= 0 {
		return raw[:i+2]
	}
	return raw
}

// A CR/LF hidden in an encoded Subject, a space in a Message-ID, control
// characters in the Subject and broken header lines neither make the mail
// fail (and be set aside after three tries) nor reach the reply's header.
func TestDamagedHeadersAreNormalisedOnTheWayIn(t *testing.T) {
	tb := daemontest.New(t)
	cases := []struct {
		name, from string
		raw        []byte
		inReplyTo  string
	}{
		{"CR/LF in an encoded subject, spaces in ids", "bob@example.org",
			rawMail("Bob <bob@example.org>", "=?utf-8?q?orders=0D=0ABcc:_victim@example.net?=", "<bob 42@example.org>",
				"References: <first@example.test> <report 7@example.test>"), "bob42@example.org"},
		{"NUL and other controls in the subject", "carol@example.org",
			rawMail("carol@example.org", "orders\x00 now\x07 =?utf-8?q?and=00_=1B[31m_red?=", "<carol-1@example.org>"), "carol-1@example.org"},
		{"header lines that are not fields", "dave@example.org",
			[]byte(" From: dave@example.org\r\nTo: gm@example.test\r\nnot a header line\r\nSub ject: x\r\nSubject: orders\r\nMessage-ID: <dave-1@example.org>\r\n\r\nHELP\r\n"), "dave-1@example.org"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := in(tb, c.raw); err != nil {
				t.Fatalf("the mail failed (it would be set aside after three tries): %v", err)
			}
			out := tb.Outbox()
			r := daemontest.One(t, out, c.from, "")
			if len(out) != 1 {
				t.Fatalf("%d mails out; want the one reply", len(out))
			}
			hdr := headerBlock(r.Parsed.Raw)
			for i, b := range hdr {
				if (b < ' ' && b != '\r' && b != '\n') || b == 0x7f || b == '\r' && (i+1 >= len(hdr) || hdr[i+1] != '\n') {
					t.Fatalf("control byte %#x in the reply's header:\n%q", b, hdr)
				}
			}
			th, err := textproto.ReadHeader(bufioReader(hdr))
			if err != nil {
				t.Fatal(err)
			}
			if th.Has("Bcc") || th.Get("To") != "<"+c.from+">" {
				t.Fatalf("reply header To %q, Bcc %q", th.Get("To"), th.Get("Bcc"))
			}
			if got := th.Get("In-Reply-To"); got != "<"+c.inReplyTo+">" {
				t.Errorf("In-Reply-To %q, want <%s>", got, c.inReplyTo)
			}
			if strings.ContainsFunc(r.Subject, func(r rune) bool { return r < ' ' || r == 0x7f }) {
				t.Errorf("reply subject %q", r.Subject)
			}
		})
	}
}

// The fetcher's poison path reaches the sender too: a short answer that
// the mail could not be read, once a day, and the GM hears whether the
// sender was told.
func TestE2EPoisonedMailTellsTheSender(t *testing.T) {
	e := newE2E(t)
	e.next(e2eGM, "Welcome")
	raw := rawMail("Paul <paul@pbemd.localhost>", "my orders", "<paul-1@pbemd.localhost>")
	m, err := mailer.ParseMail(raw, "gm@pbemd.localhost")
	if err != nil {
		t.Fatal(err)
	}
	e.srv.poisoned(context.Background(), mailer.Poisoned{Mail: m, Failures: 3, Err: fmt.Errorf("engine failed")})
	got := e.next("paul@pbemd.localhost", "Re: my orders")
	mustContain(t, got.Text, "could not read your mail", "send your orders again")
	if got.InReplyTo != "paul-1@pbemd.localhost" {
		t.Errorf("In-Reply-To %q", got.InReplyTo)
	}
	mustContain(t, e.next(e2eGM, "A mail was set aside").Text, "paul@pbemd.localhost", "The sender was told")

	// a second one the same day (after the quarter hour between alerts
	// of a kind): the GM hears of it, the sender does not
	e.clock.Add(16 * time.Minute)
	m2, _ := mailer.ParseMail(rawMail("paul@pbemd.localhost", "again", "<paul-2@pbemd.localhost>"), "gm@pbemd.localhost")
	e.srv.poisoned(context.Background(), mailer.Poisoned{Mail: m2, Failures: 3, Err: fmt.Errorf("engine failed")})
	mustContain(t, e.next(e2eGM, "A mail was set aside").Text, "not answered")
	e.quiet("paul@pbemd.localhost", "Re:")

	// a robot is never told
	e.clock.Add(16 * time.Minute)
	bot, _ := mailer.ParseMail(rawMail("noreply@pbemd.localhost", "x", "<bot-1@pbemd.localhost>"), "gm@pbemd.localhost")
	e.srv.poisoned(context.Background(), mailer.Poisoned{Mail: bot, Failures: 3, Err: fmt.Errorf("x")})
	e.next(e2eGM, "A mail was set aside")
	e.quiet("noreply@pbemd.localhost", "Re:")

	// nor are we
	e.clock.Add(16 * time.Minute)
	self, _ := mailer.ParseMail(rawMail("gm+x@pbemd.localhost", "x", "<self-1@pbemd.localhost>"), "gm@pbemd.localhost")
	e.srv.poisoned(context.Background(), mailer.Poisoned{Mail: self, Failures: 3, Err: fmt.Errorf("x")})
	mustContain(t, e.next(e2eGM, "A mail was set aside").Text, "not answered")
}

func bufioReader(b []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(b)) }
