package daemon_test

import (
	"testing"
	"time"

	"pbemd/daemon/daemontest"
)

// Issue 16 item 4: the reliability record of an address, across the games
// of this daemon. England orders Spring 1901, Germany does not: at the
// deadline England's record counts a phase on time, Germany's a missed
// one; each sees it in their own STATUS. The phase processed again after
// ROLLBACK counts once. RESIGN and the end of a game count too. A game
// with min_ontime=50 refuses Germany's sign-up and takes England's and a
// newcomer's; the GM's STATUS shows each sign-up's record.
func TestReliabilityRecord(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("r1", "standard", "")
	pl := tb.SignUp("r1", standardPowers)
	tb.As(pl["england"], "F Lon - Nth")
	tb.Outbox()
	status := func(p daemontest.Player) string {
		t.Helper()
		tb.As(p, "STATUS")
		return reply(t, tb.Outbox(), p.Addr).Text
	}
	daemontest.Contains(t, status(pl["england"]), "Your record on this game master: nothing counted yet.")

	process := func() {
		t.Helper()
		tb.Send(daemontest.GM, gm, "PROCESS")
		tb.Tick()
		tb.Outbox()
	}
	process()
	daemontest.Contains(t, status(pl["england"]), "Your record on this game master: 1 phase ordered on time, 0 late, 0 missed (100% on time); 0 games finished, 0 resigned.")
	daemontest.Contains(t, status(pl["germany"]), "Your record on this game master: 0 phases ordered on time, 0 late, 1 missed (0% on time); 0 games finished, 0 resigned.")

	tb.Send(daemontest.GM, gm, "ROLLBACK")
	tb.Outbox()
	process()
	daemontest.Contains(t, status(pl["england"]), "1 phase ordered on time, 0 late, 0 missed (100% on time)")
	daemontest.Contains(t, status(pl["germany"]), "0 phases ordered on time, 0 late, 1 missed (0% on time)")

	tb.As(pl["germany"], "RESIGN")
	tb.Outbox()
	tb.Send(daemontest.GM, gm, "END DRAW")
	tb.Outbox()
	daemontest.Contains(t, status(pl["england"]), "1 phase ordered on time, 0 late, 0 missed (100% on time); 1 game finished, 0 resigned.")

	gm2 := tb.Create("r2", "standard", "min_ontime=50")
	tb.Send("germany@example.test", "", "JOIN r2")
	daemontest.Contains(t, reply(t, tb.Outbox(), "germany@example.test").Text,
		"JOIN r2: r2 takes players who ordered on time in at least 50% of their phases on this game master; your record: 0 phases ordered on time, 0 late, 1 missed (0% on time); 0 games finished, 1 resigned. You were not signed up.")
	tb.Send("england@example.test", "", "JOIN r2 prefer England")
	daemontest.Contains(t, reply(t, tb.Outbox(), "england@example.test").Text, "You are signed up for r2 (1 of 7 players)")
	tb.Send("newcomer@example.test", "", "JOIN r2")
	tb.Outbox()
	tb.Send(daemontest.GM, gm2, "STATUS")
	daemontest.Contains(t, reply(t, tb.Outbox(), daemontest.GM).Text,
		"The players' records and ratings on this game master (for you, the GM):\n",
		"  england@example.test (signed up): 1 phase ordered on time, 0 late, 0 missed (100% on time); 1 game finished, 0 resigned; rating 1",
		"  newcomer@example.test (signed up): nothing counted yet; rating 1500 (new: no rated game yet)\n")
}

// Issue 28 item 5: the record counts a phase as the results report it.
// England orders in its grace (the results say "Ordered after the
// deadline: England"): late, not on time; Germany never orders: missed;
// France orders before the deadline: on time. STATUS shows the three.
func TestRecordCountsLateAsTheResultsDo(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("rl", "standard", "late=grace")
	pl := tb.SignUp("rl", standardPowers)
	for _, p := range standardPowers {
		if p != "england" && p != "germany" {
			tb.As(pl[p], "READY")
		}
	}
	tb.As(pl["france"], "A Par H")
	tb.Outbox()
	tb.Wait(49 * time.Hour) // past the deadline: England and Germany have their grace
	tb.Outbox()
	tb.As(pl["england"], "F Lon H")
	tb.Outbox()
	tb.Wait(25 * time.Hour) // Germany's grace runs out
	res := daemontest.One(t, tb.Outbox(), pl["france"].Addr, "results").Text
	daemontest.Contains(t, res, "Ordered after the deadline: England.", "Sent no orders (civil disorder): Germany.")
	status := func(p daemontest.Player) string {
		t.Helper()
		tb.As(p, "STATUS")
		return reply(t, tb.Outbox(), p.Addr).Text
	}
	daemontest.Contains(t, status(pl["england"]), "Your record on this game master: 0 phases ordered on time, 1 late, 0 missed (0% on time)")
	daemontest.Contains(t, status(pl["germany"]), "Your record on this game master: 0 phases ordered on time, 0 late, 1 missed (0% on time)")
	daemontest.Contains(t, status(pl["france"]), "Your record on this game master: 1 phase ordered on time, 0 late, 0 missed (100% on time)")
}
