package mailer

import (
	"bytes"
	"encoding/base64"
	"log/slog"
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
