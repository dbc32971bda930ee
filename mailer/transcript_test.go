package mailer

import (
	"bytes"
	"encoding/base64"
	"log/slog"
	"strconv"
	"strings"
	"testing"
)

func TestTranscriptRedactsCredentials(t *testing.T) {
	const user, pass = "gm@example.org", "s3cr3t-Pa55"
	plain := base64.StdEncoding.EncodeToString([]byte("\x00" + user + "\x00" + pass))
	cases := []struct {
		name  string
		lines []string
		keep  []string // must still be visible
	}{
		{"imap login", []string{"T1 LOGIN gm@example.org s3cr3t-Pa55", "T1 OK Logged in"}, []string{"T1 LOGIN", "T1 OK"}},
		{"imap login quoted", []string{`T1 LOGIN "gm@example.org" "s3cr3t-Pa55"`}, []string{"T1 LOGIN"}},
		{"imap login literal", []string{"T1 LOGIN gm@example.org {11}", "+ Ready", "s3cr3t-Pa55", "T1 OK"}, []string{"+ Ready", "T1 OK"}},
		{"imap authenticate", []string{"T1 AUTHENTICATE PLAIN " + plain, "T1 OK"}, []string{"AUTHENTICATE PLAIN"}},
		{"smtp auth plain", []string{"AUTH PLAIN " + plain, "235 2.7.0 ok"}, []string{"AUTH PLAIN", "235"}},
		{"smtp auth login", []string{"AUTH LOGIN " + base64.StdEncoding.EncodeToString([]byte(user)), "334 UGFzc3dvcmQ6", base64.StdEncoding.EncodeToString([]byte(pass)), "235 ok"}, []string{"334 UGFzc3dvcmQ6", "235 ok"}},
		{"password elsewhere", []string{"X-Debug: s3cr3t-Pa55"}, []string{"X-Debug:"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
			w := newTranscript(log, "test", user, pass)
			w.Write([]byte(strings.Join(c.lines, "\r\n") + "\r\n"))
			out := buf.String()
			for _, secret := range []string{pass, plain, base64.StdEncoding.EncodeToString([]byte(pass))} {
				if strings.Contains(out, secret) {
					t.Errorf("secret %q in transcript:\n%s", secret, out)
				}
			}
			for _, k := range c.keep {
				if !strings.Contains(out, k) {
					t.Errorf("%q missing from transcript:\n%s", k, out)
				}
			}
		})
	}
	if w := newTranscript(slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)), "x", user, pass); w != nil {
		t.Error("a transcript writer at info level: the work would be wasted")
	}
}

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
