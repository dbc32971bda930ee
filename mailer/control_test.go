package mailer

import (
	"errors"
	"mime"
	"net/mail"
	"strings"
	"testing"
)

// controlIn returns the first control character (other than the CRLF
// that ends header lines) in b, or -1.
func controlIn(b []byte) int {
	for i, c := range b {
		if c == '\r' && i+1 < len(b) && b[i+1] == '\n' || c == '\n' && i > 0 && b[i-1] == '\r' {
			continue
		}
		if c < ' ' || c == 0x7f {
			return i
		}
	}
	return -1
}

// No control character reaches an outgoing header, raw or hidden in an
// encoded word: free text is cleaned, structured values are refused.
func TestComposeNoControlCharacterInHeaders(t *testing.T) {
	dirty := "orders\x00 for\x07 Spring\x1b[31m\x7f\u0085é\ttab"
	o := &Outgoing{
		From:        mail.Address{Name: "GM\x00", Address: "gm@example.test"},
		To:          []mail.Address{{Name: "Ann\x00ie\x01", Address: "p@x.org"}},
		ReplyTo:     []mail.Address{{Name: "r\x00", Address: "gm+tok@example.test"}},
		Subject:     "Re: " + dirty,
		Text:        "the body may hold a NUL \x00 (it is encoded)\n",
		Headers:     []HeaderField{{"X-Pbemd-Game", "rome\x001"}},
		Attachments: []Attachment{{Filename: "map\x00.txt", ContentType: "text/plain", Data: []byte("x")}},
	}
	c, err := Compose(o)
	if err != nil {
		t.Fatal(err)
	}
	var headers []string
	for _, block := range strings.Split(string(c.Raw), "\r\n\r\n") {
		h := block
		if i := strings.Index(block, "\r\n--"); i >= 0 {
			h = block[:i] // a body ending in a boundary line
		}
		if strings.Contains(h, ": ") {
			headers = append(headers, h)
		}
	}
	if len(headers) < 2 {
		t.Fatalf("found %d header blocks in\n%s", len(headers), c.Raw)
	}
	dec := &mime.WordDecoder{}
	for _, h := range headers {
		if i := controlIn([]byte(h)); i >= 0 {
			t.Errorf("control character %q in header:\n%q", h[i], h)
		}
		decoded, err := dec.DecodeHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsFunc(strings.ReplaceAll(decoded, "\r\n", ""), isHeaderControl) {
			t.Errorf("control character behind an encoded word: %q", decoded)
		}
	}
	pm, err := ParseMail(c.Raw, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := "Re: orders for Spring [31m é tab"; pm.Subject != want {
		t.Errorf("subject %q, want %q", pm.Subject, want)
	}

	for name, edit := range map[string]func(o *Outgoing){
		"address":     func(o *Outgoing) { o.To[0].Address = "p\x00@x.org" },
		"in-reply-to": func(o *Outgoing) { o.InReplyTo = "a\x00@x" },
		"references":  func(o *Outgoing) { o.References = []string{"a@x\x1b"} },
		"envelope":    func(o *Outgoing) { o.EnvelopeFrom = "b\x7f@x.org" },
	} {
		o := &Outgoing{From: gmAddr, To: []mail.Address{{Address: "p@x.org"}}, Subject: "s", Text: "t"}
		edit(o)
		if _, err := Compose(o); !errors.Is(err, ErrBadHeader) {
			t.Errorf("%s with a control character: %v, want ErrBadHeader", name, err)
		}
	}
}
