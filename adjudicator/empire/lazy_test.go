package empire

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
	startLoads = scenarioLoads.Load()
	os.Exit(m.Run())
}

// TestDataLoadedOnFirstUse: loading the package and listing its engines
// read none of the units, tiles and worlds; they are read when a game
// first needs them, once.
func TestDataLoadedOnFirstUse(t *testing.T) {
	for _, p := range presets {
		if !slices.Contains(startNames, p.name) {
			t.Errorf("preset %s not registered at start (registered: %v)", p.name, startNames)
		}
	}
	if startLoads != 0 {
		t.Fatalf("the data was loaded %d times by the package's init", startLoads)
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
	if n := scenarioLoads.Load(); n != 1 {
		t.Errorf("the data was loaded %d times", n)
	}
}
