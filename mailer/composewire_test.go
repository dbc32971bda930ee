package mailer

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	message "github.com/emersion/go-message"
)

var boundaryRE = regexp.MustCompile(`pbemd-[0-9a-f]{30}`)

// sameBoundaries renders raw with its random boundaries numbered in order
// of appearance, so that two compositions of one mail compare equal.
func sameBoundaries(raw []byte) string {
	seen := map[string]string{}
	return boundaryRE.ReplaceAllStringFunc(string(raw), func(b string) string {
		if seen[b] == "" {
			seen[b] = fmt.Sprintf("pbemd-BOUNDARY%016d", len(seen)+1)
		}
		return seen[b]
	})
}

// wireTexts are bodies that test the transfer encodings' edges: line
// ends of every kind, lines around the 76-column quoted-printable limit
// and the 900-byte 7bit limit, blanks and "=" where a soft break falls,
// lines that SMTP or mbox treat specially, non-ASCII, controls.
func wireTexts() []string {
	texts := []string{
		"", "x", "\n", "\n\n", "a\nb", "a\nb\n", "a\r\nb\r\n", "a\rb", "a\r\r\nb", "a\n\rb\r", "\r\n", "\r",
		"From the start\nFrom \n>From quoted\n", ".\n..\n. \n.\r\n", "trailing  \n\ttab\t\nspace \r\nend ",
		"a=b\n==\n=\n=3D\n", "   \n\t\n", "Résumé: ça marche — “quotes” · ok\n", "emoji 🎲 dice\n",
		"nul \x00 byte\n", "controls \x01\x1b\x7f\n", "\xc2\xb7", "·\n·", "line\r\n\r\n\r\n",
		strings.Repeat("x", 899) + "\n", strings.Repeat("x", 900) + "\n", strings.Repeat("x", 899) + "\r\n",
		strings.Repeat("x", 900) + "\rshort\n", strings.Repeat("x", 2000), strings.Repeat("ab ", 400) + "\n",
		strings.Repeat("é", 300), strings.Repeat("=", 200), strings.Repeat(" ", 200) + "\n",
		strings.Repeat("x\n", 10) + strings.Repeat("y", 899) + "\r" + strings.Repeat("z", 899) + "\n",
	}
	for n := 70; n <= 80; n++ {
		for _, suffix := range []string{"", " ", "\t", "=", "é", " x", "  ", "= ", "é ", "·"} {
			texts = append(texts, strings.Repeat("x", n)+suffix+"\nnext line\n")
		}
		texts = append(texts, strings.Repeat("x", n)+" "+strings.Repeat("y", 80)+" \n")
	}
	return texts
}

