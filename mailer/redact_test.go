package mailer

import (
	"bytes"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"testing"
)

const (
	testToken    = "k7qz2m4xw6ab3cd5ef7gh2ij4k" // 26 characters of base32, as the daemon's
	testPassword = "qx7m-k2pz"                  // a player's password, as the daemon makes them
)

// TestTranscriptLogsNoMailContent: the message data of SMTP DATA and every
// IMAP literal (a FETCHed mail) are left out of the transcript — written
// in one piece or byte by byte — and what remains passes through Redact.
func TestTranscriptLogsNoMailContent(t *testing.T) {
	mail := "From: gm@x\r\nReply-To: gm+" + testToken + "@x\r\n\r\nYour password: " + testPassword + "\r\nSIGNON england g1 " + testPassword + "\r\n"
	cases := []struct {
		name  string
		proto string
		lines []string
		keep  []string
	}{
		{"smtp data", "smtp", []string{"MAIL FROM:<gm@x>", "250 ok", "RCPT TO:<p@x>", "250 ok", "DATA", "354 go ahead", mail + ".", "250 queued"},
			[]string{"DATA", "354 go ahead", "<message data: 5 lines not logged>", "250 queued"}},
		{"smtp refused data", "smtp", []string{"DATA", "554 no", "RCPT TO:<gm+" + testToken + "@x>"}, []string{"554 no", "RCPT TO:<gm+<token>@x>"}},
		{"imap fetch", "imap", []string{"T5 UID FETCH 7 (BODY.PEEK[])", "* 1 FETCH (UID 7 BODY[] {" + strconv.Itoa(len(mail)) + "}", mail + ")", "T5 OK done"},
			[]string{"T5 UID FETCH 7", "bytes of literal data not logged", ")", "T5 OK done"}},
		{"imap envelope", "imap", []string{`* 1 FETCH (ENVELOPE ("d" "orders" (("" NIL "gm+` + testToken + `" "x")) NIL))`}, []string{"ENVELOPE", `\"gm+<token>\"`}},
		{"imap envelope with signon", "imap", []string{`* 1 FETCH (ENVELOPE ("d" "SIGNON england g1 ` + testPassword + `" (("" NIL "gm+` + testToken + `" "x")) NIL))`}, []string{"ENVELOPE", "SIGNON <redacted>"}},
		{"imap non-sync literal", "imap", []string{"T2 APPEND INBOX {" + strconv.Itoa(len(mail)) + "+}", mail, "T2 OK"}, []string{"T2 APPEND INBOX", "T2 OK"}},
	}
	for _, c := range cases {
		for _, bytewise := range []bool{false, true} {
			var buf bytes.Buffer
			log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
			w := newTranscript(log, c.proto, "gm@x", "box-password")
			data := []byte(strings.Join(c.lines, "\r\n") + "\r\n")
			if bytewise {
				for i := range data {
					w.Write(data[i : i+1])
				}
			} else {
				w.Write(data)
			}
			out := buf.String()
			for _, secret := range []string{testToken, testPassword} {
				if strings.Contains(out, secret) {
					t.Errorf("%s (bytewise %v): %q in the transcript:\n%s", c.name, bytewise, secret, out)
				}
			}
			for _, k := range c.keep {
				if !strings.Contains(out, k) {
					t.Errorf("%s (bytewise %v): %q missing:\n%s", c.name, bytewise, k, out)
				}
			}
		}
	}
}

// TestRedactingHandler: whatever a logger is given — message, strings,
// errors, groups, attributes added by With — comes out without tokens,
// passwords or configured secrets; other values are untouched.
func TestRedactingHandler(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(NewRedactingHandler(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}), "Open-Sesame-42", "xy"))
	log = log.With("to", "gm+"+testToken+"@example.org")
	log.Debug("mail for gm+"+testToken+"@x", "body", "SIGNON gm game1 Open-Sesame-42", "err", errors.New("login: password: "+testPassword),
		slog.Group("g", "reply", "Your password: "+testPassword, "token", testToken), "password", "anything", "count", 42, "note", "xy stays")
	out := buf.String()
	for _, secret := range []string{testToken, testPassword, "Open-Sesame-42"} {
		if strings.Contains(out, secret) {
			t.Errorf("%q in the log:\n%s", secret, out)
		}
	}
	for _, k := range []string{"count=42", "xy stays", "gm+<token>@example.org", "SIGNON <redacted>", "password=<redacted>"} {
		if !strings.Contains(out, k) {
			t.Errorf("%q missing from the log:\n%s", k, out)
		}
	}
}
