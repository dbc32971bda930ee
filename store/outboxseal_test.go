package store

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// Mails sealed ahead, on several goroutines at once, are queued and read
// back as they were given, each under its own id, none of them in the
// clear in the file's outbox.
func TestSealRawOnEveryCore(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const n = 64
	ms := make([]OutboxMessage, n)
	for i := range ms {
		ms[i] = OutboxMessage{MessageID: fmt.Sprintf("m%d@x", i), To: []string{"a@x"}, Raw: []byte(fmt.Sprintf("Subject: %d\r\n\r\nsecret-%d\r\n", i, i))}
	}
	ids := make([]uint64, n)
	if err := db.Update(func(tx *Tx) error {
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range ms {
			wg.Go(func() { errs[i] = tx.SealRaw(&ms[i]) })
		}
		wg.Wait()
		for i := range ms {
			if errs[i] != nil {
				return errs[i]
			}
			if ids[i], err = tx.EnqueueMail(ms[i]); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		for i, id := range ids {
			m, err := tx.OutboxMail(id)
			if err != nil || !bytes.Equal(m.Raw, ms[i].Raw) {
				t.Errorf("mail %d reads back %q, %v", i, m.Raw, err)
			}
			if raw := tx.bucket(bucketOutboxRaw).Get(u64(id)); bytes.Contains(raw, []byte("secret-")) {
				t.Errorf("mail %d is kept in the clear", i)
			}
		}
		return nil
	})
}
