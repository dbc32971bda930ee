package daemon

import (
	"testing"
)

// TestAlertsOfAKindAreHeldBackAndCounted: within a quarter of an hour
// only the first alert of a kind goes out; the next one after it says how
// many were held back. Other kinds are not held back by it.
func TestAlertsOfAKindAreHeldBackAndCounted(t *testing.T) {
	h := newHarness(t)
	alert := func(kind, text string) {
		t.Helper()
		if err := h.d.update(func(tx *txn) error { return h.d.alertLimited(tx, nil, kind, "Something", text) }); err != nil {
			t.Fatal(err)
		}
	}
	alert(alertUndeliverable, "first")
	alert(alertUndeliverable, "second")
	alert(alertUndeliverable, "third")
	alert(alertSetAside, "other kind")
	ms := h.outbox()
	if len(ms) != 2 {
		t.Fatalf("%d alerts sent, want 2 (one per kind)", len(ms))
	}
	mustContain(t, ms[0].Text+ms[1].Text, "first", "other kind")
	h.clock.Add(alertEvery)
	alert(alertUndeliverable, "fourth")
	m := h.only(h.outbox(), harnessGM)
	mustContain(t, m.Text, "fourth", "2 more alerts of this kind were held back")
	if m.Parsed.Header(AlertHeader) == "" {
		t.Error("an alert without the X-Pbemd-Alert header")
	}
}
