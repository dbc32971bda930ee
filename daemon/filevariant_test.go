package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pbemd/adjudicator"
	_ "pbemd/adjudicator/diplomacy" // reads .map files (adjudicator.Build)
	"pbemd/store"
)

// TestStoreCarriesItsMaps: a store moved to another daemon plays its
// games on the maps they were created with, though no map file and no
// variant of that name exists where it lands: the daemon builds each
// kept text when it opens the store, and the game's engine is that one.
func TestStoreCarriesItsMaps(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "adjudicator", "diplomacy", "testdata", "maps", "trio.map"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), "variant trio\n", "variant triomoved\n", 1)
	hash := adjudicator.TextHash([]byte(text))
	if _, ok := adjudicator.Built(hash); ok {
		t.Fatal("the test's map was built before the daemon opened the store")
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "pbemd.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g := &store.Game{Name: "moved", Variant: "triomoved", Map: hash, Status: store.Forming, GMToken: "t"}
	if err := db.Update(func(tx *store.Tx) error {
		if err := tx.PutMapText(hash, store.MapFile{File: "trio.map", Text: text}); err != nil {
			return err
		}
		return tx.PutGame(g)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := engineFor(g); err == nil {
		t.Fatal("engineFor found the game's map before any daemon opened the store")
	}
	if _, err := New(db, Options{Address: "gm@example.test", Now: (&clock{}).Now}); err != nil {
		t.Fatal(err)
	}
	e, err := engineFor(g)
	if err != nil {
		t.Fatal(err)
	}
	if info := e.Info(); info.Name != "triomoved" || strings.Join(info.Powers, " ") != "red blue" {
		t.Errorf("the moved game's engine: %s with %v", info.Name, info.Powers)
	}
	if _, ok := adjudicator.Lookup("triomoved"); ok {
		t.Error("a map kept for a game became a variant for CREATE")
	}
}
