package mailserver

import (
	"bytes"
	"strings"
	"testing"

	"github.com/emersion/go-smtp"
)

// TestSMTPUTF8: the SMTP server offers SMTPUTF8 (RFC 6531; sendSMTPWith
// checks EHLO) and takes a mail from and to non-ASCII addresses with it,
// delivered with its raw UTF-8 header; a non-ASCII sender or recipient
// without it is refused with 553 5.6.7, so a client that did not agree to
// UTF-8 addresses is never answered as if it had.
func TestSMTPUTF8(t *testing.T) {
	srv := startServer(t, "")
	jurgen := "jürgen@" + testDomain
	err := sendSMTP(t, srv, "jürgen@beispiel.de", []string{gm}, rawMail("jürgen@beispiel.de", gm, "hallo", "LIST"), 0)
	if smtpCode(err) != "553 5.6.7" {
		t.Errorf("MAIL FROM a non-ASCII address without SMTPUTF8: %v, want 553 5.6.7", err)
	}
	err = sendSMTP(t, srv, "p1@"+testDomain, []string{jurgen}, rawMail("p1@"+testDomain, jurgen, "hallo", "x"), 0)
	if smtpCode(err) != "553 5.6.7" {
		t.Errorf("RCPT TO a non-ASCII address without SMTPUTF8: %v, want 553 5.6.7", err)
	}
	if inbox, _ := mailboxState(t, srv, gm, "INBOX"); len(inbox) != 0 {
		t.Fatalf("gm has %d mails after the refusals", len(inbox))
	}

	raw := rawMail("Jürgen <jürgen@beispiel.de>", jurgen, "hallo", "Grüße")
	if err := sendSMTPWith(t, srv, "jürgen@beispiel.de", []string{jurgen, gm}, raw, &smtp.MailOptions{UTF8: true}); err != nil {
		t.Fatalf("with SMTPUTF8: %v", err)
	}
	ic := dialIMAP(t, srv, jurgen, "jürgen")
	bodies := fetchBodies(t, ic, "INBOX")
	if len(bodies) != 1 || !bytes.Contains(bodies[0], []byte("\r\nFrom: Jürgen <jürgen@beispiel.de>\r\n")) ||
		!strings.Contains(string(bodies[0]), "Return-Path: <jürgen@beispiel.de>") {
		t.Fatalf("jürgen's inbox: %q", bodies)
	}
	if inbox, _ := mailboxState(t, srv, gm, "INBOX"); len(inbox) != 1 {
		t.Fatalf("gm has %d mails, want 1", len(inbox))
	}
}
