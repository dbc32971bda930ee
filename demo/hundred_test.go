package demo

import (
	"bytes"
	"strings"
	"testing"
)

// The demo's year limit counts game years, not the years a map writes:
// one year of Hundred, whose turns go by fives, is its 1425 and 1430
// turns (with their adjustments), not the 1425 turn alone.
func TestDemoHundredYear(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	res, err := Run(demoContext(t), Options{Variant: "hundred", Seed: testSeed, Years: 1, Out: &out, Logger: testLogger(t), Timeout: mailTimeout})
	if err != nil {
		t.Fatalf("demo: %v\noutput so far:\n%s", err, out.String())
	}
	if res.Variant != "hundred" || len(res.Players) != 3 {
		t.Fatalf("played %s with %d players, want hundred with 3", res.Variant, len(res.Players))
	}
	for _, want := range []string{"S1425M 1425 Movement", "F1430M 1430 Movement"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "1435 Movement") {
		t.Errorf("the demo played on past its one year:\n%s", out.String())
	}
}
