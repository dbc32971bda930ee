package server

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pbemd/store"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// 35 order mails wait in the daemon's mailbox while the disk is full;
// once it has room, the poll hands them over as one batch, whose commit
// then fails once (an I/O error). The daemon redoes the batch mail by
// mail: every mail is handled and answered exactly once, in the order
// sent, none is counted as a failure or set aside, and the answers go
// out over SMTP.
func TestE2EBatchThatFailsToCommitLosesNoMail(t *testing.T) {
	var logs syncBuffer
	e := newE2EWithLog(t, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn})), nil)
	_, pl := e.standardGame("batch")

	const (
		hold = iota // the disk is full
		once        // one more commit fails
		ok
	)
	var mode, refused atomic.Int32
	e.srv.DB.SetWriteFault(func(c store.Commit) error {
		switch mode.Load() {
		case hold:
			if c.Nodes > 2 {
				refused.Add(1)
				return errDiskFull
			}
		case once:
			if c.Nodes > 2 && mode.CompareAndSwap(once, ok) {
				return errors.New("write pbemd.db: input/output error")
			}
		}
		return nil
	})
	powers := []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"}
	orders := map[string][]string{
		"austria": {"A Vie H", "A Vie - Gal"}, "england": {"F Lon H", "F Lon - Nth"}, "france": {"A Par H", "A Par - Bur"},
		"germany": {"A Ber H", "A Ber - Kie"}, "italy": {"A Rom H", "A Rom - Apu"}, "russia": {"A Mos H", "A Mos - Ukr"},
		"turkey": {"A Con H", "A Con - Bul"},
	}
	sent := map[string][]string{}
	const mails = 35
	for i := range mails {
		p := powers[i%len(powers)]
		id := e.send(pl[p].addr, tokenAddr(pl[p].token), fmt.Sprintf("%s\n# mail %d", orders[p][i/len(powers)%2], i))
		sent[p] = append(sent[p], id)
	}
	// every mail is in the mailbox and a poll since has tried them
	refused.Store(0)
	for deadline := time.Now().Add(30 * time.Second); refused.Load() < 2; {
		if time.Now().After(deadline) {
			t.Fatalf("the mails were not tried during the fault: %d commits refused", refused.Load())
		}
		e.srv.fetcher.Kick()
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // let the poll in progress end
	before := len(logs.String())
	mode.Store(once)
	e.srv.fetcher.Kick()

	acks := map[string]int{}
	for deadline := time.Now().Add(60 * time.Second); len(acks) < mails; {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d mails acknowledged after the fault", len(acks), mails)
		}
		e.srv.fetcher.Kick()
		for _, p := range powers {
			for _, m := range e.fresh(pl[p].addr) {
				acks[m.InReplyTo]++
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.quiet(e2eGM, "set aside")
	for _, p := range powers {
		for _, m := range e.fresh(pl[p].addr) {
			acks[m.InReplyTo]++
		}
	}
	for _, ids := range sent {
		for _, id := range ids {
			if acks[id] != 1 {
				t.Errorf("mail %s acknowledged %d times", id, acks[id])
			}
		}
	}
	if mode.Load() != ok {
		t.Fatal("the I/O error was never injected")
	}
	if after := logs.String()[before:]; !strings.Contains(after, "handling them one by one") || !strings.Contains(after, "mails=35") {
		t.Errorf("the failed commit was not the batch of all 35 mails; log since:\n%s", after)
	}
	g := e.game("batch")
	if err := e.srv.DB.View(func(tx *store.Tx) error {
		sets, err := tx.OrderSets("batch", g.Phase)
		if err != nil {
			return err
		}
		got := map[string][]string{}
		for _, s := range sets {
			got[s.Power] = append(got[s.Power], s.MsgID)
			if f, _ := tx.MailFailures(s.MsgID); f.Count != 0 {
				t.Errorf("mail %s counted %d failures", s.MsgID, f.Count)
			}
		}
		for _, p := range powers {
			if strings.Join(got[p], " ") != strings.Join(sent[p], " ") {
				t.Errorf("%s: order sets %v, want %v", p, got[p], sent[p])
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
