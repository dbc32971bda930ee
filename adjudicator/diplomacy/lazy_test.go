package diplomacy

import (
	"fmt"
	"os"
	"testing"

	"pbemd/adjudicator"
	"pbemd/adjudicator/enginetest"
)

// start is what the package had done when the tests started: its init has
// run and registered the engines; nothing has used them yet.
var start enginetest.Start

func TestMain(m *testing.M) {
	start = enginetest.StartOf(mapLoads.Load)
	os.Exit(m.Run())
}

// TestMapsParsedOnFirstUse: loading the package and listing its engines
// parse no map; a map is parsed when it is first used, and only once.
func TestMapsParsedOnFirstUse(t *testing.T) {
	enginetest.LoadedOnFirstUse(t, start, "maps", MapNames(), mapLoads.Load, int32(len(MapNames())), func(e adjudicator.Engine) error {
		if m, ok := MapByName(e.Info().Name); !ok || m.Name != e.Info().Name {
			return fmt.Errorf("MapByName = %v, %v", m, ok)
		}
		return nil
	})
}
