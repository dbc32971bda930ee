package daemon

import (
	"strings"
	"testing"
	"time"
)

// holdAllBut sends a hold order for every ancient power but those named.
func (h *harness) holdAllBut(pl map[string]player, skip ...string) {
	h.t.Helper()
	units := map[string]string{"carthage": "A Car H", "egypt": "A Mem H", "greece": "A Ath H", "persia": "A Dam H", "rome": "A Rom H"}
	for _, p := range ancientPowers {
		if !strings.Contains(strings.Join(skip, " "), p) {
			h.as(pl[p], units[p])
		}
	}
	h.outbox()
}

// Issue 16 item 1: at a deadline a power that has not ordered is, by the
// game's late policy, processed anyway (the default, as before), waited
// for with its grace, or waited for by extending the deadline for
// everyone up to a limit. The results say who was late.
func TestLatePolicies(t *testing.T) {
	t.Run("process: the results name the late", func(t *testing.T) {
		h := newHarness(t)
		_, pl := h.startAncient("proc", "")
		h.holdAllBut(pl, "rome", "egypt")
		ms := h.until(at(8))
		text := h.results(ms, "greece@example.test")
		mustContain(t, text, "Late: no orders from Egypt, Rome at the deadline (Tue 8 Dec 2026 21:00 UTC): civil disorder.")
		h.holdAllBut(pl)
		ms = h.until(at(11))
		if text := h.results(ms, "greece@example.test"); strings.Contains(text, "Late") {
			t.Errorf("everyone ordered, yet the results say someone was late:\n%s", text)
		}
	})

	t.Run("grace: once per player per N phases", func(t *testing.T) {
		h := newHarness(t)
		_, pl := h.startAncient("gr", "late=grace grace=24h grace_every=3")
		h.holdAllBut(pl, "rome")
		ms := h.until(at(8))
		for _, m := range ms {
			if strings.Contains(m.Subject, "results") {
				t.Fatalf("the phase was processed at the deadline although Rome has its grace: %s", m.Subject)
			}
		}
		late := h.only(ms, "rome@example.test")
		mustContain(t, late.Subject, "Late: Spring 450 AUC Movement orders")
		mustContain(t, late.Text, "I have none from Rome", "The game waits for you until Wed 9 Dec 2026 21:00 UTC", "once every 3 phases")
		others := h.subject(ms, "greece@example.test", "Deadline moved")
		mustContain(t, others.Text, "no orders from Rome", "The game waits for Rome until Wed 9 Dec 2026 21:00 UTC", "late policy: grace")
		mustContain(t, h.subject(ms, harnessGM, "Deadline moved").Text, "waits for Rome")

		// The late notice was the reminder: no second mail at the next
		// tick, only the 2-hour reminder is still to come.
		if ms := h.until(at(8).Add(time.Minute)); len(ms) != 0 {
			t.Fatalf("a minute after the late notice: %s to %s", ms[0].Subject, ms[0].To)
		}
		if g := h.game("gr"); len(g.Reminded) != 1 || g.Reminded[0] != 24*time.Hour {
			t.Fatalf("reminders marked sent in the grace: %v, want only the 24-hour one", g.Reminded)
		}
		// Rome orders within its grace: the phase is processed at once.
		h.clock.Add(3 * time.Hour)
		// Its acknowledgement says so (issue 28 item 4), not that Rome may
		// send new orders until the deadline.
		h.as(pl["rome"], "A Rom H")
		ack := h.reply(h.outbox(), "rome@example.test").Text
		mustContain(t, ack, "The deadline of Spring 450 AUC Movement has passed and the game waited only for late orders: with these it is processed now (within the minute), and no new orders for it are taken.")
		if strings.Contains(ack, "You may send new orders until the deadline") {
			t.Errorf("Rome's late orders are acknowledged as if the deadline were ahead:\n%s", ack)
		}
		ms = h.until(h.clock.Now())
		text := h.results(ms, "greece@example.test")
		mustContain(t, text, "Late: no orders from Rome at the deadline (Tue 8 Dec 2026 21:00 UTC).",
			"The game waited for Rome (late=grace).", "Ordered after the deadline: Rome.",
			"Fall 450 AUC Movement: orders due by Fri 11 Dec 2026 21:00 UTC")

		// Late again in the next phase: its grace was used within 3
		// phases, so the game does not wait.
		h.holdAllBut(pl, "rome")
		ms = h.until(at(11))
		mustContain(t, h.results(ms, "greece@example.test"), "Late: no orders from Rome at the deadline (Fri 11 Dec 2026 21:00 UTC): civil disorder.")
		// Three phases on, Rome has a grace again.
		h.holdAllBut(pl)
		h.until(at(15))
		h.holdAllBut(pl, "rome")
		ms = h.until(at(18))
		mustContain(t, h.only(ms, "rome@example.test").Subject, "Late: Fall 451 AUC Movement orders")
		// Nobody orders in the grace: Rome is reminded 2 hours before its
		// end, and the phase is processed at its end.
		ms = h.until(at(19).Add(-2 * time.Hour))
		mustContain(t, h.only(ms, "rome@example.test").Subject, "Reminder: Fall 451 AUC Movement orders due")
		ms = h.until(at(19))
		mustContain(t, h.results(ms, "greece@example.test"), "The game waited for Rome (late=grace).", "Sent no orders (civil disorder): Rome.")
	})

	t.Run("extend: for everyone, up to a limit", func(t *testing.T) {
		h := newHarness(t)
		gm, pl := h.startAncient("ext", "")
		h.send(harnessGM, gm, "SET late=extend\nSET grace=12h\nSET late_limit=24h")
		mustContain(t, h.reply(h.outbox(), harnessGM).Text, "late extend (grace 12 hours", "late_limit 24 hours")
		h.holdAllBut(pl, "rome", "persia")
		ms := h.until(at(8))
		mustContain(t, h.subject(ms, "greece@example.test", "Deadline moved").Text, "no orders from Persia, Rome", "until Wed 9 Dec 2026 09:00 UTC")
		mustContain(t, h.only(ms, "rome@example.test").Text, "The deadline moves to Wed 9 Dec 2026 09:00 UTC for everyone", "at most until Wed 9 Dec 2026 21:00 UTC")
		h.as(pl["persia"], "A Dam H")
		mustContain(t, h.reply(h.outbox(), "persia@example.test").Text,
			"The deadline of Spring 450 AUC Movement has passed; the game waits for late orders from Rome (now until Wed 9 Dec 2026 09:00 UTC) and is processed as soon as they come; until then")
		ms = h.until(at(9).Add(-12 * time.Hour))
		mustContain(t, h.subject(ms, "greece@example.test", "Deadline moved").Text, "no orders from Rome.", "until Wed 9 Dec 2026 21:00 UTC")
		ms = h.until(at(9))
		text := h.results(ms, "greece@example.test")
		mustContain(t, text, "Late: no orders from Persia, Rome at the deadline (Tue 8 Dec 2026 21:00 UTC).",
			"The game waited for Persia, Rome (late=extend).", "Ordered after the deadline: Persia.", "Sent no orders (civil disorder): Rome.")
	})

	t.Run("READY is never late", func(t *testing.T) {
		h := newHarness(t)
		_, pl := h.startAncient("rdy", "late=grace")
		h.holdAllBut(pl, "rome")
		h.as(pl["rome"], "READY")
		h.outbox()
		ms := h.until(at(8))
		if text := h.results(ms, "greece@example.test"); strings.Contains(text, "Late") {
			t.Errorf("Rome said READY, yet the game waited or calls it late:\n%s", text)
		}
	})

	t.Run("the GM's PROCESS waits for nobody", func(t *testing.T) {
		h := newHarness(t)
		gm, pl := h.startAncient("now", "late=grace")
		h.holdAllBut(pl, "rome")
		h.send(harnessGM, gm, "PROCESS")
		h.outbox()
		ms := h.until(h.clock.Now())
		if text := h.results(ms, "greece@example.test"); strings.Contains(text, "Late") {
			t.Errorf("the GM processed before the deadline, yet the results call Rome late:\n%s", text)
		}
	})

	t.Run("RULES and HELP say the policy", func(t *testing.T) {
		h := newHarness(t)
		gm, pl := h.startAncient("doc", "late=grace grace=36h grace_every=4")
		h.as(pl["rome"], "RULES")
		mustContain(t, h.reply(h.outbox(), "rome@example.test").Text, "late=grace: at a deadline the game waits 36 hours for a power with no", "once per player every 4 phases")
		h.send(harnessGM, "", "SIGNON GM - sesame\nHELP") // the site GM's: CREATE's options
		mustContain(t, h.reply(h.outbox(), harnessGM).Text, "late=process|grace|extend grace=24h", "calendar=weekly|rolling", "absence=move|pause|off")
		h.send(harnessGM, gm, "SET late=later")
		mustContain(t, h.reply(h.outbox(), harnessGM).Text, "SET refused: option late: late is process, grace or extend")
	})
}
