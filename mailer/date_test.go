package mailer

import (
	"net/mail"
	"testing"
	"time"
)

// TestParseDateAgreesWithNetMail: the Date header of a mail reads as
// net/mail reads it, for the RFC 5322 form parseDate takes first and the
// forms it leaves to net/mail, and the date is the same instant in the
// same zone offset.
func TestParseDateAgreesWithNetMail(t *testing.T) {
	fast := 0
	for _, v := range []string{
		"Mon, 02 Jan 2006 15:04:05 -0700",
		"Tue, 01 Dec 2026 23:59:59 +0000",
		"Wed, 31 Dec 2025 00:00:00 +1345",
		"Sun, 29 Feb 2004 12:00:00 -0000",
		"Fri, 13 Mar 2026 08:30:00 +0100",
		"Mon, 2 Jan 2006 15:04:05 -0700",
		"2 Jan 2006 15:04:05 -0700",
		"Mon, 02 Jan 2006 15:04 -0700",
		"Mon, 02 Jan 2006 15:04:05 MST",
		"Mon, 02 Jan 2006 15:04:05 -0700 (PDT)",
		"Thu, 20 Nov 1997 09:55:06 MDT",
		"Mon, 02 Jan 06 15:04:05 -0700",
	} {
		want, err := mail.ParseDate(v)
		if err != nil {
			t.Fatalf("%q: net/mail: %v", v, err)
		}
		if _, err := time.Parse(time.RFC1123Z, v); err == nil {
			fast++
		}
		got := parseDate(v)
		_, gotOff := got.Zone()
		_, wantOff := want.Zone()
		if !got.Equal(want) || gotOff != wantOff {
			t.Errorf("%q: %v, net/mail %v", v, got, want)
		}
	}
	if fast < 5 {
		t.Errorf("only %d dates took the RFC 1123 path", fast)
	}
}

// TestHeaderReadAgainFromRaw: Mail.Header gives the fields of the header
// as parsed, whether it is read again from Raw (a sound header) or kept
// (one read again without its broken lines).
func TestHeaderReadAgainFromRaw(t *testing.T) {
	sound := "From: a@example.org\r\nX-Game: one\r\nX-Game: two\r\nSubject: =?utf-8?q?caf=C3=A9?=\r\n\r\nA Par H\r\n"
	broken := "From: a@example.org\r\nthis line is broken\r\nX-Game: one\r\n\r\nA Par H\r\n"
	for _, raw := range []string{sound, broken} {
		m, err := ParseMail([]byte(raw), "gm@example.org")
		if err != nil {
			t.Fatal(err)
		}
		if m.headerFromRaw != (raw == sound) {
			t.Errorf("%q: read again from Raw %v", raw, m.headerFromRaw)
		}
		if got := m.Header("x-game"); got != "one" {
			t.Errorf("%q: X-Game %q, want the first, one", raw, got)
		}
		if got := m.Header("Missing"); got != "" {
			t.Errorf("%q: a missing field reads %q", raw, got)
		}
	}
	m, _ := ParseMail([]byte(sound), "")
	if got := m.Header("Subject"); got != "café" {
		t.Errorf("Subject %q, want café", got)
	}
}
