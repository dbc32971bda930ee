package daemon_test

import (
	"bytes"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"pbemd/store"
	"pbemd/store/storetest"
)

// checkBurstPictures holds a deadline burst's outbox to the pictures'
// promise: every report carries its picture, read back whole from the
// outbox (a sample of them: the first and the last queued, and every
// hundredth). It reports the store's size.
func checkBurstPictures(b *testing.B, db *store.DB, queued int) {
	b.Helper()
	err := db.View(func(tx *store.Tx) error {
		for id := uint64(1); id <= uint64(queued); id++ {
			if id > 8 && id < uint64(queued)-8 && id%100 != 0 {
				continue
			}
			m, err := tx.OutboxMail(id)
			if err != nil {
				return err
			}
			typ, parts, err := storetest.ReadParts(m.Raw)
			if err != nil {
				return err
			}
			if typ != "multipart/mixed" || len(parts) != 2 || parts[1].Type != "image/png" || !bytes.HasPrefix(parts[1].Data, []byte("\x89PNG")) {
				b.Fatalf("outbox mail %d to %v is %s with %d parts: no picture", id, m.To, typ, len(parts))
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if fi, err := os.Stat(db.Path()); err == nil {
		b.ReportMetric(float64(fi.Size())/(1<<20), "store-MB")
	}

}

// resetPeakRSS starts the process's peak resident set (VmHWM) afresh from
// its resident set now (Linux: proc(5), /proc/pid/clear_refs).
func resetPeakRSS() {
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// rssSampler samples the resident set's anonymous part (the heap, the
// stacks) and its file part (the store's pages mapped by bbolt, counted in
// VmHWM too) every 20 ms, and keeps the largest of each, in MB.
type rssSampler struct {
	stop       chan struct{}
	done       chan struct{}
	anon, file float64
}

func sampleRSS() *rssSampler {
	s := &rssSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			raw, _ := os.ReadFile("/proc/self/status")
			for _, line := range strings.Split(string(raw), "\n") {
				for key, max := range map[string]*float64{"RssAnon:": &s.anon, "RssFile:": &s.file} {
					if v, ok := strings.CutPrefix(line, key); ok {
						kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
						*max = math.Max(*max, float64(kb)/1024)
					}
				}
			}
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// end stops the sampler and reports its peaks.
func (s *rssSampler) end(b *testing.B) {
	close(s.stop)
	<-s.done
	b.ReportMetric(s.anon, "peak-anon-MB")
	b.ReportMetric(s.file, "peak-file-MB")
}

// peakRSSKB reads the process's peak resident set (VmHWM) in kB; 0 where
// there is no /proc.
func peakRSSKB() int {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return 0
}