// wireMails are the outgoing mails of the round trip and comparison
// tests: every text of wireTexts in the daemon's shape, then headers and
// parts of every kind.
func wireMails() []Outgoing {
	date := time.Date(2026, 3, 1, 18, 0, 0, 0, time.UTC)
	base := func() Outgoing {
		return Outgoing{From: gmAddr, To: []mail.Address{{Address: "p1@example.org"}}, Subject: "s", Text: "t\n",
			Date: date, MessageID: "m1@example.test"}
	}
	var out []Outgoing
	for _, text := range wireTexts() {
		o := base()
		o.Text = text
		out = append(out, o)
	}
	edit := func(f func(o *Outgoing)) {
		o := base()
		f(&o)
		out = append(out, o)
	}
	for _, s := range []string{"", "plain subject", "Ünïcödé", "[ancmed-7] Spring 451 AUC Movement — results",
		strings.Repeat("long subject words ", 8), strings.Repeat("x", 120), strings.Repeat("é", 60),
		strings.Repeat("mixed é words ", 10), "a=?b?=c", "under_score é?=", "tab\there", "ctl\x01\x1b",
		"emoji 🎲 " + strings.Repeat("🎲", 30), "=?utf-8?q?looks_encoded?=", "  spaces  around  ",
		strings.Repeat("y", 1200), "short " + strings.Repeat("z", 2100) + " end", strings.Repeat("é", 700)} {
		edit(func(o *Outgoing) { o.Subject = s })
	}
	for _, name := range []string{"pbemd game master", `quote " and \ back`, "Élise", "Müller, Hans", "a.b",
		strings.Repeat("Long Name ", 9), strings.Repeat("Ñame ", 20), "tab\tname", "x@y"} {
		edit(func(o *Outgoing) { o.From.Name = name; o.To[0].Name = name })
	}
	for _, addr := range []string{"first.last@example.org", "odd..dots@example.org", ".lead@example.org",
		"trail.@example.org", "user+tag@example.org", "ü@example.org", "a(b)@example.org", "@example.org"} {
		edit(func(o *Outgoing) { o.To[0].Address = addr })
	}
	edit(func(o *Outgoing) {
		for i := range 12 {
			o.To = append(o.To, mail.Address{Name: fmt.Sprintf("Player %d", i), Address: fmt.Sprintf("P%d@example.org", i)})
		}
		o.Cc = []mail.Address{{Address: "P1@EXAMPLE.ORG"}, {Address: "cc@example.org"}}
		o.Bcc = []mail.Address{{Address: "p2@example.org"}, {Address: "bcc@example.org"}}
		o.ReplyTo = []mail.Address{{Address: "gm+abcdefghijklmnopqrstuvwxyz@example.test"}, {Name: "GM", Address: "gm@example.test"}}
	})
	edit(func(o *Outgoing) {
		for i := range 20 {
			o.To = append(o.To, mail.Address{Address: fmt.Sprintf("p%d@example.org", i%7)})
		}
	})
	edit(func(o *Outgoing) {
		o.InReplyTo = "orig@example.org"
		o.Auto = AutoReplied
	})
	edit(func(o *Outgoing) {
		o.InReplyTo = "orig@example.org"
		o.References = []string{"r1@example.test", "orig@example.org"}
	})
	edit(func(o *Outgoing) {
		for i := range 9 {
			o.References = append(o.References, fmt.Sprintf("%x.0123456789abcdef0123@example.test", i*0x1234567))
		}
		o.InReplyTo = "CAF=x7q1+" + strings.Repeat("long", 30) + "@mail.example.org"
		o.Auto = AutoNo
	})
	edit(func(o *Outgoing) {
		o.Headers = []HeaderField{{"X-Pbemd-Game", "ancmed-7"}, {"x-pbemd-alert", "yes"}, {"LIST-ID", "ancmed-7 <ancmed-7.example.test>"},
			{"List-Unsubscribe", "<mailto:gm@example.test?subject=" + strings.Repeat("unsubscribe", 10) + ">"},
			{"X-Long", strings.Repeat("word ", 40)}, {"X-Empty", ""}, {"X-Ctl", "a\x00b\tc"}, {"X-Utf", "é"},
			{"X-A-Very-Long-Field-Name-That-Goes-On-And-On", strings.Repeat("v", 30) + " " + strings.Repeat("w", 30)}}
	})
	edit(func(o *Outgoing) { o.HTML = "<p>html · version</p>\n" })
	edit(func(o *Outgoing) { o.HTML = strings.Repeat("<p>long</p>", 100); o.Text = strings.Repeat("y", 1000) })
	png := bytes.Repeat([]byte("\x89PNG\r\n\x1a\n picture bytes "), 300)
	for _, a := range []Attachment{
		{Filename: "map.png", ContentType: "image/png", Data: png},
		{Filename: "g1-S1901M.png", ContentType: "image/png", Inline: true, Encoded: Base64Lines(png)},
		{Filename: "g1-S1901M.png", ContentType: "image/png", Inline: true, Encoded: []byte{}},
		{Filename: "état.txt", Data: []byte("x")},
		{Filename: "with space.png", ContentType: "image/png", Data: []byte{}},
		{Filename: "", ContentType: "image/png", Data: png[:57]},
		{Filename: "a\x01b.txt", ContentType: "Image/PNG", Data: png[:58]},
		{Filename: "q\"uote.txt", ContentType: "text/plain; charset=us-ascii", Data: png[:114]},
		{Filename: strings.Repeat("long-file-name-", 8) + ".png", ContentType: "image/png", Data: png[:1]},
		{Filename: "x.bin", ContentType: "application/x-foo; name=\"other\"", Data: png[:2]},
		{Filename: strings.Repeat(`"`, 494), ContentType: "image/png", Data: png[:3]}, // a field over 998 bytes
	} {
		edit(func(o *Outgoing) { o.Attachments = []Attachment{a} })
	}
	edit(func(o *Outgoing) {
		o.HTML = "<p>see the map</p>"
		o.Text = "see the map · ok\n"
		o.Attachments = []Attachment{{Filename: "map.png", ContentType: "image/png", Data: png},
			{Filename: "b.png", ContentType: "image/png", Inline: true, Encoded: []byte{}}, {Filename: "c.txt", Data: []byte("c")}}
	})
	return out
}

