package diplomacy

import (
	"path/filepath"
	"strings"
	"testing"

	"pbemd/orders"
)

// TestReadLinesCountsWhatParseReads: on every sample mail and line case,
// ReadLines counts at least every non-blank line Parse does not ignore, so a mail
// under the cap is never one Parse reads more of; quoted text, signatures
// and quoted originals are not counted.
func TestReadLinesCountsWhatParseReads(t *testing.T) {
	var bodies []string
	for _, c := range allLineCases(t) {
		bodies = append(bodies, c.in)
	}
	mails, _ := filepath.Glob(filepath.Join(testdataDir, "mails", "*.txt"))
	for _, m := range mails {
		_, body := readMail(t, m)
		bodies = append(bodies, body)
	}
	if len(mails) == 0 {
		t.Fatal("no sample mails")
	}
	std := loadLexicon(t, "standard")
	for _, body := range bodies {
		read := 0
		for _, l := range Parse(body, ParseOptions{Lexicon: std}).Lines {
			if l.Kind != orders.Ignored && strings.TrimSpace(l.Text) != "" { // a block keeps its blank lines
				read++
			}
		}
		if n := orders.ReadLines(body, 0); n < read {
			t.Errorf("ReadLines %d < %d lines Parse read:\n%s", n, read, body)
		}
	}
	cases := []struct {
		name string
		body string
		want int
	}{
		{"plain", "A Par - Bur\n\nF Bre - Mao\r\nA Mar H", 3},
		{"quoted", "A Par - Bur\n" + strings.Repeat("> F Lon - Nth\n", 1000), 1},
		{"quote header, marked", "A Par H\nOn Mon, Ann wrote:\n> x\n> y\nA Mar H", 2},
		{"quote header, unmarked original", "A Par H\nOn Mon, Ann wrote:\n" + strings.Repeat("F Lon - Nth\n", 1000), 1},
		{"signature", "A Par H\n-- \n" + strings.Repeat("me\n", 1000), 1},
		{"original message", "A Par H\n-----Original Message-----\n" + strings.Repeat("F Lon - Nth\n", 1000), 1},
		{"outlook header block", "A Par H\nFrom: gm@x\nSent: Monday\n" + strings.Repeat("F Lon - Nth\n", 1000), 1},
		{"signoff", "A Par H\nSIGNOFF\n" + strings.Repeat("F Lon - Nth\n", 1000), 1},
		{"comments", "# a comment\n// another\nA Par H\nSent from my phone", 1},
	}
	for _, c := range cases {
		if got := orders.ReadLines(c.body, 0); got != c.want {
			t.Errorf("%s: ReadLines = %d, want %d", c.name, got, c.want)
		}
	}
	if got := orders.ReadLines(strings.Repeat("A Par H\n", 100000), 500); got != 501 {
		t.Errorf("ReadLines with limit 500 counted %d, want 501 (it stops past the limit)", got)
	}
}
