package diplomacy_test

import (
	"regexp"
	"strings"
	"testing"

	_ "pbemd/adjudicator/diplomacy"
	"pbemd/daemon/daemontest"
)

// helpOrders is the order examples of a HELP reply, without their notes.
func helpOrders(t *testing.T, help string) []string {
	t.Helper()
	i := strings.Index(help, "Orders (one per line")
	if i < 0 {
		t.Fatalf("HELP has no order examples:\n%s", help)
	}
	var out []string
	for _, l := range strings.Split(help[i:], "\n")[1:] {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		l, _, _ = strings.Cut(strings.TrimSpace(l), "   (")
		out = append(out, l)
	}
	return out
}

var unitRE = regexp.MustCompile(`^[AF] ([A-Z][a-z]{2})\b`)

// Issue 14: HELP's examples are for the reader's power in the open phase
// (the engine's Exampler): Greece reads Greek units in Ancient
// Mediterranean, not Persia's, every example is an order Greece may give
// now, and the sentence on how a new mail combines is the engine's.
func TestHelpShowsTheReadersOwnUnits(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("am1", "ancientmed", "")
	ps := tb.SignUp("am1", []string{"rome", "carthage", "greece", "egypt", "persia"})
	own := map[string][]string{"greece": {"Ath", "Mac", "Spa"}, "persia": {"Ant", "Dam", "Sid"}}
	for power, places := range own {
		tb.As(ps[power], "HELP")
		help := daemontest.One(t, tb.Outbox(), ps[power].Addr, "Re:").Text
		daemontest.Contains(t, help, "In Spring 450 AUC Movement a new order for an army or fleet replaces its earlier one; your other units keep theirs.")
		examples := helpOrders(t, help)
		units := 0
		for _, ex := range examples {
			if m := unitRE.FindStringSubmatch(ex); m != nil {
				units++
				if !strings.Contains(strings.Join(places, " "), m[1]) {
					t.Errorf("%s's HELP shows %q, not its own unit:\n%s", power, ex, help)
				}
			}
		}
		if units < 3 {
			t.Errorf("%s's HELP has %d unit orders:\n%s", power, units, help)
		}
		// Every example is an order the reader may give now.
		for _, ex := range examples {
			tb.As(ps[power], ex)
			ack := daemontest.One(t, tb.Outbox(), ps[power].Addr, "Re:").Text
			daemontest.Contains(t, ack, "Orders received")
			daemontest.Lacks(t, ack, "Please look again", "could not understand")
		}
	}
}