func composeShapesOutgoing() []Outgoing {
	var out []Outgoing
	for _, s := range composeShapes() {
		out = append(out, s.out)
	}
	return out
}

// TestComposeWireRoundTrip: every mail of wireMails is 7-bit with lines
// of at most 998 bytes, and reads back, through go-message and through
// ParseMail, as it was given: the text with CRLF line ends, the
// attachments' bytes, the header fields.
func TestComposeWireRoundTrip(t *testing.T) {
	for i, o := range wireMails() {
		c, err := Compose(&o)
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
		raw := Fill(c.Raw, c.Holes)
		for n, line := range strings.Split(string(raw), "\r\n") {
			if len(line) > 998 || strings.ContainsAny(line, "\r\n") {
				t.Fatalf("mail %d line %d: %d bytes or a bare CR/LF: %q", i, n, len(line), line)
			}
		}
		// 7-bit, but for an address or an extra field's value that is not
		// ASCII (written as it is, RFC 6532)
		eightBit := hasNonASCII(o.To[0].Address)
		for _, f := range o.Headers {
			eightBit = eightBit || hasNonASCII(f.Value)
		}
		if !eightBit {
			for _, c := range raw {
				if c >= 0x80 || c == 0 {
					t.Fatalf("mail %d: byte %#x is not 7-bit", i, c)
				}
			}
		}
		checkParts(t, i, &o, raw)

		m, err := ParseMail(raw, "")
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
		if want := normalizeText(o.Text); strings.TrimSpace(want) != "" && m.Text != want {
			t.Errorf("mail %d: text back %q, want %q", i, m.Text, want)
		}
		// ParseMail trims the subject, and decodes what looks like an
		// encoded word even when it was not one; a word of more than 998
		// bytes is cut by a blank (RFC 5322's line limit)
		gotSubject, wantSubject := strings.TrimSpace(m.Subject), strings.TrimSpace(cleanHeaderText(o.Subject))
		if slices.ContainsFunc(strings.Fields(wantSubject), func(w string) bool { return len(w) > 990 }) {
			gotSubject, wantSubject = strings.ReplaceAll(gotSubject, " ", ""), strings.ReplaceAll(wantSubject, " ", "")
		}
		if gotSubject != wantSubject && !strings.HasPrefix(o.Subject, "=?") {
			t.Errorf("mail %d: subject back %q, want %q", i, m.Subject, cleanHeaderText(o.Subject))
		}
		sameList := func(what string, got []*mail.Address, want []mail.Address) {
			t.Helper()
			var g, w []string
			for _, a := range got {
				g = append(g, a.Name+" <"+a.Address+">")
			}
			for _, a := range want {
				w = append(w, cleanHeaderText(a.Name)+" <"+a.Address+">")
			}
			if strings.Join(g, ", ") != strings.Join(w, ", ") {
				t.Errorf("mail %d: %s back %q, want %q", i, what, g, w)
			}
		}
		if strings.Count(o.To[0].Address, "@") == 1 && !strings.HasPrefix(o.To[0].Address, "@") {
			sameList("From", []*mail.Address{m.From}, []mail.Address{o.From})
			sameList("To", m.To, o.To)
			sameList("Cc", m.Cc, o.Cc)
			sameList("Reply-To", m.ReplyTo, o.ReplyTo)
		}
		refs := append([]string(nil), o.References...)
		if o.InReplyTo != "" && (len(refs) == 0 || refs[len(refs)-1] != o.InReplyTo) {
			refs = append(refs, o.InReplyTo)
		}
		if m.ID != o.MessageID || m.InReplyTo != o.InReplyTo || strings.Join(m.References, " ") != strings.Join(refs, " ") ||
			!m.Date.Equal(o.Date) || m.Auto != (o.Auto != AutoNo) {
			t.Errorf("mail %d: header back id %q in-reply-to %q references %q date %v auto %v", i, m.ID, m.InReplyTo, m.References, m.Date, m.Auto)
		}
		h := headerOf(t, raw)
		for _, f := range o.Headers {
			if got := h.Get(f.Key); got != strings.TrimSpace(cleanHeaderText(f.Value)) {
				t.Errorf("mail %d: %s back %q, want %q", i, f.Key, got, cleanHeaderText(f.Value))
			}
		}
	}
}

