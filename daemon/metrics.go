package daemon

import "sync/atomic"

// Metrics are the daemon's counters (package server serves them in the
// Prometheus text format).
type Metrics struct {
	MailsIn         atomic.Int64
	MailsIgnored    atomic.Int64 // bounces, auto-replies, duplicates
	MailsOut        atomic.Int64 // queued
	PhasesProcessed atomic.Int64
	AdjudicationNs  atomic.Int64 // total time inside engines' Resolve (by Options.Now)
	PicturesDrawn   atomic.Int64 // pictures drawn for mail (each once for all its mails)
}
