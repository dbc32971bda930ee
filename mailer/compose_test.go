package mailer

import (
	"bufio"
	"bytes"
	"errors"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/textproto"
)

var gmAddr = mail.Address{Name: "pbemd game master", Address: "gm@example.test"}

func headerOf(t *testing.T, raw []byte) textproto.Header {
	t.Helper()
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestComposeRoundTrip(t *testing.T) {
	date := time.Date(2026, 3, 1, 18, 0, 0, 0, time.UTC)
	cases := []struct {
		name      string
		out       Outgoing
		wantText  string
		wantParts []string // substrings the raw mail must contain
	}{
		{
			name: "plain ascii",
			out: Outgoing{From: gmAddr, To: []mail.Address{{Address: "p1@example.org"}}, Subject: "[ancmed-7] Spring 451 AUC Movement",
				Text: "Your orders:\nA Rom - Nea\n", Date: date},
			wantText:  "Your orders:\nA Rom - Nea",
			wantParts: []string{"Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 7bit", "Auto-Submitted: auto-generated", "Date: Sun, 01 Mar 2026 18:00:00 +0000"},
		},
		{
			name: "utf-8 subject and names",
			out: Outgoing{From: mail.Address{Name: "Spielleiter Größe", Address: "gm@example.test"}, To: []mail.Address{{Name: "Élise", Address: "e@example.org"}},
				Subject: "[ancmed-7] Spring 451 AUC Movement — results", Text: "Résultats: ça marche\n", Date: date},
			wantText:  "Résultats: ça marche",
			wantParts: []string{"Subject: =?utf-8?", "Content-Transfer-Encoding: quoted-printable"},
		},
		{
			name: "html alternative",
			out: Outgoing{From: gmAddr, To: []mail.Address{{Address: "p1@example.org"}}, Subject: "map",
				Text: "plain version\n", HTML: "<p>html version</p>", Date: date},
			wantText:  "plain version",
			wantParts: []string{"multipart/alternative", "text/html; charset=utf-8", "<p>html version</p>"},
		},
		{
			name: "attachments",
			out: Outgoing{From: gmAddr, To: []mail.Address{{Address: "p1@example.org"}}, Subject: "map",
				Text: "see the map\n", HTML: "<p>see the map</p>", Date: date,
				Attachments: []Attachment{{Filename: "map.png", ContentType: "image/png", Data: []byte("\x89PNG")}, {Filename: "état.txt", Data: []byte("x")}}},
			wantText:  "see the map",
			wantParts: []string{"multipart/mixed", "multipart/alternative", "image/png; name=map.png", "Content-Disposition: attachment; filename=map.png", "iVBORw==", "filename*=utf-8''%C3%A9tat.txt"},
		},
		{
			name: "auto-replied acknowledgement threads",
			out: Outgoing{From: gmAddr, To: []mail.Address{{Address: "p1@example.org"}}, Subject: "Re: orders", Text: "ok\n", Auto: AutoReplied,
				InReplyTo: "orig@example.org", References: []string{"r1@example.test", "r2@example.test"}, Date: date},
			wantText:  "ok",
			wantParts: []string{"Auto-Submitted: auto-replied", "In-Reply-To: <orig@example.org>", "References: <r1@example.test> <r2@example.test> <orig@example.org>"},
		},
		{
			name: "long line",
			out: Outgoing{From: gmAddr, To: []mail.Address{{Address: "p1@example.org"}}, Subject: "long",
				Text: strings.Repeat("x", 2000) + "\n", Date: date},
			wantText:  strings.Repeat("x", 2000),
			wantParts: []string{"Content-Transfer-Encoding: quoted-printable", "=\r\n"},
		},
		{
			name: "extra headers",
			out: Outgoing{From: gmAddr, To: []mail.Address{{Address: "p1@example.org"}}, Subject: "x", Text: "x", Date: date,
				ReplyTo: []mail.Address{{Address: "gm+tok@example.test"}}, Headers: []HeaderField{{"X-Pbemd-Game", "ancmed-7"}, {"List-Id", "ancmed-7 <ancmed-7.example.test>"}}},
			wantText:  "x",
			wantParts: []string{"X-Pbemd-Game: ancmed-7\r\n", "List-Id: ancmed-7 <ancmed-7.example.test>\r\n", "Reply-To: <gm+tok@example.test>"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			composed, err := Compose(&c.out)
			if err != nil {
				t.Fatal(err)
			}
			raw := string(composed.Raw)
			for _, part := range c.wantParts {
				if !strings.Contains(raw, part) {
					t.Errorf("raw mail lacks %q:\n%s", part, raw)
				}
			}
			if strings.Contains(strings.ReplaceAll(raw, "\r\n", ""), "\n") {
				t.Error("bare LF in the composed mail")
			}
			m, err := ParseMail(composed.Raw, "")
			if err != nil {
				t.Fatal(err)
			}
			if m.Text != c.wantText {
				t.Errorf("text back = %q, want %q", m.Text, c.wantText)
			}
			if m.Subject != c.out.Subject || m.From.Name != c.out.From.Name || m.From.Address != c.out.From.Address {
				t.Errorf("header back: subject %q from %q <%s>", m.Subject, m.From.Name, m.From.Address)
			}
			if m.ID != composed.MessageID || !strings.HasSuffix(composed.MessageID, "@example.test") {
				t.Errorf("Message-ID %q, parsed %q", composed.MessageID, m.ID)
			}
			if !m.Date.Equal(date) {
				t.Errorf("date back %v", m.Date)
			}
			if c.out.Auto != AutoNo && !m.Auto {
				t.Error("our own mail would not be recognised as automatic")
			}
		})
	}
}

func TestComposeEnvelope(t *testing.T) {
	c, err := Compose(&Outgoing{From: gmAddr, To: []mail.Address{{Address: "a@x.org"}, {Address: "B@x.org"}}, Cc: []mail.Address{{Address: "b@x.org"}},
		Bcc: []mail.Address{{Address: "secret@x.org"}}, Subject: "s", Text: "t", EnvelopeFrom: "<>", MessageID: "fixed@example.test"})
	if err != nil {
		t.Fatal(err)
	}
	if c.EnvelopeFrom != "" || strings.Join(c.Recipients, " ") != "a@x.org B@x.org secret@x.org" || c.MessageID != "fixed@example.test" {
		t.Fatalf("envelope %+v", c)
	}
	h := headerOf(t, c.Raw)
	if h.Has("Bcc") || strings.Contains(string(c.Raw), "secret@") {
		t.Fatal("Bcc leaked into the header")
	}
	if h.Get("Message-Id") != "<fixed@example.test>" {
		t.Fatalf("Message-Id %q", h.Get("Message-Id"))
	}
	d, _ := Compose(&Outgoing{From: gmAddr, To: []mail.Address{{Address: "a@x.org"}}, Subject: "s", Text: "t"})
	if d.EnvelopeFrom != gmAddr.Address {
		t.Fatalf("default envelope from %q", d.EnvelopeFrom)
	}
}

func TestComposeRefusesHeaderInjection(t *testing.T) {
	base := func() Outgoing {
		return Outgoing{From: gmAddr, To: []mail.Address{{Address: "p@x.org"}}, Subject: "s", Text: "t"}
	}
	cases := map[string]func(o *Outgoing){
		"subject CRLF":        func(o *Outgoing) { o.Subject = "hi\r\nBcc: victim@x.org" },
		"subject LF":          func(o *Outgoing) { o.Subject = "hi\nX: y" },
		"subject CR":          func(o *Outgoing) { o.Subject = "hi\rX: y" },
		"from name":           func(o *Outgoing) { o.From.Name = "GM\r\nBcc: v@x.org" },
		"to address":          func(o *Outgoing) { o.To[0].Address = "p@x.org\r\nBcc: v@x.org" },
		"to address not one":  func(o *Outgoing) { o.To[0].Address = "p@x.org, v@x.org" },
		"reply-to name":       func(o *Outgoing) { o.ReplyTo = []mail.Address{{Name: "a\nb", Address: "r@x.org"}} },
		"cc":                  func(o *Outgoing) { o.Cc = []mail.Address{{Address: "c@x.org\n"}} },
		"bcc":                 func(o *Outgoing) { o.Bcc = []mail.Address{{Address: "\rc@x.org"}} },
		"in-reply-to":         func(o *Outgoing) { o.InReplyTo = "a@x\r\nX: y" },
		"in-reply-to bracket": func(o *Outgoing) { o.InReplyTo = "<a@x>" },
		"references":          func(o *Outgoing) { o.References = []string{"ok@x", "bad@x\nX: y"} },
		"message-id":          func(o *Outgoing) { o.MessageID = "m@x\r\n" },
		"hostname":            func(o *Outgoing) { o.Hostname = "h\r\nX: y" },
		"extra value":         func(o *Outgoing) { o.Headers = []HeaderField{{"X-Game", "g\r\nBcc: v@x.org"}} },
		"extra key":           func(o *Outgoing) { o.Headers = []HeaderField{{"X-Game\r\nBcc", "v"}} },
		"extra key colon":     func(o *Outgoing) { o.Headers = []HeaderField{{"X:Game", "v"}} },
		"extra key space":     func(o *Outgoing) { o.Headers = []HeaderField{{"X Game", "v"}} },
		"extra key too long":  func(o *Outgoing) { o.Headers = []HeaderField{{"X-" + strings.Repeat("k", 80), "v w"}} },
		"managed header":      func(o *Outgoing) { o.Headers = []HeaderField{{"Subject", "other"}} },
		"managed header case": func(o *Outgoing) { o.Headers = []HeaderField{{"bcc", "v@x.org"}} },
		"attachment filename": func(o *Outgoing) { o.Attachments = []Attachment{{Filename: "a\r\n.txt"}} },
		"attachment type":     func(o *Outgoing) { o.Attachments = []Attachment{{ContentType: "text/plain\r\nX: y"}} },
		"envelope from":       func(o *Outgoing) { o.EnvelopeFrom = "a@x.org\r\nRCPT TO:<v@x.org>" },
		"auto value":          func(o *Outgoing) { o.Auto = "auto-generated\r\nX: y" },
		"invalid utf-8":       func(o *Outgoing) { o.Subject = "\xff" },
	}
	for name, edit := range cases {
		t.Run(name, func(t *testing.T) {
			o := base()
			edit(&o)
			c, err := Compose(&o)
			if !errors.Is(err, ErrBadHeader) {
				t.Fatalf("Compose = %v, %v; want ErrBadHeader", c, err)
			}
		})
	}
	t.Run("body may contain anything", func(t *testing.T) {
		o := base()
		o.Text = "line\r\nBcc: not a header\r\n.\r\n"
		if _, err := Compose(&o); err != nil {
			t.Fatal(err)
		}
	})
}

func TestComposeNeedsFromAndRecipient(t *testing.T) {
	if _, err := Compose(&Outgoing{To: []mail.Address{{Address: "p@x.org"}}, Text: "t"}); err == nil {
		t.Error("no From accepted")
	}
	if _, err := Compose(&Outgoing{From: gmAddr, Text: "t"}); err == nil {
		t.Error("no recipient accepted")
	}
}