// checkParts reads raw with go-message: the text (and HTML) part decodes
// to the text given with CRLF line ends, each attachment to its bytes.
func checkParts(t *testing.T, i int, o *Outgoing, raw []byte) {
	t.Helper()
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("mail %d: %v", i, err)
	}
	var texts []string
	var files [][]byte
	var walk func(e *message.Entity)
	walk = func(e *message.Entity) {
		if mr := e.MultipartReader(); mr != nil {
			for {
				p, err := mr.NextPart()
				if err == io.EOF {
					return
				}
				if err != nil {
					t.Fatalf("mail %d: %v", i, err)
				}
				walk(p)
			}
		}
		body, err := io.ReadAll(e.Body)
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
		if disp, params, _ := mime.ParseMediaType(e.Header.Get("Content-Disposition")); disp != "" {
			// (a name whose field is longer than a line may be is cut by a
			// blank, as go-message did: not read back)
			want := cleanHeaderText(o.Attachments[len(files)].Filename)
			long := len("Content-Disposition: "+mime.FormatMediaType(disp, map[string]string{"filename": want})) > 998
			if params["filename"] != want && !long {
				t.Errorf("mail %d: file name %q, want %q", i, params["filename"], want)
			}
			files = append(files, body)
		} else {
			texts = append(texts, string(body))
		}
	}
	walk(e)
	want := []string{crlf(o.Text)}
	if o.HTML != "" {
		want = append(want, crlf(o.HTML))
	}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("mail %d: text parts %q, want %q", i, texts, want)
	}
	if len(files) != len(o.Attachments) {
		t.Fatalf("mail %d: %d files, want %d", i, len(files), len(o.Attachments))
	}
	for k, a := range o.Attachments {
		data := a.Data
		if a.Encoded != nil {
			var err error
			if data, err = base64.StdEncoding.DecodeString(strings.ReplaceAll(string(a.Encoded), "\r\n", "")); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(files[k], data) {
			t.Errorf("mail %d: file %d back as %d bytes, want %d", i, k, len(files[k]), len(data))
		}
	}
}

// FuzzCompose: whatever the subject, names, text, extra header and file
// name, Compose writes a mail whose text and file read back.
func FuzzCompose(f *testing.F) {
	for _, o := range wireMails() {
		filename := ""
		if len(o.Attachments) > 0 {
			filename = o.Attachments[0].Filename
		}
		f.Add(o.Subject, o.From.Name, o.Text, "x", filename)
	}
	f.Fuzz(func(t *testing.T, subject, name, text, value, filename string) {
		o := Outgoing{From: mail.Address{Name: name, Address: "gm@example.test"}, To: []mail.Address{{Address: "p1@example.org"}},
			Subject: subject, Text: text, Headers: []HeaderField{{"X-Pbemd-Game", value}}, MessageID: "m@example.test",
			Date: time.Date(2026, 3, 1, 18, 0, 0, 0, time.UTC)}
		if filename != "" {
			o.Attachments = []Attachment{{Filename: filename, ContentType: "image/png", Inline: len(filename)%2 == 0, Data: []byte(text)}}
		}
		got, err := Compose(&o)
		if err != nil {
			if !errors.Is(err, ErrBadHeader) {
				t.Fatalf("Compose: %v, want ErrBadHeader or none", err)
			}
			return
		}
		checkParts(t, 0, &o, got.Raw)
	})
}

// TestBase64Lines: Base64Lines is the standard base64 of the data in lines
// of 76 characters ended by CRLF, the last without one, for every length
// around the line's 57 bytes.
func TestBase64Lines(t *testing.T) {
	data := make([]byte, 400)
	for i := range data {
		data[i] = byte(i*151 + i>>3)
	}
	for n := 0; n <= len(data); n++ {
		enc := base64.StdEncoding.EncodeToString(data[:n])
		var want []string
		for len(enc) > 76 {
			want = append(want, enc[:76])
			enc = enc[76:]
		}
		want = append(want, enc)
		if got := string(Base64Lines(data[:n])); got != strings.Join(want, "\r\n") {
			t.Fatalf("%d bytes: %q, want %q", n, got, strings.Join(want, "\r\n"))
		}
	}
}
