package diplomacy_test

import (
	"regexp"
	"strings"
	"testing"

	"pbemd/adjudicator"
	_ "pbemd/adjudicator/diplomacy"
	"pbemd/daemon/daemontest"
	"pbemd/store"
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
		daemontest.Contains(t, help, "Now, in Spring 450 AUC Movement: a new order for an army or fleet replaces its earlier one; your other units keep theirs.")
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

// The engine's Bot (adjudicator.Bot, what the demo's scripted players
// use) writes orders a player may mail as they are: every power's are
// stored without a misorder.
func TestBotOrdersAreMailable(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("am2", "ancientmed", "")
	powers := []string{"rome", "carthage", "greece", "egypt", "persia"}
	ps := tb.SignUp("am2", powers)
	e, _ := adjudicator.Lookup("ancientmed")
	bot, ok := e.(adjudicator.Bot)
	if !ok {
		t.Fatal("the Diplomacy engine has no Bot")
	}
	var state []byte
	if err := tb.DB.View(func(tx *store.Tx) (err error) { state, err = tx.State("am2"); return err }); err != nil {
		t.Fatal(err)
	}
	for i, p := range powers {
		text, err := bot.BotOrders(state, p, int64(i))
		if err != nil || text == "" {
			t.Fatalf("%s: %q, %v", p, text, err)
		}
		tb.As(ps[p], text)
		ack := daemontest.One(t, tb.Outbox(), ps[p].Addr, "Re:").Text
		daemontest.Contains(t, ack, "Orders received")
		daemontest.Lacks(t, ack, "Please look again", "has no order")
	}
}
