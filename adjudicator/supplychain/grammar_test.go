package supplychain

import (
	"fmt"
	"strings"
	"testing"

	"pbemd/adjudicator"
)

// The order language: what a player writes and the canonical lines
// stored; see the package comment for the leniencies.
func TestGrammar(t *testing.T) {
	e := engine(t, "supplychain-3")
	g := actionGame(t)
	g.giveHand(t, 0, "SO3", "WF2")
	g.giveHand(t, 1, "FF2")
	st := g.encode()
	for _, tc := range []struct {
		text string
		want string // canonical lines joined by " | ", or "error: <part of the message>"
	}{
		{"buy LM1", "BUY LM1 FROM LISTING"},
		{"Purchase the Lumber Mill from the listing", "BUY LM1 FROM LISTING"},
		{"BUY Lumbr Mill FROM LISTING", "BUY LM1 FROM LISTING"},
		{`buy "Lumber Mill"`, "BUY LM1 FROM LISTING"},
		{"buy logs contract from contracts", "BUY KLG1 FROM CONTRACTS"},
		{"buy small truck", "BUY VS1 FROM VEHICLES"},
		{"buy OF1 from the offices", "error: law B"},
		{"blind purchase", "BLIND"},
		{"buy blind", "BLIND"},
		{"sell WF2 to Blue for $1,200", "TRADE WITH blue GIVE WF2 GET $1200"},
		{"sell WF2 to blue for 300$", "TRADE WITH blue GIVE WF2 GET $300"},
		{"buy FF2 from blue for $600", "TRADE WITH blue GIVE $600 GET FF2"},
		{"trade WF2 for FF2 with blue", "TRADE WITH blue GIVE WF2 GET FF2"},
		{"trade with blue WF2 + $100 for FF2", "TRADE WITH blue GIVE WF2, $100 GET FF2"},
		{"trade SO3 and WF2 for FF2 with blue", "TRADE WITH blue GIVE SO3, WF2 GET FF2"},
		{"swap SO3 for the wheat farm", "SWAP SO3 FOR WF1"},
		{"place WF2 at (1,0) rotated 180", "PLACE WF2 AT 1,0 TURN 2"},
		{"place WF2 east of main office", "PLACE WF2 AT 1,0 TURN 2"},
		{"place WF2 right of MO2", "PLACE WF2 AT 1,0 TURN 2"},
		{"PLACE WF2 AT 1 0 TURN 2", "PLACE WF2 AT 1,0 TURN 2"},
		{"lay WF2 at 1/0 rot 2", "PLACE WF2 AT 1,0 TURN 2"},
		{"place WF2 at -1,0 turn -1", "error: not linked"},
		{"place WF2 at 1,0 turn 0\ntoken at 1,0 w", "PLACE WF2 AT 1,0 TURN 0 | TOKEN AT 0,0 E"},
		{"collect revenue", "REVENUE"},
		{"revenue from the main office", "REVENUE FROM MO2"},
		{"discard WF2 and SO3\npass", "DISCARD WF2 | DISCARD SO3 | PASS"},
		{"discard WF2", "error: PASS to end the turn"},
		{"spin MO2\npass", "SPIN MO2 1 | PASS"},
		{"rotate MO2 by 3\nrevenue", "SPIN MO2 3 | REVENUE"},
		{"pass", "PASS"},
		{"buy", "error: a card is missing"},
		{"place WF2", "error: say where"},
		{"place WF2 at 1,0 turn 5", "error: a turn is 0, 1, 2 or 3"},
		{"ask blue about money", "error: OFFICES, CONTRACTS or VEHICLES"},
		{"sell WF2 to nobody for $5", "error: player"},
		{"trade WF2 for FF2", "error: say whom you trade with"},
		{"swap SO3", "error: SWAP <hand card> FOR <listed card>"},
		{"buy LM1 from listing please", "error: not understood"},
		{"place WF2 at 1,0 turn 2\nfrobnicate the market", "PLACE WF2 AT 1,0 TURN 2"},
		// After a trade for a card of the partner's hand, the rest is
		// stored as written (checked after the answer).
		{"buy lumber mill from blue for $300\nplace lumber mill east of main office", `TRADE WITH blue GIVE $300 GET "Lumber Mill" | PLACE "Lumber Mill" EAST OF main office`},
	} {
		t.Run(tc.text, func(t *testing.T) {
			c, err := e.Check(st, "red", tc.text)
			if err != nil {
				t.Fatal(err)
			}
			var errs []string
			for _, l := range c.Lines {
				for _, d := range l.Diags {
					errs = append(errs, d.Message)
				}
			}
			got := strings.Join(c.Canonical, " | ")
			if strings.HasPrefix(tc.want, "error: ") {
				if got != "" || !strings.Contains(strings.Join(errs, "; "), strings.TrimPrefix(tc.want, "error: ")) {
					t.Errorf("canonical %q, diagnostics %q; want %s", got, errs, tc.want)
				}
				return
			}
			if got != tc.want {
				t.Errorf("canonical %q, want %q (diagnostics %q)", got, tc.want, errs)
			}
			again, _ := e.Check(st, "red", strings.Join(c.Canonical, "\n"))
			if strings.Join(again.Canonical, " | ") != got {
				t.Errorf("canonical lines check as %q", again.Canonical)
			}
		})
	}
}

// The solo game through the engine: mails, reports, the end.
func TestSoloThroughEngine(t *testing.T) {
	e := engine(t, "supplychain-solo")
	var last string
	final := engineGame(t, e, 5, func(_ []byte, out adjudicator.Outcome, _ map[string][]string) {
		last = out.Report.Public
		if !strings.Contains(out.Report.Private["red"], "Solo game") {
			t.Errorf("private report %q", out.Report.Private["red"])
		}
	})
	s, _ := e.Status(final)
	if !s.Over || fmt.Sprint(s.Winners()) != "[red]" || !strings.Contains(last, "contract") || !strings.Contains(last, "Winner: Red") {
		t.Errorf("status %+v\n%s", s, last)
	}
}
