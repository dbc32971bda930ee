package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// trioFile copies the test board of adjudicator/diplomacy into dir as
// name, its variant renamed and with one edit applied (old → new; none
// when old is empty).
func trioFile(t *testing.T, dir, name, variant, old, new string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "adjudicator", "diplomacy", "testdata", "maps", "trio.map"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), "variant trio\n", "variant "+variant+"\n", 1)
	if old != "" {
		if !strings.Contains(text, old) {
			t.Fatalf("trio.map has no %q", old)
		}
		text = strings.Replace(text, old, new, 1)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runIn is run with text on stdin.
func runIn(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// TestCheckMapCommand: `pbemd check-map` exits 0 on a sound map and 1 on
// a broken one, naming file, line and province (a picture's mistake as a
// game's); `pbemd map -variant FILE` draws a map file's start.
func TestCheckMapCommand(t *testing.T) {
	dir := t.TempDir()
	good := trioFile(t, dir, "good.map", "trio", "", "")
	code, out, errText := run(t, "check-map", good)
	if code != 0 || !strings.Contains(out, "good.map: sound: variant trio, 2 powers, 4 provinces, 3 supply centres") {
		t.Fatalf("check-map of a sound map: exit %d\n%s%s", code, out, errText)
	}
	overlap := trioFile(t, dir, "overlap.map", "trio", "geo-shape hil | 100,0 200,0", "geo-shape hil | 100,0 250,0 250,100 200,100 200,0")
	mirror := trioFile(t, dir, "mirror.map", "trio", "army eas | hil\n", "")
	code, out, _ = run(t, "check-map", good, overlap, mirror)
	if code != 1 {
		t.Fatalf("check-map with broken maps: exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{
		overlap + " line 36: province eas: its shape overlaps that of hil",
		mirror + " line 16: province hil: army border to eas is not mirrored",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check-map said\n%s\nwant %q", out, want)
		}
	}

	pngFile := filepath.Join(dir, "start.png")
	if code, _, e := run(t, "map", "-variant", good, "-o", pngFile); code != 0 {
		t.Fatalf("map -variant: exit %d: %s", code, e)
	}
	f, err := os.Open(pngFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatalf("map -variant wrote no PNG: %v", err)
	}
	if code, _, e := run(t, "map", "-variant", overlap, "-o", pngFile); code != 2 || !strings.Contains(e, "overlaps") {
		t.Errorf("map -variant of a broken map: exit %d: %s", code, e)
	}
}

// TestFileVariantCommands: a map file in the config's data folder maps/
// (or its maps folder) is a variant adjudicate, map and check-orders know
// by name, and `game create` refuses an unknown variant without making a
// store.
func TestFileVariantCommands(t *testing.T) {
	s := newSite(t, "")
	extra := filepath.Join(s.dir, "more-maps")
	for _, d := range []string{filepath.Join(s.data, "maps"), extra} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	trioFile(t, filepath.Join(s.data, "maps"), "trio.map", "triocmd", "", "")
	trioFile(t, extra, "other.map", "triomore", "", "")
	cfg, err := os.ReadFile(s.config)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.config, append([]byte("maps = "+`"`+extra+`"`+"\n"), cfg...), 0o600); err != nil {
		t.Fatal(err)
	}

	code, out, e := runIn(t, `{"variant": "triocmd", "orders": {"Red": ["A Wes - Hil"], "Blue": ["F Eas - Bay"]}}`, "adjudicate", "-config", s.config)
	if code != 0 || !strings.Contains(out, "A Wes - Hil") {
		t.Fatalf("adjudicate a map file's variant: exit %d\n%s%s", code, out, e)
	}
	if code, _, e := runIn(t, out, "map", "-config", s.config, "-o", filepath.Join(s.dir, "r.svg")); code != 0 {
		t.Errorf("map of its outcome: exit %d: %s", code, e)
	}
	code, out, e = runIn(t, "A Wes - Hills\n", "check-orders", "-config", s.config, "-variant", "triomore", "-power", "red")
	if code != 0 || !strings.Contains(out, "A Wes - Hil") {
		t.Errorf("check-orders on the maps folder's variant: exit %d\n%s%s", code, out, e)
	}
	if code, _, e := run(t, "game", "create", "-config", s.config, "g1", "nosuch"); code == 0 || !strings.Contains(e, `unknown variant "nosuch"`) {
		t.Errorf("game create of an unknown variant: exit %d: %s", code, e)
	}
	if _, err := os.Stat(s.db); !os.IsNotExist(err) {
		t.Errorf("game create of an unknown variant made the store (%v)", err)
	}
}
