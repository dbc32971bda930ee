package server

import (
	"strings"
	"testing"
	"time"

	"pbemd/store"
)

// holdOrders is one hold order for a home unit of each standard power.
var holdOrders = map[string]string{
	"austria": "A Vie H", "england": "F Lon H", "france": "A Par H", "germany": "A Ber H",
	"italy": "A Rom H", "russia": "A Mos H", "turkey": "A Con H",
}

// TestE2ELateGraceAndReliabilityRecord: over the embedded mail server,
// issue 16 items 1 and 4. In a game with late=grace, Italy has no orders
// at the deadline: Italy gets the late notice, the others are told the
// game waits; Italy's orders in its grace process the phase, and the
// results name Italy as late. England's STATUS then shows its record.
func TestE2ELateGraceAndReliabilityRecord(t *testing.T) {
	e := newE2E(t)
	gm, pl := e.standardGame("g1")
	e.send(e2eGM, tokenAddr(gm), "SET late=grace\nSET grace=24h")
	mustContain(t, e.next(e2eGM, "Re:").Text, "late grace (grace 24 hours")
	for p, o := range holdOrders {
		if p == "italy" {
			continue
		}
		e.send(pl[p].addr, tokenAddr(pl[p].token), o)
		mustContain(t, e.next(pl[p].addr, "Re:").Text, "Orders received for")
	}
	ita, eng := pl["italy"], pl["england"]

	e.clock.Add(48 * time.Hour)
	e.srv.Kick()
	late := e.next(ita.addr, "Late: Spring 1901 Movement orders")
	mustContain(t, late.Text, "I have none from Italy", "The game waits for you until Wed 9 Dec 2026 21:00 UTC")
	mustContain(t, e.next(eng.addr, "Deadline moved").Text, "no orders from Italy", "The game waits for Italy until Wed 9 Dec 2026 21:00 UTC", "late policy: grace")
	e.quiet(eng.addr, "results")
	if g := e.game("g1"); g.PhaseID != "S1901M" {
		t.Fatalf("processed at the deadline although Italy has its grace: %s", g.PhaseID)
	}

	e.clock.Add(3 * time.Hour)
	e.send(ita.addr, tokenAddr(late.Token), "A Rom H")
	mustContain(t, e.next(ita.addr, "Re:").Text, "Orders received for Italy")
	e.srv.Kick()
	res := e.next(eng.addr, "Spring 1901 Movement — results")
	mustContain(t, res.Text, "Late: no orders from Italy at the deadline (Tue 8 Dec 2026 21:00 UTC).",
		"The game waited for Italy (late=grace).", "Ordered after the deadline: Italy.")

	e.settle(eng.addr)
	e.send(eng.addr, tokenAddr(eng.token), "STATUS")
	mustContain(t, e.next(eng.addr, "Re:").Text,
		"Your record on this game master: 1 phase ordered on time, 0 late, 0 missed (100% on time); 0 games finished, 0 resigned.")
}

