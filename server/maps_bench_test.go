package server

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkLoadMaps is what a map file in the data folder's maps/ adds to
// pbemd's start when no game uses it yet: LoadMaps reading, parsing and
// checking one map the size of the shipped standard one (its generated
// coastlines), renamed. Its budget is the 50 ms of BenchmarkMapFileLoad,
// plus the file's read.
func BenchmarkLoadMaps(b *testing.B) {
	text, err := os.ReadFile(filepath.Join("..", "adjudicator", "diplomacy", "maps", "standard.map"))
	if err != nil {
		b.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.DataDir = b.TempDir()
	dir := filepath.Join(cfg.DataDir, MapsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		// A text not built before in the process: Build keeps engines by
		// their text's hash.
		body := strings.Replace(string(text), "variant standard\n", "variant bigboard\n# copy "+strconv.Itoa(i)+"\n", 1)
		if err := os.WriteFile(filepath.Join(dir, "big.map"), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if refused := LoadMaps(cfg, nil); len(refused) > 0 {
			b.Fatal(refused)
		}
	}
}
