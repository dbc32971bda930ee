package server

import (
	"strings"
	"testing"

	"github.com/emersion/go-smtp"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
)

// sendRaw delivers a whole mail as written, headers and all.
func (e *e2e) sendRaw(from, to, raw string) {
	e.t.Helper()
	c, err := smtp.Dial(e.srv.Mail.SMTPAddr())
	if err != nil {
		e.t.Fatal(err)
	}
	defer c.Close()
	if err := c.SendMail(from, []string{to}, strings.NewReader(strings.ReplaceAll(raw, "\n", "\r\n"))); err != nil {
		e.t.Fatal(err)
	}
}

// TestE2EWorldReplies: replies as mail clients in other languages shape
// them reach the daemon through real SMTP and IMAP and are read as typed:
// an HTML-only Gmail reply in Polish whose orders are a table, in
// ISO-8859-2 and quoted-printable, above the quoted acknowledgement; and a
// mail in a character set no decoder knows is answered in words.
func TestE2EWorldReplies(t *testing.T) {
	e := newE2E(t)
	_, pl := e.standardGame("swiat")
	ger := pl["germany"]
	e.send(ger.addr, tokenAddr(ger.token), "A Mun H\nF Kie - Den\nA Ber - Pru")
	ack := e.next(ger.addr, "Re:")
	mustContain(t, ack.Text, "A Mun H", "F Kie - Den")

	latin2, err := encoding.ReplaceUnsupported(charmap.ISO8859_2.NewEncoder()).String("<div dir=\"ltr\"><table><tr><td>A Mun</td><td>-</td><td>Ruh</td></tr>" +
		"<tr><td>F Kie</td><td>-</td><td>Hol</td></tr></table><div>Pozdrawiam,</div><div>Kasia Wiśniewska</div></div><br>" +
		"<div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">pon., 7 gru 2026 o 14:01 pbemd game master &lt;gm@pbemd.localhost&gt; napisał(a):<br></div>" +
		"<blockquote class=\"gmail_quote\">" + strings.ReplaceAll(ack.Text, "\n", "<br>") + "</blockquote></div>")
	if err != nil {
		t.Fatal(err)
	}
	var qp strings.Builder
	for _, b := range []byte(latin2) {
		switch {
		case b == '=' || b >= 0x80:
			qp.WriteString("=" + strings.ToUpper(string("0123456789abcdef"[b>>4])+string("0123456789abcdef"[b&15])))
		default:
			qp.WriteByte(b)
		}
		if qp.Len()%70 == 69 {
			qp.WriteString("=\n")
		}
	}
	e.sendRaw(ger.addr, tokenAddr(ger.token), "From: Kasia <"+ger.addr+">\nTo: "+tokenAddr(ger.token)+"\nSubject: Re: "+ack.Subject+
		"\nMessage-ID: <pl-1@example.pl>\nMIME-Version: 1.0\nContent-Type: text/html; charset=\"iso-8859-2\"\nContent-Transfer-Encoding: quoted-printable\n\n"+qp.String()+"\n")
	got := e.next(ger.addr, "Re:")
	mustContain(t, got.Text, "A Mun - Ruh", "F Kie - Hol", "A Ber - Pru")
	for _, bad := range []string{"A Mun H", "F Kie - Den", "Please look again", "\n  line "} {
		if strings.Contains(got.Text, bad) {
			t.Errorf("the acknowledgement says %q:\n%s", bad, got.Text)
		}
	}

	e.sendRaw("visitor@pbemd.localhost", "gm@pbemd.localhost", "From: visitor@pbemd.localhost\nTo: gm@pbemd.localhost\nSubject: games\n"+
		"Message-ID: <klingon@x>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=x-klingon\n\nLIST\n")
	list := e.next("visitor@pbemd.localhost", "Re: games")
	mustContain(t, list.Text, `character set "x-klingon"`, "UTF-8", "Games on this game master")
}
