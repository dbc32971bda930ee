package supplychain

import (
	"os"
	"slices"
	"testing"

	"pbemd/adjudicator"
)

// What the package had done when the tests started: its init has run and
// registered the presets, nothing has used them yet.
var (
	startNames []string
	startLoads int32
)

func TestMain(m *testing.M) {
	startNames = adjudicator.Names()
	startLoads = deckLoads.Load()
	os.Exit(m.Run())
}

// TestDeckLoadedOnFirstUse: loading the package and listing its engines
// read no deck; the decks are read when a game first needs one, once.
func TestDeckLoadedOnFirstUse(t *testing.T) {
	for _, p := range presets {
		if !slices.Contains(startNames, p.name) {
			t.Errorf("preset %s not registered at start (registered: %v)", p.name, startNames)
		}
	}
	if startLoads != 0 {
		t.Fatalf("the decks were loaded %d times by the package's init", startLoads)
	}
	for range 2 {
		for _, p := range presets {
			e, ok := adjudicator.Lookup(p.name)
			if !ok {
				t.Fatalf("Lookup(%q) failed", p.name)
			}
			if _, err := e.New(nil, 1); err != nil {
				t.Fatalf("%s: New: %v", p.name, err)
			}
		}
	}
	if n := deckLoads.Load(); n != 1 {
		t.Errorf("the decks were loaded %d times", n)
	}
}
