package daemon

import (
	"fmt"
	"net/mail"
	"strings"
	"time"

	"pbemd/mailer"
	"pbemd/store"
)

// IncomingFromMail reduces a parsed mail to what the daemon needs.
func IncomingFromMail(m *mailer.Mail) *Incoming {
	in := &Incoming{
		MsgID: m.ID, Token: m.Token, Subject: m.Subject, Date: m.Date,
		InReplyTo: m.InReplyTo, References: m.References, Text: m.Text,
		Auto: m.NoReply(), TooBig: m.TooBig,
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

// compose turns an outgoing mail into the outbox record that the sender
// delivers. It is pure (no store), so a batch composes on every core.
func compose(m *Outgoing, now time.Time) (store.OutboxMessage, error) {
	out := &mailer.Outgoing{
		From:       mail.Address{Name: "pbemd game master", Address: m.From},
		ReplyTo:    []mail.Address{{Address: m.ReplyTo}},
		Subject:    m.Subject,
		Text:       m.Text,
		InReplyTo:  m.InReplyTo,
		References: m.References,
		Auto:       mailer.Auto(m.Auto),
		Date:       now,
		MessageID:  m.MsgID,
	}
	for _, to := range m.To {
		out.To = append(out.To, mail.Address{Address: to})
	}
	if m.Game != "" {
		out.Headers = append(out.Headers, mailer.HeaderField{Key: gameHeader, Value: m.Game})
	}
	if m.Alert {
		out.Headers = append(out.Headers, mailer.HeaderField{Key: alertHeader, Value: "yes"})
	}
	c, err := mailer.Compose(out)
	if err != nil {
		return store.OutboxMessage{}, fmt.Errorf("compose mail to %v: %w", m.To, err)
	}
	return store.OutboxMessage{MessageID: c.MessageID, From: c.EnvelopeFrom, To: c.Recipients, Raw: c.Raw, Queued: now.UTC()}, nil
}
