package supplychain

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
	start = enginetest.StartOf(deckLoads.Load)
	os.Exit(m.Run())
}

// TestDeckLoadedOnFirstUse: loading the package and listing its engines
// read no deck; the decks are read when a game first needs one, once.
func TestDeckLoadedOnFirstUse(t *testing.T) {
	var names []string
	for _, p := range presets {
		names = append(names, p.name)
	}
	enginetest.LoadedOnFirstUse(t, start, "the decks", names, deckLoads.Load, 1, func(e adjudicator.Engine) error {
		_, err := e.New(nil, 1)
		return err
	})
}
