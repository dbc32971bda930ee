package daemon_test

import (
	"strings"
	"testing"
	"time"

	"pbemd/daemon"
	"pbemd/daemon/daemontest"
)

var ancientPowers = []string{"carthage", "egypt", "greece", "persia", "rome"}

// tickLimit bounds each tick of these tests: a tick that spins fails the
// test rather than hanging it.
const tickLimit = 10 * time.Second

// exactTable is a table whose deadlines fall exactly the phase's length
// after it opened (no 21:00 slot), so a game started at a sub-second time
// has sub-second deadlines.
func exactTable(t *testing.T) *daemontest.Table {
	return daemontest.NewWith(t, func(o *daemon.Options) { o.Schedule = daemon.Schedule{DeadlineHour: -1, DeadlineZone: "UTC"} })
}

// startAncient creates an Ancient Mediterranean game on the rolling
// calendar with CREATE options opts; every power but Rome orders. It
// returns the GM token and the players.
func startAncient(tb *daemontest.Table, name, opts string) (string, map[string]daemontest.Player) {
	tb.T.Helper()
	gm := tb.Create(name, "ancientmed", "calendar=rolling "+opts)
	pl := tb.SignUp(name, ancientPowers)
	units := map[string]string{"carthage": "A Car H", "egypt": "A Mem H", "greece": "A Ath H", "persia": "A Dam H"}
	for p, u := range units {
		tb.As(pl[p], u)
	}
	tb.Outbox()
	return gm, pl
}

// tickAt moves the clock to at and runs one bounded tick; it returns the
// subjects of the mails to greece@ (every player's mail is the same kind).
func tickAt(tb *daemontest.Table, at time.Time) []string {
	tb.T.Helper()
	if d := at.Sub(tb.Now()); d > 0 {
		tb.Advance(d)
	}
	tb.TickWithin(tickLimit)
	var subjects []string
	for _, m := range tb.Outbox() {
		if m.To == "greece@example.test" {
			subjects = append(subjects, m.Subject)
		}
	}
	return subjects
}

// wantSubjects fails unless got holds exactly one subject with each of
// wants, and nothing else.
func wantSubjects(t *testing.T, when string, got []string, wants ...string) {
	t.Helper()
	if len(got) != len(wants) {
		t.Fatalf("%s: Greece got %q, want one mail about each of %q", when, got, wants)
	}
	for _, w := range wants {
		n := 0
		for _, s := range got {
			if strings.Contains(s, w) {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%s: Greece got %q, want one mail about %q", when, got, w)
		}
	}
}

// Issue 27 item 1: deadlines at sub-second times, ticks within their
// second. A tick before the deadline in its second does nothing and ends;
// one after it applies the game's late policy (process, grace, extend);
// no tick spins, and nothing waits longer than it should.
func TestTicksWithinADeadlinesSecond(t *testing.T) {
	t.Run("process", func(t *testing.T) {
		tb := exactTable(t)
		tb.Advance(300 * time.Millisecond)
		startAncient(tb, "sub", "late=process")
		dl := tb.Game("sub").Deadline
		if dl.Nanosecond() == 0 {
			t.Fatalf("deadline %s is a whole second: the test needs a sub-second one", dl)
		}
		wantSubjects(t, "just before the deadline", tickAt(tb, dl.Add(-200*time.Millisecond)))
		wantSubjects(t, "just after the deadline", tickAt(tb, dl.Add(200*time.Millisecond)), "[sub] Spring 450 AUC Movement — results")
	})

	t.Run("grace", func(t *testing.T) {
		tb := exactTable(t)
		tb.Advance(300 * time.Millisecond)
		startAncient(tb, "sub", "late=grace grace=1m")
		dl := tb.Game("sub").Deadline
		wantSubjects(t, "just before the deadline", tickAt(tb, dl.Add(-200*time.Millisecond)))
		wantSubjects(t, "just after the deadline", tickAt(tb, dl.Add(200*time.Millisecond)), "Deadline moved")
		grace := tb.Game("sub").Deadline
		if !grace.After(dl.Add(200 * time.Millisecond)) {
			t.Fatalf("the grace ends at %s, not after the tick that granted it", grace)
		}
		wantSubjects(t, "just before the grace ends", tickAt(tb, grace.Add(-100*time.Millisecond)))
		wantSubjects(t, "as the grace ends", tickAt(tb, grace), "[sub] Spring 450 AUC Movement — results")
	})

	// The extended game's deadline keeps moving while another game falls
	// due beside it: that one is processed in the same tick, and the GM's
	// PROCESS after an extension still processes.
	t.Run("extend", func(t *testing.T) {
		tb := exactTable(t)
		tb.Advance(300 * time.Millisecond)
		gm, _ := startAncient(tb, "ext", "late=extend grace=1m late_limit=2m")
		dl := tb.Game("ext").Deadline
		tb.Advance(time.Minute)
		startAncient(tb, "side", "")

		wantSubjects(t, "just before the deadline", tickAt(tb, dl.Add(-200*time.Millisecond)))
		wantSubjects(t, "just after the deadline", tickAt(tb, dl.Add(200*time.Millisecond)), "[ext] Deadline moved")
		moved := tb.Game("ext").Deadline
		if side := tb.Game("side").Deadline; side.After(moved.Add(-100 * time.Millisecond)) {
			t.Fatalf("the other game's deadline %s is not before the tick at %s", side, moved.Add(-100*time.Millisecond))
		}
		wantSubjects(t, "just before the moved deadline", tickAt(tb, moved.Add(-100*time.Millisecond)), "[side] Spring 450 AUC Movement — results")
		wantSubjects(t, "at the moved deadline", tickAt(tb, moved), "[ext] Deadline moved")
		limit := tb.Game("ext").Deadline
		if want := dl.Add(2 * time.Minute); limit.After(want) {
			t.Fatalf("extended to %s, past the limit %s", limit, want)
		}
		wantSubjects(t, "just before the limit", tickAt(tb, limit.Add(-100*time.Millisecond)))

		tb.Send(daemontest.GM, gm, "PROCESS")
		tb.Outbox()
		wantSubjects(t, "after the GM's PROCESS", tickAt(tb, tb.Now()), "[ext] Spring 450 AUC Movement — results")
	})
}
