package supremacy

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

// TestScenarioLoadedOnFirstUse: loading the package and listing its
// engines read no scenario; the scenarios are read at the first use of an
// engine, once.
func TestScenarioLoadedOnFirstUse(t *testing.T) {
	for _, p := range Presets {
		if !slices.Contains(startNames, p.Name) {
			t.Errorf("preset %s not registered at start (registered: %v)", p.Name, startNames)
		}
	}
	if startLoads != 0 {
		t.Fatalf("the scenarios were loaded %d times by the package's init", startLoads)
	}
	for range 2 {
		for _, p := range Presets {
			e, ok := adjudicator.Lookup(p.Name)
			if !ok || e.Info().Name != p.Name {
				t.Fatalf("Lookup(%q) = %v, %v", p.Name, e, ok)
			}
		}
	}
	if n := scenarioLoads.Load(); n != 1 {
		t.Errorf("the scenarios were loaded %d times", n)
	}
}
