package diplomacy

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkParseStandardMap is what the first use of the standard map
// costs a process (`pbemd adjudicate` pays it once per call).
func BenchmarkParseStandardMap(b *testing.B) {
	data, err := mapFiles.ReadFile("maps/standard.map")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseMap("standard.map", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdjudicateJSONOpening is `pbemd adjudicate` on the Spring 1901
// opening without the process around it, the map already parsed.
func BenchmarkAdjudicateJSONOpening(b *testing.B) {
	in, err := os.ReadFile("testdata/offline/opening.json")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var out bytes.Buffer
	for b.Loop() {
		out.Reset()
		if err := AdjudicateJSON(bytes.NewReader(in), &out); err != nil {
			b.Fatal(err)
		}
	}
}
