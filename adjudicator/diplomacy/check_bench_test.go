package diplomacy

import (
	"fmt"
	"strings"
	"testing"
)

// manyLines is a text of n lines: orders for England's three units and
// for a French army, each repeated every five lines, and a junk line.
func manyLines(n int) string {
	ex := []string{"F Lon - Nth", "A Lvp - Yor", "F Edi - Nwg", "A Par - Bur", "junk here"}
	lines := make([]string, n)
	for i := range lines {
		lines[i] = ex[i%len(ex)]
	}
	return strings.Join(lines, "\n")
}

// BenchmarkCheckManyLines: Check's cost per line must not grow with the
// number of lines (it compared each order with every earlier one).
// Compare the ns/line of the two sizes.
func BenchmarkCheckManyLines(b *testing.B) {
	e, _ := NewEngine("standard")
	state, err := e.New(nil, 0)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1000, 16000} {
		text := manyLines(n)
		b.Run(fmt.Sprint("lines=", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := e.Check(state, "england", text); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/line")
		})
	}
}

// TestCheckKeepsTheLastOrderPerUnit: in a long text every order for a unit
// is replaced by the next one for it, and only the last of each stands.
func TestCheckKeepsTheLastOrderPerUnit(t *testing.T) {
	e, _ := NewEngine("standard")
	state, _ := e.New(nil, 0)
	const n = 5000
	ck, err := e.Check(state, "england", manyLines(n))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ck.Canonical, "; "); got != "F Lon - Nth; A Lvp - Yor; F Edi - Nwg; A Par - Bur" {
		t.Errorf("canonical %q", got)
	}
	for i := 0; i < n-5; i++ {
		l := ck.Lines[i]
		if i%5 == 4 { // junk
			continue
		}
		want := fmt.Sprintf("replaced by the later order on line %d", i+6)
		if len(l.Diags) != 1 || l.Diags[0].Message != want {
			t.Fatalf("line %d %q: %+v, want %q", i+1, l.Text, l.Diags, want)
		}
	}
}
