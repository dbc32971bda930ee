package server

import (
	"context"
	"fmt"
	"net/mail"
	"testing"
	"time"

	"pbemd/daemon"
	"pbemd/daemon/daemontest"
	"pbemd/internal/proccpu"
	"pbemd/mailer"
	"pbemd/store"
)

// BenchmarkIngestDaemon: 1,000 order mails from England's reply address,
// from the embedded IMAP server through the server's handler and the
// real daemon (orders checked by the Diplomacy engine, stored,
// acknowledged, the acknowledgements queued in the outbox) to the store,
// checkpoints included: handler=mail hands the daemon one mail at a time
// (a commit each, as before poll batches), handler=batch a poll batch of
// up to 256 at once, as the server does. Target: 10,000 mails/s.
//
// gc=serve runs the batch handler with the garbage collector set as
// `pbemd serve` sets it (TuneGC); the others run with Go's default.
// cpu-µs/mail is the processor time of the whole process (the embedded
// IMAP server, the fetcher, the daemon, the collector) per mail while the
// polls run: on a shared machine it varies less than mails/s.
func BenchmarkIngestDaemon(b *testing.B) {
	for _, batch := range []bool{false, true} {
		name := "handler=mail"
		if batch {
			name = "handler=batch"
		}
		b.Run(name, func(b *testing.B) { benchIngestDaemon(b, batch) })
	}
	b.Run("handler=batch/gc=serve", func(b *testing.B) {
		defer TuneGC()()
		benchIngestDaemon(b, true)
	})
}

func benchIngestDaemon(b *testing.B, batch bool) {
	srv := startMailServer(b)
	imapCfg, _ := EmbeddedIMAP(srv, "gm@"+mqDomain)
	tb := daemontest.NewWith(b, func(o *daemon.Options) { o.RateLimit = 1 << 30 })
	tb.Create("ingest", "standard", "")
	en := tb.SignUp("ingest", []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"})["england"]
	tb.Outbox()
	s := &Server{Daemon: tb.D, DB: tb.DB, tick: make(chan struct{}, 1)}
	var cpu time.Duration // the process's, while Poll runs
	variants := []string{"F Lon - Nth", "A Lvp - Yor", "F Edi - Nwg", "F Lon H\nA Lvp - Edi"}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		// new mails each round (new Message-IDs: none is a duplicate)
		var mails []*mailer.Composed
		for k := range benchMails {
			c, err := mailer.Compose(&mailer.Outgoing{From: mail.Address{Address: en.Addr},
				To: []mail.Address{{Address: "gm+" + en.Token + "@" + mqDomain}}, Subject: "orders", Text: variants[k%len(variants)] + "\n", Auto: mailer.AutoNo})
			if err != nil {
				b.Fatal(err)
			}
			mails = append(mails, c)
		}
		account := fmt.Sprintf("d%d@%s", i, mqDomain)
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
		opt := mailer.FetcherOptions{State: NewInboxState(tb.DB), BatchHandler: s.handleBatch, Batch: daemon.MaxBatch}
		if !batch {
			opt = mailer.FetcherOptions{State: NewInboxState(tb.DB), Handler: func(ctx context.Context, m *mailer.Mail) error {
				return s.handleBatch(ctx, []*mailer.Mail{m})[0]
			}}
		}
		f, err := mailer.NewFetcher(cfg, opt)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		cpu0 := proccpu.Used()
		st, err := f.Poll(context.Background())
		cpu += proccpu.Used() - cpu0
		b.StopTimer()
		if err != nil || st.Handled != benchMails {
			b.Fatalf("poll %+v %v", st, err)
		}
		f.Close()
		n := 0
		tb.DB.Update(func(tx *store.Tx) error { n = tx.OutboxLen(); return nil })
		if n < benchMails {
			b.Fatalf("%d answers queued for %d mails", n, benchMails)
		}
		tb.Outbox()
		b.StartTimer()
	}
	b.ReportMetric(float64(benchMails*b.N)/b.Elapsed().Seconds(), "mails/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(benchMails*b.N), "cpu-µs/mail")
}
