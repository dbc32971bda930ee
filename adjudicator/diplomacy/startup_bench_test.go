package diplomacy

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkParseStandardMap is what parsing the standard map's file
// costs: what its first use in a process cost before the map tables, and
// still costs when the file no longer matches its table.
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

// BenchmarkLoadStandardMap is what the first use of the standard map
// costs a process now: its table loaded (maptable.go), the file's head
// checked against it.
func BenchmarkLoadStandardMap(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := loadEmbedded(mapFiles, "standard.map"); err != nil {
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
