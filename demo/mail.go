package demo

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"

	"pbemd/mailer"
	"pbemd/mailserver"
	"pbemd/server"
)

// Received is one mail a scripted player (or the GM) read over IMAP.
type Received struct {
	Subject   string
	MessageID string
	InReplyTo string
	ReplyTo   string // the address a reply goes to (the daemon's, with a token)
	Text      string
	Size      int // the whole mail's size in bytes, pictures and all
}

// Sent is one mail a scripted player sent over SMTP.
type Sent struct {
	Phase     int    // the game's phase number it was meant for (-1: before the game)
	Kind      string // "create", "join", "orders", "correction"; the other games: "partial" (the first of two order mails), "question"
	MessageID string
	To        string
	Text      string
	// Typo, Unknown and Impossible say which misorders the mail holds.
	Typo, Unknown, Impossible bool
	Password                  bool // sent from scratch with SIGNON, not to the reply address
}

// postOffice holds every mailbox of the demo: one IMAP reader per person
// (the daemon's own fetcher, with IDLE) feeding a shared list, and an SMTP
// client for sending. Waiting for a mail is waiting on changed.
type postOffice struct {
	smtpAddr string
	log      *slog.Logger
	stopped  <-chan struct{} // closed when the daemon stopped

	mu      sync.Mutex
	inbox   map[string][]Received // by address
	changed chan struct{}         // closed and replaced on every arrival
	wg      sync.WaitGroup

	// mails, when set, is the folder every mail read is written to as a
	// .eml file, one folder per mailbox (Options.Mails); saveErr is the
	// first failure to write one.
	mails   string
	saveErr error
}

// save writes one mail as read by addr to the mailbox's folder: the n-th
// mail of a mailbox (from 0, as in Player.Inbox) is NNNN.eml. Called with
// po.mu held, before the mail joins the inbox.
func (po *postOffice) save(addr string, raw []byte) {
	if po.mails == "" || po.saveErr != nil || raw == nil {
		return
	}
	box := filepath.Join(po.mails, mailboxFolder(addr))
	if err := os.MkdirAll(box, 0o755); err != nil {
		po.saveErr = fmt.Errorf("write mails: %w", err)
		return
	}
	name := filepath.Join(box, fmt.Sprintf("%04d.eml", len(po.inbox[addr])))
	if err := os.WriteFile(name, raw, 0o644); err != nil {
		po.saveErr = fmt.Errorf("write mails: %w", err)
	}
}

// mailboxFolder is the folder name of a mailbox: its address, with
// anything a path could misread replaced.
func mailboxFolder(addr string) string {
	f := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < ' ' {
			return '_'
		}
		return r
	}, addr)
	return strings.TrimLeft(f, ".")
}

func newPostOffice(smtpAddr string, log *slog.Logger) *postOffice {
	return &postOffice{smtpAddr: smtpAddr, log: log, inbox: map[string][]Received{}, changed: make(chan struct{})}
}

// open starts reading the mailbox of addr over IMAP until ctx ends.
func (po *postOffice) open(ctx context.Context, srv *mailserver.Server, addr string) error {
	cfg, err := server.EmbeddedIMAP(srv, addr)
	if err != nil {
		return err
	}
	cfg.Poll = 2 * time.Second // IDLE wakes the reader at once; this is the fallback
	f, err := mailer.NewFetcher(cfg, mailer.FetcherOptions{
		Logger: po.log.With("reader", addr), State: newMemState(),
		MinBackoff: 50 * time.Millisecond, MaxBackoff: time.Second,
		Handler: func(_ context.Context, m *mailer.Mail) error {
			r := Received{Subject: m.Subject, MessageID: m.MessageID, InReplyTo: m.InReplyTo, Text: m.Text, Size: len(m.Raw)}
			if a := m.ReplyAddress(); a != nil {
				r.ReplyTo = a.Address
			}
			po.mu.Lock()
			po.save(addr, m.Raw)
			po.inbox[addr] = append(po.inbox[addr], r)
			close(po.changed)
			po.changed = make(chan struct{})
			po.mu.Unlock()
			return nil
		},
	})
	if err != nil {
		return err
	}
	po.wg.Add(1)
	go func() {
		defer po.wg.Done()
		f.Run(ctx)
	}()
	return nil
}

