package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pbemd web build writes a game's pages and the index into [web] dir from
// the store (no daemon running), readable by a web server when the folder
// is outside the data folder; an unknown game is an error.
func TestWebBuildCommand(t *testing.T) {
	s := newSite(t, "")
	pages := filepath.Join(s.dir, "www")
	cfg, err := os.ReadFile(s.config)
	if err != nil {
		t.Fatal(err)
	}
	cfg = append(cfg, []byte("[web]\ndefault = \"public\"\ndir = \""+pages+"\"\n")...)
	if err := os.WriteFile(s.config, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, e := run(t, "game", "create", "-config", s.config, "g1", "standard"); code != 0 {
		t.Fatalf("game create: exit %d: %s", code, e)
	}
	code, out, e := run(t, "web", "build", "-config", s.config, "g1")
	if code != 0 || !strings.Contains(out, "wrote the pages of g1") {
		t.Fatalf("web build g1: exit %d\n%s%s", code, out, e)
	}
	index, err := os.ReadFile(filepath.Join(pages, "index.html"))
	if err != nil || !strings.Contains(string(index), "games/g1/index.html") {
		t.Fatalf("the index: %v\n%s", err, index)
	}
	st, err := os.Stat(filepath.Join(pages, "games", "g1", "index.html"))
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("the game's front page: %v %v", err, st)
	}
	if code, _, e := run(t, "web", "build", "-config", s.config, "nosuch"); code == 0 || !strings.Contains(e, "nosuch") {
		t.Errorf("web build of an unknown game: exit %d: %s", code, e)
	}
	if code, _, e := run(t, "web", "build", "-config", s.config); code != 0 {
		t.Errorf("web build of every game: exit %d: %s", code, e)
	}
}
