package server

import (
	"fmt"
	"io"

	"pbemd/store"
)

// writeMetrics writes the daemon's counters and the server's gauges in
// the Prometheus text format.
func (s *Server) writeMetrics(w io.Writer) {
	m := s.Daemon.Metrics()
	counter := func(name, help string, v int64) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n%s %d\n", name, help, name, name, v)
	}
	counter("pbemd_mails_in_total", "Mails received and handled.", m.MailsIn.Load())
	counter("pbemd_mails_ignored_total", "Mails recorded but not answered (bounces, auto-replies, duplicates).", m.MailsIgnored.Load())
	counter("pbemd_mails_queued_total", "Mails put into the outbox.", m.MailsOut.Load())
	counter("pbemd_phases_processed_total", "Game phases adjudicated.", m.PhasesProcessed.Load())
	counter("pbemd_pictures_drawn_total", "Pictures of positions drawn for mail (once for all the mails that carry one).", m.PicturesDrawn.Load())
	fmt.Fprintf(w, "# HELP pbemd_adjudication_seconds_total Time spent in engines resolving phases.\n# TYPE pbemd_adjudication_seconds_total counter\npbemd_adjudication_seconds_total %g\n",
		float64(m.AdjudicationNs.Load())/1e9)
	healthy := 1
	if len(s.healthProblems()) > 0 {
		healthy = 0
	}
	fmt.Fprintf(w, "# HELP pbemd_healthy 1 when /healthz reports ok, else 0.\n# TYPE pbemd_healthy gauge\npbemd_healthy %d\n", healthy)
	depth := 0
	s.DB.View(func(tx *store.Tx) error { depth = tx.OutboxLen(); return nil })
	fmt.Fprintf(w, "# HELP pbemd_outbox_depth Mails waiting in the outbox.\n# TYPE pbemd_outbox_depth gauge\npbemd_outbox_depth %d\n", depth)
}
