package server

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pbemd/mailer"
	"pbemd/mailserver"
	"pbemd/outbox"
	"pbemd/store"
	"pbemd/store/storetest"
)

const mqDomain = "example.test"

func startMailServer(t testing.TB) *mailserver.Server {
	t.Helper()
	srv, err := mailserver.Start(mailserver.Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: mqDomain,
		Accounts: []mailserver.Account{{Address: "gm@" + mqDomain, Password: "gmpass"}}, HashCost: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func composeTo(t testing.TB, i int, to string) *mailer.Composed {
	t.Helper()
	c, err := mailer.Compose(&mailer.Outgoing{
		From: mail.Address{Address: "gm@" + mqDomain}, To: []mail.Address{{Address: to}},
		Subject: fmt.Sprintf("report %d", i), Text: "Spring 1901 results\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func enqueueComposed(t testing.TB, db *store.DB, c *mailer.Composed) {
	t.Helper()
	if err := db.Update(func(tx *store.Tx) error {
		_, err := tx.EnqueueMail(store.OutboxMessage{MessageID: c.MessageID, From: c.EnvelopeFrom, To: c.Recipients, Raw: c.Raw, Queued: time.Now()})
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// storeHandler handles mail as the daemon does: test-and-record the id in
// one transaction; a second delivery of the same id changes nothing.
type storeHandler struct {
	db    *store.DB
	mu    sync.Mutex
	first []string
	calls int
}

func (h *storeHandler) handle(_ context.Context, m *mailer.Mail) error {
	return h.db.Update(func(tx *store.Tx) error {
		first, err := tx.MarkMailProcessed(m.ID, time.Now())
		h.mu.Lock()
		defer h.mu.Unlock()
		h.calls++
		if first {
			h.first = append(h.first, m.ID)
		}
		return err
	})
}

func (h *storeHandler) distinct() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.first)
}

// The whole path on real parts: store outbox → Sender → SMTP → embedded
// mailbox → Fetcher → handler deduplicating in the store, with the
// checkpoint in the store.
func TestMailRoundTripThroughTheStore(t *testing.T) {
	db := storetest.Open(t)
	srv := startMailServer(t)
	smtpCfg, _ := EmbeddedSMTP(srv, "gm@"+mqDomain)
	imapCfg, _ := EmbeddedIMAP(srv, "p1@"+mqDomain)

	var ids []string
	for i := range 5 {
		c := composeTo(t, i, "p1@"+mqDomain)
		ids = append(ids, c.MessageID)
		enqueueComposed(t, db, c)
	}
	enqueueComposed(t, db, composeTo(t, 9, "stranger@elsewhere.org"))
	var gaveUp []mailer.GiveUp
	s, err := mailer.NewSender(smtpCfg, outbox.NewQueue(db), mailer.SenderOptions{OnGiveUp: func(g mailer.GiveUp) { gaveUp = append(gaveUp, g) }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *store.Tx) error {
		if n := tx.OutboxLen(); n != 0 {
			t.Errorf("outbox still holds %d", n)
		}
		for _, id := range ids {
			if st, err := tx.MailStatus(id); err != nil || st.State != store.OutboxSent {
				t.Errorf("%s: %+v %v", id, st, err)
			}
		}
		failed, _ := tx.FailedMail()
		if len(failed) != 1 || len(gaveUp) != 1 {
			t.Errorf("failed %+v, give-ups %d", failed, len(gaveUp))
		}
		return nil
	})

	h := &storeHandler{db: db}
	f, err := mailer.NewFetcher(imapCfg, mailer.FetcherOptions{State: NewInboxState(db), Handler: h.handle})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if st, err := f.Poll(context.Background()); err != nil || st.Handled != 5 || h.distinct() != 5 {
		t.Fatalf("poll %+v %v, distinct %d", st, err, h.distinct())
	}
	var cp store.MailCheckpoint
	db.View(func(tx *store.Tx) (err error) { cp, err = tx.MailCheckpoint(f.CheckpointKey()); return err })
	if cp.LastUID != 5 || cp.UIDValidity == 0 {
		t.Fatalf("checkpoint in the store: %+v", cp)
	}
	// the daemon restarts with a lost checkpoint: everything is handed over
	// again and the store's Message-ID record makes it harmless
	db.Update(func(tx *store.Tx) error { return tx.SetMailCheckpoint(f.CheckpointKey(), store.MailCheckpoint{}) })
	f2, _ := mailer.NewFetcher(imapCfg, mailer.FetcherOptions{State: NewInboxState(db), Handler: h.handle})
	defer f2.Close()
	if _, err := f2.Poll(context.Background()); err != nil || h.calls != 10 || h.distinct() != 5 {
		t.Fatalf("%v: calls %d, distinct %d", err, h.calls, h.distinct())
	}
}

// A daemon killed during an attempt: Begin committed, Sent never did. The
// next daemon sends the mail again when its backoff is over, and counts
// the attempt.
func TestOutboxAttemptSurvivesACrash(t *testing.T) {
	db := storetest.Open(t)
	srv := startMailServer(t)
	smtpCfg, _ := EmbeddedSMTP(srv, "gm@"+mqDomain)
	c := composeTo(t, 1, "p1@"+mqDomain)
	enqueueComposed(t, db, c)
	q := outbox.NewQueue(db)
	due, _ := q.Due(time.Now(), 10)
	if len(due) != 1 {
		t.Fatalf("due %d", len(due))
	}
	retryAt := time.Now().Add(50 * time.Millisecond)
	if err := q.Begin(due[0].ID, retryAt); err != nil {
		t.Fatal(err)
	}
	// …the process dies here. A new one starts:
	if again, _ := q.Due(time.Now(), 10); len(again) != 0 {
		t.Fatal("mail due again before its backoff")
	}
	// Its sender's clock is past the backoff.
	s, _ := mailer.NewSender(smtpCfg, q, mailer.SenderOptions{Now: func() time.Time { return retryAt.Add(10 * time.Millisecond) }})
	if _, err := s.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *store.Tx) error {
		st, err := tx.MailStatus(c.MessageID)
		if err != nil || st.State != store.OutboxSent {
			t.Errorf("status %+v %v", st, err)
		}
		return nil
	})
	if accounts := srv.Accounts(); len(accounts) != 2 {
		t.Fatalf("accounts %v", accounts)
	}
}

// A drain commits once a mail: each mail's Sent, straight after its
// 250, with the next mail's Begin; the first mail's Begin alone.
func TestDrainCommitsOncePerMail(t *testing.T) {
	const n = 20
	db := storetest.Open(t)
	srv := startMailServer(t)
	smtpCfg, _ := EmbeddedSMTP(srv, "gm@"+mqDomain)
	for i := range n {
		enqueueComposed(t, db, composeTo(t, i, "p1@"+mqDomain))
	}
	var commits atomic.Int64
	db.SetWriteFault(func(store.Commit) error { commits.Add(1); return nil })
	s, err := mailer.NewSender(smtpCfg, outbox.NewQueue(db), mailer.SenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	db.SetWriteFault(nil)
	db.View(func(tx *store.Tx) error {
		if left := tx.OutboxLen(); left != 0 {
			t.Errorf("%d mails left in the outbox", left)
		}
		return nil
	})
	if got := commits.Load(); got != n+1 {
		t.Errorf("%d commits to send %d mails, want %d", got, n, n+1)
	}
}

func TestInboxStateAdapter(t *testing.T) {
	db := storetest.Open(t)
	s := NewInboxState(db)
	for want := 1; want <= 2; want++ {
		if n, err := s.AddFailure("m@x", time.Now(), "boom"); err != nil || n != want {
			t.Fatalf("AddFailure = %d, %v", n, err)
		}
	}
	if n, _ := s.Failures("m@x"); n != 2 {
		t.Fatalf("Failures = %d", n)
	}
	s.ClearFailures("m@x")
	if n, _ := s.Failures("m@x"); n != 0 {
		t.Fatalf("after clear %d", n)
	}
	if err := s.SetCheckpoint("k", mailer.Checkpoint{UIDValidity: 3, LastUID: 9}); err != nil {
		t.Fatal(err)
	}
	if cp, _ := s.Checkpoint("k"); cp != (mailer.Checkpoint{UIDValidity: 3, LastUID: 9}) {
		t.Fatalf("checkpoint %+v", cp)
	}
	q := outbox.NewQueue(db)
	if _, ok, err := q.NextDue(); ok || err != nil {
		t.Fatalf("empty outbox NextDue = %v, %v", ok, err)
	}
	if err := q.Sent(42, time.Now()); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Sent of an unknown id: %v", err)
	}
}

const benchMails = 1000

// BenchmarkSend: 1,000 mails through the durable outbox (bbolt, one
// commit per mail: its Sent with the next mail's Begin) to the embedded
// SMTP server on loopback. Target: 500 mails/s.
func BenchmarkSend(b *testing.B) {
	srv := startMailServer(b)
	smtpCfg, _ := EmbeddedSMTP(srv, "gm@"+mqDomain)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		db := storetest.Open(b)
		for j := range benchMails {
			enqueueComposed(b, db, composeTo(b, j, "p1@"+mqDomain))
		}
		s, err := mailer.NewSender(smtpCfg, outbox.NewQueue(db), mailer.SenderOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := s.Flush(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		db.View(func(tx *store.Tx) error {
			if n := tx.OutboxLen(); n != 0 {
				b.Fatalf("%d left in the outbox", n)
			}
			return nil
		})
		b.StartTimer()
	}
	b.ReportMetric(float64(benchMails*b.N)/b.Elapsed().Seconds(), "mails/s")
}

// handleBatch handles a batch as the daemon's batch path does: every
// mail's id tested and recorded in one transaction.
func (h *storeHandler) handleBatch(_ context.Context, ms []*mailer.Mail) []error {
	errs := make([]error, len(ms))
	err := h.db.Update(func(tx *store.Tx) error {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, m := range ms {
			first, err := tx.MarkMailProcessed(m.ID, time.Now())
			if err != nil {
				return err
			}
			h.calls++
			if first {
				h.first = append(h.first, m.ID)
			}
		}
		return nil
	})
	for i := range errs {
		errs[i] = err
	}
	return errs
}

// BenchmarkIngestStore: 1,000 order mails from the embedded IMAP server,
// parsed, deduplicated in the store (as the daemon's handler does),
// checkpoints in the store: handler=mail in a transaction per mail (the
// Handler), handler=batch in one per poll batch of 256 (the
// BatchHandler the server uses). Target: 10,000 mails/s.
func BenchmarkIngestStore(b *testing.B) {
	for _, batch := range []bool{false, true} {
		name := "handler=mail"
		if batch {
			name = "handler=batch"
		}
		b.Run(name, func(b *testing.B) { benchIngestStore(b, batch) })
	}
}

func benchIngestStore(b *testing.B, batch bool) {
	srv := startMailServer(b)
	imapCfg, _ := EmbeddedIMAP(srv, "gm@"+mqDomain)
	var mails []*mailer.Composed
	for range benchMails {
		c, err := mailer.Compose(&mailer.Outgoing{From: mail.Address{Address: "p1@" + mqDomain},
			To: []mail.Address{{Address: "gm+tok@" + mqDomain}}, Subject: "orders", Text: "A PAR - BUR\nF BRE - MAO\n", Auto: mailer.AutoNo})
		if err != nil {
			b.Fatal(err)
		}
		mails = append(mails, c)
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		// a fresh account per round, so each round reads 1,000 new mails
		account := fmt.Sprintf("b%d@%s", i, mqDomain)
		if err := srv.AddAccount(account, "pw"); err != nil {
			b.Fatal(err)
		}
		for _, c := range mails {
			if err := srv.Deliver(c.EnvelopeFrom, []string{account}, c.Raw); err != nil {
				b.Fatal(err)
			}
		}
		cfg := imapCfg
		cfg.Username, cfg.Password, cfg.Address = account, "pw", "gm@"+mqDomain
		db := storetest.Open(b)
		h := &storeHandler{db: db}
		opt := mailer.FetcherOptions{State: NewInboxState(db), Handler: h.handle}
		if batch {
			opt.Handler, opt.BatchHandler, opt.Batch = nil, h.handleBatch, 256
		}
		f, err := mailer.NewFetcher(cfg, opt)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		st, err := f.Poll(context.Background())
		b.StopTimer()
		if err != nil || st.Handled != benchMails || h.distinct() != benchMails {
			b.Fatalf("poll %+v %v distinct %d", st, err, h.distinct())
		}
		f.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(benchMails*b.N)/b.Elapsed().Seconds(), "mails/s")
}
