package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

// trioMap is the test board of adjudicator/diplomacy, its variant renamed
// so that no other test's variant of that name is replaced by this one's.
func trioMap(t *testing.T, variant string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "adjudicator", "diplomacy", "testdata", "maps", "trio.map"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(string(b), "variant trio\n", "variant "+variant+"\n", 1)
}

// TestE2EVariantFromFile: a map file dropped in the data folder's maps/
// is a variant playable by mail without a rebuild (CREATE, JOIN, orders,
// a processed phase whose results every player reads), a broken one
// beside it is refused and named in /healthz while the daemon runs on,
// and editing and then deleting the file changes nothing in the game
// created from it.
func TestE2EVariantFromFile(t *testing.T) {
	var mapPath string
	e := newE2EWith(t, func(c *Config) {
		dir := filepath.Join(c.DataDir, MapsDir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		mapPath = filepath.Join(dir, "trio.map")
		if err := os.WriteFile(mapPath, []byte(trioMap(t, "triomail")), 0o644); err != nil {
			t.Fatal(err)
		}
		broken := strings.Replace(trioMap(t, "triobroken"), "army eas | hil\n", "", 1)
		if err := os.WriteFile(filepath.Join(dir, "broken.map"), []byte(broken), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	health := strings.Join(e.srv.healthProblems(), "\n")
	mustContain(t, health, "broken.map refused", "province hil: army border to eas is not mirrored")

	welcome := e.next(e2eGM, "Welcome")
	mustContain(t, welcome.Text, "triomail")
	e.send(e2eGM, tokenAddr(welcome.Token), "CREATE t1 triomail")
	created := e.next(e2eGM, "Re:")
	mustContain(t, created.Text, "Game t1 (triomail) created", "2 powers: Red, Blue")
	e.send(e2eGM, tokenAddr(welcome.Token), "HELP")
	mustContain(t, e.next(e2eGM, "Re:").Text, "Variants for CREATE:", "triomail")
	e.send(e2eGM, tokenAddr(welcome.Token), "CREATE t2 triobroken")
	mustContain(t, e.next(e2eGM, "Re:").Text, `unknown variant "triobroken"`)

	red, blue := "red@pbemd.localhost", "blue@pbemd.localhost"
	e.send(red, "gm@pbemd.localhost", "JOIN t1 prefer red")
	e.send(blue, "gm@pbemd.localhost", "JOIN t1 prefer blue")
	redTok := e.next(red, "You are").Token
	blueTok := e.next(blue, "You are").Token
	e.settle(e2eGM, red, blue)

	// The file changes under the game: a province renamed, then the
	// file deleted. Reading the folder again (what a restart does) gives
	// the next CREATE the new board, not the game.
	edited := strings.NewReplacer("hil", "mnd", "Hil", "Mnd", "The Hills", "The Mound", "hills", "mound").Replace(trioMap(t, "triomail"))
	if err := os.WriteFile(mapPath, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if refused := LoadMaps(e.srv.cfg, nil); strings.Contains(strings.Join(refused, "\n"), "triomail") {
		t.Fatalf("the edited map was refused: %v", refused)
	}
	if _, _, text, _ := adjudicator.VariantText("triomail"); !strings.Contains(string(text), "The Mound") {
		t.Fatal("the folder's edited map is not the variant's now")
	}
	if err := os.Remove(mapPath); err != nil {
		t.Fatal(err)
	}

	e.send(red, tokenAddr(redTok), "HELP")
	mustContain(t, e.next(red, "Re:").Text, "Game t1: Trio (a test board).", "A Wes - Hil")
	e.send(red, tokenAddr(redTok), "A Wes - Hil")
	mustContain(t, e.next(red, "Re:").Text, "Orders received for Red", "A Wes - Hil")
	e.send(blue, tokenAddr(blueTok), "F Eas - Bay")
	mustContain(t, e.next(blue, "Re:").Text, "Orders received for Blue", "F Eas - Bay")

	e.clock.Add(48 * time.Hour)
	e.srv.Kick()
	for _, addr := range []string{red, blue, e2eGM} {
		res := e.next(addr, "Spring 1901 Movement — results")
		mustContain(t, res.Text, "A Wes - Hil", "F Eas - Bay", "Next phase: Fall 1901 Movement")
		if strings.Contains(res.Text, "Mnd") {
			t.Errorf("results to %s name the edited file's province:\n%s", addr, res.Text)
		}
	}
	g := e.game("t1")
	if g.PhaseID != "F1901M" || g.Variant != "triomail" || g.Map == "" {
		t.Fatalf("after the deadline: phase %s, variant %q, map %q", g.PhaseID, g.Variant, g.Map)
	}
	// The store keeps the text the game was created with.
	var kept store.MapFile
	if err := e.srv.DB.View(func(tx *store.Tx) (err error) { kept, err = tx.MapText(g.Map); return err }); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(kept.Text, "The Hills") || kept.File != "trio.map" {
		t.Errorf("kept map file %q does not hold the text the game was created with", kept.File)
	}
}
