package daemon

import (
	"strings"
	"testing"
	"time"
)

// Each player's results give the next deadline in their own zone, with
// their own power's private part, though players alike share one text
// (publishResults): red's senior and junior share a private part, not a
// zone.
func TestResultsInEachPlayersZone(t *testing.T) {
	h := newHarness(t)
	_, tok := h.startToy("g60", "")
	junior := h.addJunior("g60", "red", tok["red"], "deputy@example.test")
	h.as(junior, "SET ZONE America/New_York")
	h.outbox()
	h.clock.Add(48 * time.Hour)
	h.tick()
	ms := h.outbox()
	red, jun, blue := h.only(ms, tok["red"].addr), h.only(ms, junior.addr), h.only(ms, tok["blue"].addr)
	mustContain(t, jun.Subject, "results")
	mustContain(t, jun.Text, "private note for red", "EST (America/New_York)")
	mustContain(t, red.Text, "private note for red", "orders due by")
	mustContain(t, blue.Text, "private note for blue", "orders due by")
	for _, m := range []sent{red, blue} {
		if strings.Contains(m.Text, "America/New_York") {
			t.Errorf("%s got the junior's zone:\n%s", m.To, m.Text)
		}
	}
	if strings.Contains(blue.Text, "private note for red") {
		t.Errorf("blue got red's private part:\n%s", blue.Text)
	}
}
