package supremacy

import (
	"os"
	"testing"

	"pbemd/adjudicator"
	"pbemd/adjudicator/enginetest"
)

// start is what the package had done when the tests started: its init has
// run and registered the engines; nothing has used them yet.
var start enginetest.Start

func TestMain(m *testing.M) {
	start = enginetest.StartOf(scenarioLoads.Load)
	os.Exit(m.Run())
}

// TestScenarioLoadedOnFirstUse: loading the package and listing its
// engines read no scenario; the scenarios are read at the first use of an
// engine, once.
func TestScenarioLoadedOnFirstUse(t *testing.T) {
	var names []string
	for _, p := range Presets {
		names = append(names, p.Name)
	}
	enginetest.LoadedOnFirstUse(t, start, "the scenarios", names, scenarioLoads.Load, 1, func(e adjudicator.Engine) error {
		return nil // the Lookup loads them
	})
}
