package daemon_test

import (
	"bytes"
	"math"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"pbemd/outbox"
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
			typ, parts, err := storetest.ReadParts(outbox.Assemble(m))
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

// memSampler samples, every 20 ms, the heap in use (runtime/metrics: the
// heap's objects and the free space in its spans, MemStats' HeapInuse) and
// the resident set's anonymous part (RssAnon in /proc/self/status: the
// heap, the stacks and what the runtime holds besides), and keeps the
// largest of each, in MB. The store's file pages that bbolt maps are the
// page cache's, for the kernel to reclaim, and are not counted.
type memSampler struct {
	stop       chan struct{}
	done       chan struct{}
	heap, anon float64
}

func sampleMemory() *memSampler {
	s := &memSampler{stop: make(chan struct{}), done: make(chan struct{})}
	heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	go func() {
		defer close(s.done)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(heap)
			s.heap = math.Max(s.heap, float64(heap[0].Value.Uint64()+heap[1].Value.Uint64())/(1<<20))
			raw, _ := os.ReadFile("/proc/self/status")
			for _, line := range strings.Split(string(raw), "\n") {
				if v, ok := strings.CutPrefix(line, "RssAnon:"); ok {
					kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
					s.anon = math.Max(s.anon, float64(kb)/1024)
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

// end stops the sampler and reports its peaks (peak-anon-MB is 0 where
// there is no /proc).
func (s *memSampler) end(b *testing.B) {
	close(s.stop)
	<-s.done
	b.ReportMetric(s.heap, "peak-heap-MB")
	b.ReportMetric(s.anon, "peak-anon-MB")
}
