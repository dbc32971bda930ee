package mailer

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// summary renders what the daemon sees of a mail, one field a line.
func summary(m *Mail) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ID: %s\n", m.ID)
	fmt.Fprintf(&b, "MessageID: %s\n", m.MessageID)
	if m.From != nil {
		fmt.Fprintf(&b, "From: %q <%s>\n", m.From.Name, m.From.Address)
	}
	for _, a := range m.ReplyTo {
		fmt.Fprintf(&b, "Reply-To: %q <%s>\n", a.Name, a.Address)
	}
	for _, a := range m.To {
		fmt.Fprintf(&b, "To: %q <%s>\n", a.Name, a.Address)
	}
	for _, a := range m.Cc {
		fmt.Fprintf(&b, "Cc: %q <%s>\n", a.Name, a.Address)
	}
	for _, a := range m.DeliveredTo {
		fmt.Fprintf(&b, "Delivered-To: %s\n", a)
	}
	fmt.Fprintf(&b, "Token: %s\n", m.Token)
	fmt.Fprintf(&b, "Subject: %s\n", m.Subject)
	if !m.Date.IsZero() {
		fmt.Fprintf(&b, "Date: %s\n", m.Date.UTC().Format(time.RFC3339))
	}
	fmt.Fprintf(&b, "In-Reply-To: %s\n", m.InReplyTo)
	fmt.Fprintf(&b, "References: %s\n", strings.Join(m.References, " "))
	fmt.Fprintf(&b, "Return-Path: %s\n", m.ReturnPath)
	fmt.Fprintf(&b, "Bounce: %v  Auto: %v  NoReply: %v  Reason: %s\n", m.Bounce, m.Auto, m.NoReply(), m.LoopReason)
	fmt.Fprintf(&b, "FromHTML: %v  UnknownCharset: %s\n", m.TextFromHTML, m.UnknownCharset)
	fmt.Fprintf(&b, "Text:\n%s\n", m.Text)
	return b.String()
}

// TestParseMailShapes parses every sample in testdata/mail, with LF and
// with CRLF line ends, and compares what the daemon would see with the
// .golden file next to it (go test -run TestParseMailShapes -update
// rewrites them; review the diff).
func TestParseMailShapes(t *testing.T) {
	files, err := filepath.Glob("testdata/mail/*.eml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".eml")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			lf := bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n"))
			crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
			mLF, err := ParseMail(lf, "gm@example.test")
			if err != nil {
				t.Fatal(err)
			}
			mCRLF, err := ParseMail(crlf, "gm@example.test")
			if err != nil {
				t.Fatal(err)
			}
			got := summary(mLF)
			// the hash id of a mail without Message-ID depends on its bytes
			if g2 := summary(mCRLF); strings.ReplaceAll(g2, mCRLF.ID, mLF.ID) != got {
				t.Errorf("LF and CRLF versions differ:\nLF:\n%s\nCRLF:\n%s", got, g2)
			}
			golden := strings.TrimSuffix(file, ".eml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("summary differs from %s:\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}
