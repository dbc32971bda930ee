package diplomacy

import (
	"os"
	"strings"
	"testing"
)

// trioText is the test board (testdata/maps/trio.map), written for these
// tests from scratch: three coastal provinces above one sea.
func trioText(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/maps/trio.map")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCheckMapSound: the test board passes every check, and its engine
// gives HELP examples though each power starts with one unit.
func TestCheckMapSound(t *testing.T) {
	m, probs := CheckMap("trio.map", []byte(trioText(t)))
	if len(probs) > 0 {
		t.Fatalf("trio.map: %v", probs)
	}
	e := &Engine{m: m}
	checkExamplesParse(t, e)
	if _, err := m.DrawStart(); err != nil {
		t.Fatal(err)
	}
}

// TestCheckMapRefuses: one broken board per kind of mistake, each refused
// by CheckMap with a message naming the file, the line and the province
// (or power) to fix. The loader's checks and the picture's alike.
func TestCheckMapRefuses(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new string // one edit of trio.map
		want     []string
	}{
		{"army border not mirrored", "army eas | hil\n", "",
			[]string{"trio.map line 16: province hil: army border to eas is not mirrored"}},
		{"fleet border not mirrored", "fleet bay | wes hil eas\n", "fleet bay | wes hil\n",
			[]string{"trio.map line 17: province eas: fleet border to bay is not mirrored"}},
		{"shapes overlap", "geo-shape hil | 100,0 200,0 200,100 100,100", "geo-shape hil | 100,0 250,0 250,100 100,100",
			[]string{"trio.map line 36: province eas: its shape overlaps that of hil"}},
		{"drawn as neighbours but not adjacent", "army hil | wes eas\narmy eas | hil\n", "army hil | wes\n",
			[]string{"trio.map line 35: province eas: hil and eas are drawn sharing a border"}},
		{"adjacent but not drawn", "geo-shape eas | 200,0 300,0 300,100 200,100", "geo-shape eas | 210,0 300,0 300,100 210,100",
			[]string{"trio.map line 36: province eas: hil and eas are adjacent but share no drawn border"}},
		{"province without a shape", "geo-shape bay | 0,100 300,100 300,200 0,200\n", "",
			[]string{"trio.map line 18: province bay has no geo-shape"}},
		{"province without a place", "geo-place hil | 150,40 | 150,80\n", "",
			[]string{"trio.map line 16: province hil has no geo-place"}},
		{"unknown directive", "army wes | hil\n", "border wes | hil\n",
			[]string{"trio.map line 20: unknown directive \"border\""}},
		{"centre count", "centres 3", "centres 4",
			[]string{"trio.map line 10: declares 4 supply centres but lists 3 (wes, hil, eas)"}},
		{"province count", "provinces 4", "provinces 5",
			[]string{"trio.map line 9: declares 5 provinces but lists 4 (last: province bay)"}},
		{"victory not a majority", "victory 2", "victory 1",
			[]string{"trio.map line 8: victory at 1 centres must be a majority of the 3 centres (wes, hil, eas), or say \"victory 1 | below-majority\""}},
		{"power without units", "unit blue | F eas\n", "",
			[]string{"trio.map line 13: power blue starts with 0 units on 1 home centres (eas)"}},
		{"power without a home", "province eas | Eas | coast | blue |", "province eas | Eas | coast | sc |",
			[]string{"trio.map line 13: power blue has no home centre"}},
		{"fleet border to an inland province", "province hil | Hil | coast |", "province hil | Hil | land |",
			[]string{"trio.map line 24: location wes: fleet neighbour hil is inland"}},
		{"two names for one province", "The Bay    |", "The Bay    | hills",
			[]string{"trio.map line 18: province bay: name \"hills\" is also a name of province hil"}},
		{"missing header", "title Trio (a test board)\n", "",
			[]string{"trio.map line 1: variant, title and victory are required (missing: title)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := trioText(t)
			if !strings.Contains(text, tc.old) {
				t.Fatalf("trio.map has no %q", tc.old)
			}
			text = strings.Replace(text, tc.old, tc.new, 1)
			if tc.name == "drawn as neighbours but not adjacent" { // no fleet border either
				text = strings.NewReplacer("fleet hil | wes eas bay", "fleet hil | wes bay", "fleet eas | hil bay", "fleet eas | bay").Replace(text)
			}
			_, probs := CheckMap("trio.map", []byte(text))
			if len(probs) == 0 {
				t.Fatal("the broken map passes")
			}
			got := strings.Join(probs, "\n")
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("problems\n%s\nwant %q", got, w)
				}
			}
		})
	}
}
