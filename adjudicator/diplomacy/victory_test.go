package diplomacy

import (
	"os"
	"strings"
	"testing"
)

// TestVictoryBelowMajority: a map may set its mark below a majority when
// it says so ("victory 1 | below-majority" on trio); then the power with
// the most centres at or over the mark wins, and equal counts give no
// winner (testdata/victory).
func TestVictoryBelowMajority(t *testing.T) {
	data, err := os.ReadFile("testdata/maps/trio.map")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "victory 2\n", "victory 1 | below-majority\n", 1)
	if text == string(data) {
		t.Fatal("trio.map has no line victory 2")
	}
	m, err := ParseMap("trio.map", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if m.Victory != 1 {
		t.Fatalf("victory %d", m.Victory)
	}
	for _, c := range loadCases(t, "testdata/victory/*.txt") {
		t.Run(c.name, func(t *testing.T) { runCaseOn(t, m, c) })
	}
}
