// Package enginetest holds what the four engines' tests share. It is for
// tests only: no package imports it but in its _test.go files.
package enginetest

import (
	"slices"
	"testing"

	"pbemd/adjudicator"
)

// Start is what an engine package had done when its tests started (read in
// its TestMain, before any test runs): the engines registered by its init
// and how often it had loaded its data.
type Start struct {
	Names []string
	Loads int32
}

// StartOf reads Start now; loads is the package's load counter.
func StartOf(loads func() int32) Start {
	return Start{Names: adjudicator.Names(), Loads: loads()}
}

// LoadedOnFirstUse holds an engine package to starting cheaply: its init
// registered every engine of names and loaded no data (start); using each
// engine twice over (use, after a Lookup that must find it under its own
// name) loads the data want times in all, whatever the number of uses.
// what names the data in messages ("maps", "the decks").
func LoadedOnFirstUse(t *testing.T, start Start, what string, names []string, loads func() int32, want int32, use func(e adjudicator.Engine) error) {
	t.Helper()
	for _, name := range names {
		if !slices.Contains(start.Names, name) {
			t.Errorf("engine %s not registered at start (registered: %v)", name, start.Names)
		}
	}
	if start.Loads != 0 {
		t.Fatalf("%s loaded %d times by the package's init", what, start.Loads)
	}
	for range 2 {
		for _, name := range names {
			e, ok := adjudicator.Lookup(name)
			if !ok || e.Info().Name != name {
				t.Fatalf("Lookup(%q) = %v, %v", name, e, ok)
			}
			if err := use(e); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	if n := loads(); n != want {
		t.Errorf("%s loaded %d times, want %d", what, n, want)
	}
}
