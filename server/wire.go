package server

import (
	"bufio"
	"bytes"
	"net/textproto"
	"strings"

	"pbemd/daemon"
	"pbemd/mailer"
)

// The mailer knows no game and the daemon no protocol: these turn what
// the fetcher and the sender report into what the daemon reads.

// IncomingFromMail reduces a parsed mail to what the daemon needs.
func IncomingFromMail(m *mailer.Mail) *daemon.Incoming {
	in := &daemon.Incoming{
		MsgID: m.ID, Token: m.Token, Subject: m.Subject, Date: m.Date,
		InReplyTo: m.InReplyTo, References: m.References, Text: m.Text,
		Auto: m.NoReply(), TooBig: m.TooBig, UnknownCharset: m.UnknownCharset,
	}
	if m.From != nil {
		in.From = strings.ToLower(m.From.Address)
	}
	if len(m.ReplyTo) > 0 && m.ReplyTo[0] != nil {
		in.ReplyTo = strings.ToLower(m.ReplyTo[0].Address)
	}
	for _, a := range m.To {
		if a != nil {
			in.To = append(in.To, strings.ToLower(a.Address))
		}
	}
	in.To = append(in.To, m.DeliveredTo...)
	return in
}

// setAsideMail is what the daemon may read of a mail the fetcher set
// aside (nil when nothing could be read). Its MsgID is the Message-ID as
// found, "" when it had none: it only threads the answer.
func setAsideMail(m *mailer.Mail) *daemon.Incoming {
	if m == nil {
		return nil
	}
	in := IncomingFromMail(m)
	in.MsgID = m.MessageID
	return in
}

// undelivered is a mail the sender gave up on, with the marks the daemon
// composed into it.
func undelivered(g mailer.GiveUp) daemon.Undelivered {
	return daemon.Undelivered{
		MessageID: g.Mail.MessageID, Recipients: g.Recipients, Err: g.Err,
		Alert: mailHeader(g.Mail.Raw, daemon.AlertHeader) != "",
		Game:  mailHeader(g.Mail.Raw, daemon.GameHeader),
	}
}

// mailHeader returns a header field of a raw mail ("" when absent).
func mailHeader(raw []byte, key string) string {
	end := bytes.Index(raw, []byte("\r\n\r\n"))
	if end < 0 {
		end = len(raw)
	}
	h, err := textproto.NewReader(bufio.NewReader(bytes.NewReader(raw[:end]))).ReadMIMEHeader()
	if err != nil && len(h) == 0 {
		return ""
	}
	return strings.TrimSpace(h.Get(key))
}
