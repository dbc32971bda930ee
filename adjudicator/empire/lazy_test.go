package empire

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

// TestDataLoadedOnFirstUse: loading the package and listing its engines
// read none of the units, tiles and worlds; they are read when a game
// first needs them, once.
func TestDataLoadedOnFirstUse(t *testing.T) {
	var names []string
	for _, p := range presets {
		names = append(names, p.name)
	}
	enginetest.LoadedOnFirstUse(t, start, "the data", names, scenarioLoads.Load, 1, func(e adjudicator.Engine) error {
		_, err := e.New(nil, 1)
		return err
	})
}