// TestE2EOpenSeatTakenOver: over the embedded mail server, issue 16 item
// 2. England's player resigns; LIST shows the open seat; a newcomer's
// JOIN <game> as England reaches the GM; the GM's ACCEPT gives the
// newcomer the position, the last results and the deadline, and France is told England has
// a new player; the newcomer's orders are England's.
func TestE2EOpenSeatTakenOver(t *testing.T) {
	e := newE2E(t)
	gm, pl := e.standardGame("s1")
	e.send(e2eGM, tokenAddr(gm), "PROCESS")
	mustContain(t, e.next(e2eGM, "Re:").Text, "processed now")
	eng, fra := pl["england"], pl["france"]
	e.next(fra.addr, "Spring 1901 Movement — results")
	e.settle(e2eGM, eng.addr, fra.addr)

	e.send(eng.addr, tokenAddr(eng.token), "RESIGN")
	e.next(eng.addr, "Re:")
	mustContain(t, e.next(e2eGM, "Player resigned").Text, "has resigned from s1")

	const nw = "newcomer@pbemd.localhost"
	e.send(nw, "gm@pbemd.localhost", "LIST")
	mustContain(t, e.next(nw, "Re:").Text, "open seat: England (JOIN s1 as <power>)")
	e.send(nw, "gm@pbemd.localhost", "JOIN s1 as England")
	mustContain(t, e.next(nw, "Re:").Text, "I have asked the GM of s1 to let you take over England")
	ask := e.next(e2eGM, nw+" asks to take over England")
	mustContain(t, ask.Text, "Their record on this game master: nothing counted yet", "ACCEPT "+nw)
	e.quiet(fra.addr, "England")

	e.send(e2eGM, tokenAddr(gm), "ACCEPT "+nw)
	mustContain(t, e.next(e2eGM, "Re:").Text, nw+" now plays England in s1")
	welcome := e.next(nw, "You are England")
	mustContain(t, welcome.Text,
		"You take over England in s1 (an open seat, approved by the GM)",
		"The game is in Fall 1901 Movement; orders are due by Fri 11 Dec 2026 21:00 UTC.",
		"The position now:", "England: 3 centres (Edi Lon Lvp)",
		"The last results (Spring 1901 Movement):")
	told := e.next(fra.addr, "New player for England")
	mustContain(t, told.Text, "England has a new player, who took over the open seat (approved by the GM)")
	if strings.Contains(told.Text, nw) {
		t.Errorf("the others are told the newcomer's address:\n%s", told.Text)
	}
	e.send(nw, tokenAddr(welcome.Token), "F Lon - Nth")
	mustContain(t, e.next(nw, "Re:").Text, "Orders received for England, Fall 1901 Movement", "F Lon - Nth")
}

// TestE2EAbsenceAnnounced: over the embedded mail server, issue 16 item
// 3. Italy's player announces an absence: the reply counts the
// allowance, the others and the GM are told the schedule and the moved
// deadline.
func TestE2EAbsenceAnnounced(t *testing.T) {
	e := newE2E(t)
	_, pl := e.standardGame("a1")
	ita := pl["italy"]
	e.send(ita.addr, tokenAddr(ita.token), "SET ABSENCE from 2026-12-08 to 2026-12-09")
	mustContain(t, e.next(ita.addr, "Re:").Text,
		"Your absence from Tue 8 Dec 2026 to Wed 9 Dec 2026 (2 days) is noted; 12 of your 14 days of absence in a1 are left.")
	for _, addr := range []string{pl["austria"].addr, pl["turkey"].addr, e2eGM} {
		mustContain(t, e.next(addr, "Schedule: an absence").Text,
			"The player of Italy will be away from Tue 8 Dec 2026 to Wed 9 Dec 2026",
			"The deadline of Spring 1901 Movement moves from Tue 8 Dec 2026 21:00 UTC to Thu 10 Dec 2026 21:00 UTC.")
	}
	e.clock.Add(48 * time.Hour)
	e.srv.Kick()
	e.quiet(pl["austria"].addr, "results")
	e.clock.Add(48 * time.Hour)
	e.srv.Kick()
	e.next(pl["austria"].addr, "Spring 1901 Movement — results")
}

// TestE2ESmallerDrawEndsTheGame: over the embedded mail server, issue 16
// item 5. Every survivor votes DRAW England France; the votes are secret
// until the last, which ends the game: every player gets the end mail.
func TestE2ESmallerDrawEndsTheGame(t *testing.T) {
	e := newE2E(t)
	_, pl := e.standardGame("d1")
	powers := []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"}
	for i, p := range powers {
		e.send(pl[p].addr, tokenAddr(pl[p].token), "DRAW England France")
		mustContain(t, e.next(pl[p].addr, "Re:").Text, "a draw shared by England and France")
		if i == 0 {
			e.quiet(pl["germany"].addr, "[d1]")
		}
	}
	for _, p := range powers {
		mustContain(t, e.next(pl[p].addr, "Game over").Text,
			"d1 is over. The surviving powers agreed on a draw shared by England and France; the other survivors lose.")
	}
	if g := e.game("d1"); g.Status != store.Finished || g.EndedAs != "draw" {
		t.Errorf("after the draw: %s %s", g.Status, g.EndedAs)
	}
}
