package main

import (
	"bytes"
	"errors"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMapCommand runs the built binary as a GM would: adjudicate a phase,
// pipe the outcome into `pbemd map`, and get a PNG or an SVG; bad input
// exits 2 with a message, as adjudicate does.
func TestMapCommand(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "pbemd")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("build pbemd: %v", err)
	}
	run := func(stdin string, args ...string) (stdout, stderr string, code int) {
		cmd := exec.Command(bin, args...)
		cmd.Stdin = strings.NewReader(stdin)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return o.String(), e.String(), code
	}
	in := `{"variant": "standard", "orders": {"France": ["A Par - Bur", "A Mar - Bur"], "Germany": ["A Mun - Bur"], "England": ["F Lon - Nth"]}}`
	out, errText, code := run(in, "adjudicate")
	if code != 0 {
		t.Fatalf("adjudicate: exit %d: %s", code, errText)
	}

	for _, tc := range []struct{ name, stdin string }{
		{"adjudicate's output", out},
		{"a position with orders", in},
		{"a position", `{"variant": "ancientmed"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".png")
			if _, e, code := run(tc.stdin, "map", "-o", file); code != 0 {
				t.Fatalf("map: exit %d: %s", code, e)
			}
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			if img.Bounds().Dx() != 1200 {
				t.Errorf("PNG %v wide, want 1200", img.Bounds().Dx())
			}
		})
	}

	svgFile := filepath.Join(dir, "out.svg")
	if _, e, code := run(out, "map", "-o", svgFile); code != 0 {
		t.Fatalf("map -o svg: exit %d: %s", code, e)
	}
	svg, _ := os.ReadFile(svgFile)
	for _, want := range []string{"<svg ", "Spring 1901 Movement — results", "Bur"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if stdout, _, code := run(`{"variant": "standard"}`, "map"); code != 0 || !strings.HasPrefix(stdout, "\x89PNG") {
		t.Errorf("map without -o: exit %d, stdout starts %q, want a PNG", code, stdout[:min(8, len(stdout))])
	}

	for _, bad := range []struct{ name, stdin, want string }{
		{"not JSON", `{"variant": `, "reading JSON"},
		{"unknown variant", `{"variant": "colonial"}`, `unknown variant "colonial"`},
		{"unknown field", `{"variant": "standard", "colour": "red"}`, `unknown field "colour"`},
		{"impossible position", `{"variant": "standard", "units": [{"power": "France", "type": "fleet", "province": "par"}]}`, "a fleet cannot stand in par"},
	} {
		t.Run(bad.name, func(t *testing.T) {
			_, e, code := run(bad.stdin, "map", "-o", filepath.Join(dir, "bad.png"))
			if code != 2 || !strings.Contains(e, "pbemd map:") || !strings.Contains(e, bad.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, e, bad.want)
			}
		})
	}
	if _, e, code := run(out, "map", "-o", filepath.Join(dir, "x.gif")); code != 2 || !strings.Contains(e, ".png or .svg") {
		t.Errorf("-o x.gif: exit %d, %q", code, e)
	}
}
