package diplomacy

import (
	"os"
	"testing"
)

// BenchmarkMapFileLoad is what a daemon pays for a map file a GM added:
// the parse and every check of pbemd check-map (the loader at start runs
// both; a game's stored text is parsed only). The shipped standard map
// stands for a large file with generated coastlines. The budget of both,
// for a map of its size, is 50 ms: the picture checks count borders and
// overlaps run by run (rasterCounts), not pixel by pixel.
func BenchmarkMapFileLoad(b *testing.B) {
	trio, err := os.ReadFile("testdata/maps/trio.map")
	if err != nil {
		b.Fatal(err)
	}
	standard, err := mapFiles.ReadFile("maps/standard.map")
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		text []byte
	}{{"trio", trio}, {"standard", standard}} {
		b.Run(tc.name+"/parse", func(b *testing.B) {
			for b.Loop() {
				if _, err := ParseMap(tc.name+".map", tc.text); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/check", func(b *testing.B) {
			for b.Loop() {
				if _, probs := CheckMap(tc.name+".map", tc.text); len(probs) > 0 {
					b.Fatal(probs)
				}
			}
		})
	}
}
