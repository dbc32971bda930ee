package diplomacy

import (
	"os"
	"slices"
	"testing"

	"pbemd/adjudicator"
)

// What the package had done when the tests started: its init has run and
// registered the engines, nothing has used them yet.
var (
	startNames []string
	startLoads int32
)

func TestMain(m *testing.M) {
	startNames = adjudicator.Names()
	startLoads = mapLoads.Load()
	os.Exit(m.Run())
}

// TestMapsParsedOnFirstUse: loading the package and listing its engines
// parse no map; a map is parsed when it is first used, and only once.
func TestMapsParsedOnFirstUse(t *testing.T) {
	for _, name := range MapNames() {
		if !slices.Contains(startNames, name) {
			t.Errorf("engine %s not registered at start (registered: %v)", name, startNames)
		}
	}
	if startLoads != 0 {
		t.Fatalf("%d maps parsed by the package's init", startLoads)
	}
	for range 2 {
		for _, name := range MapNames() {
			e, ok := adjudicator.Lookup(name)
			if !ok || e.Info().Name != name {
				t.Fatalf("Lookup(%q) = %v, %v", name, e, ok)
			}
			if m, ok := MapByName(name); !ok || m.Name != name {
				t.Fatalf("MapByName(%q) = %v, %v", name, m, ok)
			}
		}
	}
	if got, want := mapLoads.Load(), int32(len(MapNames())); got != want {
		t.Errorf("%d map parses for %d maps", got, want)
	}
}
