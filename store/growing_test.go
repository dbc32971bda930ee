package store

import (
	"fmt"
	"testing"
	"time"
)

// TestGrowingBucketsFillTheirPages: mails queued commit after commit, as a
// deadline burst queues them, leave the leaves of the buckets whose keys
// grow (the outbox, its raw mail and Message-ID index, sent mail, the
// audit log) filled to the page, not half of it, so a commit writes the
// last leaf or two of each and the file holds half the pages it would.
// A bucket whose keys land anywhere (the verification codes) keeps
// bbolt's split at half a page.
func TestGrowingBucketsFillTheirPages(t *testing.T) {
	db := openTest(t)
	t0 := time.Date(2026, 12, 8, 21, 0, 0, 0, time.UTC)
	raw := make([]byte, 200)
	for i := range raw {
		raw[i] = 'a' + byte(i%26)
	}
	n := 0
	for commit := range 40 {
		err := db.Update(func(tx *Tx) error {
			for range 50 {
				n++
				id := fmt.Sprintf("%x.%04d@bench.test", tx.MessageIDTime(t0), n)
				m := OutboxMessage{MessageID: id, From: "gm@bench.test", To: []string{fmt.Sprintf("p%d@bench.test", n)}, Raw: raw, Queued: t0}
				if _, err := tx.EnqueueMail(m); err != nil {
					return err
				}
				if err := tx.PutCode(Code{Code: fmt.Sprintf("%08X", uint32(n)*2654435761), MsgID: id, To: m.To, Subject: "Results", Sent: t0}); err != nil {
					return err
				}
				if err := tx.Audit(AuditEntry{Time: t0, Game: "g", Actor: "daemon", Action: "process", Detail: id}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("commit %d: %v", commit, err)
		}
	}
	fill := map[string]float64{}
	if err := db.View(func(tx *Tx) error {
		for _, name := range [][]byte{bucketOutbox, bucketOutboxRaw, bucketOutboxMsgID, bucketSent, bucketAudit, bucketCodes} {
			st := tx.bucket(name).Stats()
			fill[string(name)] = float64(st.LeafInuse) / float64(st.LeafAlloc)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for name, f := range fill {
		if !growing[name] {
			if f > 0.8 {
				t.Errorf("%s, keys anywhere: leaves %.0f%% full; want bbolt's split at half a page", name, 100*f)
			}
			continue
		}
		if f < 0.85 {
			t.Errorf("%s, keys growing: leaves %.0f%% full; want ≥ 85%%", name, 100*f)
		}
	}
	t.Logf("leaves in use: %v", fill)
}