// wait blocks until cond (called with the inboxes locked) is true, or
// fails after timeout naming what it waited for.
func (po *postOffice) wait(ctx context.Context, timeout time.Duration, what string, cond func(inbox map[string][]Received) bool) error {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		po.mu.Lock()
		ok, ch := cond(po.inbox), po.changed
		po.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		case <-po.stopped:
			return fmt.Errorf("waiting for %s: the daemon stopped", what)
		case <-t.C:
			return fmt.Errorf("no %s within %v", what, timeout)
		}
	}
}

// waitFor waits for a mail to addr that match accepts and returns it.
func (po *postOffice) waitFor(ctx context.Context, timeout time.Duration, addr, what string, match func(Received) bool) (Received, error) {
	var got Received
	err := po.wait(ctx, timeout, what+" for "+addr, func(in map[string][]Received) bool {
		for _, r := range in[addr] {
			if match(r) {
				got = r
				return true
			}
		}
		return false
	})
	return got, err
}

// count counts the mails to addr that match accepts.
func count(in []Received, match func(Received) bool) int {
	n := 0
	for _, r := range in {
		if match(r) {
			n++
		}
	}
	return n
}

// snapshot copies every inbox.
func (po *postOffice) snapshot() map[string][]Received {
	po.mu.Lock()
	defer po.mu.Unlock()
	out := make(map[string][]Received, len(po.inbox))
	for a, l := range po.inbox {
		out[a] = append([]Received(nil), l...)
	}
	return out
}

// send composes a plain mail written by a person and hands it to the
// embedded server over SMTP. It returns the Message-ID.
func (po *postOffice) send(from, to, subject, text, inReplyTo string) (string, error) {
	c, err := mailer.Compose(&mailer.Outgoing{
		From: mail.Address{Address: from}, To: []mail.Address{{Address: to}},
		Subject: subject, Text: text, InReplyTo: inReplyTo, Auto: mailer.AutoNo,
	})
	if err != nil {
		return "", err
	}
	cl, err := smtp.Dial(po.smtpAddr)
	if err != nil {
		return "", fmt.Errorf("smtp: %w", err)
	}
	defer cl.Close()
	if err := cl.Hello("localhost"); err != nil {
		return "", fmt.Errorf("smtp hello: %w", err)
	}
	if err := cl.SendMail(c.EnvelopeFrom, c.Recipients, bytes.NewReader(c.Raw)); err != nil {
		return "", fmt.Errorf("smtp send from %s: %w", from, err)
	}
	if err := cl.Quit(); err != nil {
		return "", fmt.Errorf("smtp quit: %w", err)
	}
	return c.MessageID, nil
}

// memState is a reader's checkpoint, kept in memory (the demo's mail
// server keeps nothing either).
type memState struct {
	mu    sync.Mutex
	cp    map[string]mailer.Checkpoint
	fails map[string]int
}

func newMemState() *memState {
	return &memState{cp: map[string]mailer.Checkpoint{}, fails: map[string]int{}}
}

func (s *memState) Checkpoint(k string) (mailer.Checkpoint, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cp[k], nil
}

func (s *memState) SetCheckpoint(k string, c mailer.Checkpoint) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cp[k] = c
	return nil
}

func (s *memState) Failures(id string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fails[id], nil
}

func (s *memState) AddFailure(id string, _ time.Time, _ string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fails[id]++
	return s.fails[id], nil
}

func (s *memState) ClearFailures(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.fails, id)
	return nil
}

// replyPrefix makes a reply subject.
func replyPrefix(s string) string {
	if strings.HasPrefix(strings.ToLower(s), "re:") {
		return s
	}
	return "Re: " + s
}
