package daemon

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// Metrics are the daemon's counters, served in Prometheus text format.
type Metrics struct {
	MailsIn         atomic.Int64
	MailsIgnored    atomic.Int64 // bounces, auto-replies, duplicates
	MailsOut        atomic.Int64 // queued
	PhasesProcessed atomic.Int64
	AdjudicationNs  atomic.Int64 // total time inside engines' Resolve
	QueueDepth      func() int   // set by the wiring: outbox messages not yet sent
	// Problems, set by the wiring, says what keeps mail from moving now
	// (IMAP login refused, SMTP unreachable, mail waiting for the store),
	// one sentence each; none when all is well. /healthz fails while there
	// is one.
	Problems func() []string
}

// observeAdjudication adds one engine call's duration.
func (m *Metrics) observeAdjudication(d time.Duration) { m.AdjudicationNs.Add(int64(d)) }

// WritePrometheus writes the counters in the Prometheus text format.
func (m *Metrics) WritePrometheus(w io.Writer) {
	counter := func(name, help string, v int64) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n%s %d\n", name, help, name, name, v)
	}
	counter("pbemd_mails_in_total", "Mails received and handled.", m.MailsIn.Load())
	counter("pbemd_mails_ignored_total", "Mails recorded but not answered (bounces, auto-replies, duplicates).", m.MailsIgnored.Load())
	counter("pbemd_mails_queued_total", "Mails put into the outbox.", m.MailsOut.Load())
	counter("pbemd_phases_processed_total", "Game phases adjudicated.", m.PhasesProcessed.Load())
	fmt.Fprintf(w, "# HELP pbemd_adjudication_seconds_total Time spent in engines resolving phases.\n# TYPE pbemd_adjudication_seconds_total counter\npbemd_adjudication_seconds_total %g\n",
		float64(m.AdjudicationNs.Load())/1e9)
	healthy := 1
	if len(m.problems()) > 0 {
		healthy = 0
	}
	fmt.Fprintf(w, "# HELP pbemd_healthy 1 when /healthz reports ok, else 0.\n# TYPE pbemd_healthy gauge\npbemd_healthy %d\n", healthy)
	if m.QueueDepth != nil {
		fmt.Fprintf(w, "# HELP pbemd_outbox_depth Mails waiting in the outbox.\n# TYPE pbemd_outbox_depth gauge\npbemd_outbox_depth %d\n", m.QueueDepth())
	}
}

func (m *Metrics) problems() []string {
	if m.Problems == nil {
		return nil
	}
	return m.Problems()
}
