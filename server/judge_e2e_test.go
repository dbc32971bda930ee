package server

import (
	"strings"
	"testing"
	"time"
)

// TestE2EJudgeAnswers: over the embedded mail server, the answers of
// issue 16 a player meets: CREATE names the address to write to, JOIN
// echoes the ranking, WHATIF previews only the sender's orders, results
// show the position, and orders after the end are told it is over.
func TestE2EJudgeAnswers(t *testing.T) {
	e := newE2E(t)
	gm, pl := e.standardGame("j1")
	_, created := e.createOnly("j0")
	mustContain(t, created.Text, "Players join by writing to gm@pbemd.localhost")
	e.send("newbie@pbemd.localhost", "gm@pbemd.localhost", "JOIN j0 prefer tur > eng")
	mustContain(t, e.next("newbie@pbemd.localhost", "Re:").Text, "I read your preference as: Turkey > England.")

	aus, rus := pl["austria"], pl["russia"]
	e.send(rus.addr, tokenAddr(rus.token), "A War-Gal")
	e.next(rus.addr, "Re:")
	e.send(aus.addr, tokenAddr(aus.token), "A Vie-Gal\nWHATIF")
	ack := e.next(aus.addr, "Re:")
	mustContain(t, ack.Text, "Orders received for Austria", "WHATIF for Austria", "A Vie - Gal", "succeeded")
	if strings.Contains(ack.Text, "Russia") || strings.Contains(ack.Text, "War") {
		t.Errorf("the preview shows something of Russia's orders:\n%s", ack.Text)
	}

	e.clock.Add(48 * time.Hour)
	e.srv.Kick()
	res := e.next(aus.addr, "Spring 1901 Movement — results")
	_, pos, ok := strings.Cut(res.Text, "--- the position now ---")
	if !ok {
		t.Fatalf("results without the position:\n%s", res.Text)
	}
	mustContain(t, pos, "Austria: 3 centres", "Russia: 4 centres")

	e.send(e2eGM, tokenAddr(gm), "END DRAW")
	e.next(e2eGM, "Re:")
	e.settle(aus.addr)
	e.send(aus.addr, tokenAddr(aus.token), "A Vie-Bud")
	mustContain(t, e.next(aus.addr, "Re:").Text, "The game j1 is over (draw: ")
}
