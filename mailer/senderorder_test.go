package mailer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSenderKickReadsTheQueueAgain: an answer queued (and kicked) while
// the sender works through a batch of bulk mail goes right after the
// mail in flight, not after the rest of the batch.
func TestSenderKickReadsTheQueueAgain(t *testing.T) {
	srv := startScriptSMTP(t, nil)
	q := newMemQueue()
	for i := range 40 {
		q.add(outMail(t, fmt.Sprintf("p%d@x.org", i)), time.Now())
	}
	answer := outMail(t, "asker@x.org")
	s, _ := NewSender(testSMTPConfig(srv.addr()), q, SenderOptions{Logger: testLogger(t)})
	srv.mu.Lock()
	srv.afterData = func(n int) {
		if n == 3 { // the third bulk mail is in flight: its 250 is not sent yet
			q.addPersonal(answer, time.Now())
			s.Kick()
		}
	}
	srv.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Run(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for len(srv.deliveries()) < 41 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v", err)
	}
	ds := srv.deliveries()
	at := slices.IndexFunc(ds, func(d delivery) bool { return strings.Contains(d.raw, answer.MessageID) })
	if len(ds) != 41 || at != 3 {
		t.Fatalf("the answer was mail %d of %d delivered, want the 4th of 41 (right after the mail in flight)", at+1, len(ds))
	}
}
