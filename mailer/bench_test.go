package mailer

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
)

const benchMails = 1000

// BenchmarkIngest: 1,000 order mails fetched from the embedded IMAP
// server on loopback, parsed, and deduplicated by an in-memory handler
// (the daemon's store-backed figure is daemon.BenchmarkIngestStore). One
// op is the whole batch; mails/s is the figure to compare with the
// target of 2,000.
func BenchmarkIngest(b *testing.B) {
	srv := startServer(b, "")
	var raws [][]byte
	for i := range benchMails {
		raws = append(raws, orderMail(b, i, fmt.Sprintf("t%d", i%7)).Raw)
	}
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		box := fmt.Sprintf("bench%d", i)
		imapAdmin(b, srv, gm, func(c *imapclient.Client) {
			if err := c.Create(box, nil).Wait(); err != nil {
				b.Fatal(err)
			}
		})
		for _, r := range raws {
			appendRaw(b, srv, gm, box, r)
		}
		h := newDedupeHandler()
		cfg, _ := srv.IMAPConfig(gm)
		cfg.Mailbox = box
		f, err := NewFetcher(cfg, FetcherOptions{State: newMemState(), Handler: h.handle})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		st, err := f.Poll(ctx)
		b.StopTimer()
		if err != nil || st.Handled != benchMails || len(h.ids()) != benchMails {
			b.Fatalf("poll %+v %v, distinct %d", st, err, len(h.ids()))
		}
		f.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(benchMails*b.N)/b.Elapsed().Seconds(), "mails/s")
}

// BenchmarkSendMemQueue: 1,000 mails through the Sender to the embedded
// SMTP server on loopback, from an in-memory queue: the protocol cost
// alone (the durable figure is daemon.BenchmarkSend).
func BenchmarkSendMemQueue(b *testing.B) {
	srv := startServer(b, "")
	cfg, _ := srv.SMTPConfig("p1@" + testDomain)
	var mails []*Composed
	for i := range benchMails {
		mails = append(mails, orderMail(b, i, "x"))
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		q := newMemQueue()
		for _, c := range mails {
			q.add(c, time.Now())
		}
		s, err := NewSender(cfg, q, SenderOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := s.Flush(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if sent, _, pending := q.snapshot(); len(sent) != benchMails || pending != 0 {
			b.Fatalf("sent %d pending %d", len(sent), pending)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(benchMails*b.N)/b.Elapsed().Seconds(), "mails/s")
}

// BenchmarkParseMail parses one order mail.
func BenchmarkParseMail(b *testing.B) {
	raw := orderMail(b, 1, "tok").Raw
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := ParseMail(raw, gm); err != nil {
			b.Fatal(err)
		}
	}
}
