package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	_ "pbemd/adjudicator/empire" // a game short enough to play to its end
	"pbemd/daemon"
	"pbemd/daemon/daemontest"
	"pbemd/mailer"
	"pbemd/store"
)

// arrived waits until the outbox is empty and returns every mail addr
// has not read yet, in the order the mailbox got them.
func (e *e2e) arrived(addr string) []*mailer.Mail {
	e.t.Helper()
	e.drained()
	got := append(e.inbox[addr], e.fresh(addr)...)
	e.inbox[addr] = nil
	return got
}

// await waits until a mail with subj in its subject has reached addr,
// and keeps it, with those before it, for arrived.
func (e *e2e) await(addr, subj string) {
	e.t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		e.inbox[addr] = append(e.inbox[addr], e.fresh(addr)...)
		for _, m := range e.inbox[addr] {
			if strings.Contains(m.Subject, subj) {
				return
			}
		}
	}
	e.t.Fatalf("no mail to %s with %q in the subject", addr, subj)
}

// drained waits until the outbox is empty: every mail queued so far is
// in its mailbox.
func (e *e2e) drained() {
	e.t.Helper()
	end := time.Now().Add(30 * time.Second)
	for {
		n := -1
		e.srv.DB.View(func(tx *store.Tx) error { n = tx.OutboxLen(); return nil })
		if n == 0 {
			return
		}
		if time.Now().After(end) {
			e.t.Fatalf("the outbox still holds %d mails", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// inOrder fails the test unless the mails' Date headers strictly increase
// in the order they arrived (mail clients sort by Date, to the second),
// and unless the subjects in want are among them in that order.
func inOrder(t *testing.T, who string, ms []*mailer.Mail, want ...string) {
	t.Helper()
	var list strings.Builder
	for i, m := range ms {
		fmt.Fprintf(&list, "  %s  %s\n", m.Date.Format(time.RFC1123Z), m.Subject)
		if i > 0 && !m.Date.After(ms[i-1].Date) {
			t.Errorf("%s: %q (Date %s) arrived after %q (Date %s): the Dates do not increase", who, m.Subject, m.Date.Format(time.RFC1123Z), ms[i-1].Subject, ms[i-1].Date.Format(time.RFC1123Z))
		}
	}
	next := 0
	for _, m := range ms {
		if next < len(want) && strings.Contains(m.Subject, want[next]) {
			next++
		}
	}
	if next < len(want) {
		t.Errorf("%s: %q does not arrive where it should; want %q in this order, got:\n%s", who, want[next], want, list.String())
	}
}

// TestE2EMailsOfOneEventArriveInOrder: issue 28 item 1, over the
// embedded mail server. The last player to join a game hears that their
// mail was read ("Re:"), then their power, then that the game started;
// and at the end of a game every player gets the last results before the
// mail that says the game is over, though the results wait for their
// picture. Every mailbox's Date headers strictly increase in the order
// the mails arrive.
func TestE2EMailsOfOneEventArriveInOrder(t *testing.T) {
	e := newE2E(t)
	welcome := e.next(e2eGM, "Welcome")
	e.send(e2eGM, tokenAddr(welcome.Token), "CREATE o1 empire2 max_rounds=1 max_turns=1 silent_ceasefire=on")
	if created := e.next(e2eGM, "Re:"); !strings.Contains(created.Text, "Game o1 (empire2) created") {
		t.Fatalf("CREATE: %q\n%s", created.Subject, created.Text)
	}
	addrs := []string{"p0@pbemd.localhost", "p1@pbemd.localhost"}
	for _, a := range addrs {
		e.send(a, "gm@pbemd.localhost", "JOIN o1")
		e.await(a, "Re:")
	}
	inOrder(t, addrs[0], e.arrived(addrs[0]), "Re:", "You are", "The game has started")
	inOrder(t, addrs[1], e.arrived(addrs[1]), "Re:", "You are", "The game has started")
	inOrder(t, e2eGM, e.arrived(e2eGM), "The game has started")

	// Nobody sends orders: each deadline processes the phase, until the
	// one round is played.
	for i := 0; e.game("o1").Status != store.Finished; i++ {
		if i == 40 {
			t.Fatalf("the game is not over after %d deadlines: %s", i, e.game("o1").PhaseID)
		}
		phase := e.game("o1").PhaseID
		e.clock.Add(8 * 24 * time.Hour)
		e.srv.Kick()
		for end := time.Now().Add(30 * time.Second); e.game("o1").PhaseID == phase && e.game("o1").Status != store.Finished; {
			if time.Now().After(end) {
				t.Fatalf("the deadline of %s was not processed", phase)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	for _, a := range append(addrs, e2eGM) {
		ms := e.arrived(a)
		if len(ms) == 0 || !strings.Contains(ms[len(ms)-1].Subject, "Game over") {
			var subjects []string
			for _, m := range ms {
				subjects = append(subjects, m.Subject)
			}
			t.Errorf("%s: the last mail is not the one that says the game is over: %q", a, subjects)
		}
		inOrder(t, a, ms, "results", "Game over")
	}
}

// TestGameOverWaitsForTheLastResults: issue 28 item 1. The mail that
// says a game is over follows the last results, which wait for their
// picture: while the picture is not stored (here its write fails), the
// end mail waits too, and once it is drawn every reader gets the
// results, then the end. Each deadline of a short Empire game is played
// so; no mail of a deadline leaves before that deadline's results. (The
// daemon's own test table, without a mail server: the end-to-end test
// above shows the order in the mailboxes, this one holds the pictures
// back for as long as it likes.)
func TestGameOverWaitsForTheLastResults(t *testing.T) {
	var committed atomic.Bool // a deadline's results are in the store
	tb := daemontest.NewWith(t, func(o *daemon.Options) { o.Kick = func() { committed.Store(true) } })
	tb.Create("end1", "empire2", "max_rounds=1 max_turns=1 silent_ceasefire=on")
	tb.SignUp("end1", []string{"red", "blue"})
	disk := errors.New("no space left on device")
	for i := 0; tb.Game("end1").Status != store.Finished; i++ {
		if i == 20 {
			t.Fatalf("the game is not over after %d deadlines", i)
		}
		committed.Store(false)
		tb.DB.SetWriteFault(func(store.Commit) error {
			if committed.Load() { // the pictures' writes, after the results'
				return disk
			}
			return nil
		})
		tb.Advance(8 * 24 * time.Hour)
		if err := tb.D.Tick(context.Background()); !errors.Is(err, disk) {
			t.Fatalf("tick with the pictures' writes failing: %v, want the disk's error", err)
		}
		tb.DB.SetWriteFault(nil)
		for _, m := range tb.Outbox() {
			t.Errorf("deadline %d: %q left for %s before the results, which wait for their picture", i+1, m.Subject, m.To)
		}
		tb.Tick() // draws the pictures
		last := map[string]string{}
		for _, m := range tb.Outbox() {
			if strings.Contains(last[m.To], "Game over") {
				t.Errorf("deadline %d: %q reaches %s after the game-over mail", i+1, m.Subject, m.To)
			}
			last[m.To] = m.Subject
		}
		if len(last) == 0 {
			t.Fatalf("deadline %d: no mail once the pictures are drawn", i+1)
		}
	}
}
