package web_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"pbemd/adjudicator"
	"pbemd/picture"
	"pbemd/store"
)

// TestChartKeysPowersAsThePicturesDo builds a standard game's pages and
// an Empire game's and reads each score chart's key: every power's line
// has the colour the game's pictures give it (a light one darkened to read
// on white), not a colour of the chart's own.
func TestChartKeysPowersAsThePicturesDo(t *testing.T) {
	t.Parallel()
	tb := newTable(t, store.WebPublic)
	for _, v := range []struct{ game, variant string }{{"dip", "standard"}, {"emp", "empire3"}} {
		tb.Create(v.game, v.variant, "")
		players := tb.SignUp(v.game, adjudicatorPowers(t, v.variant))
		play(t, tb, v.game, players, 2)
	}
	b := newBuilder(t, tb, store.WebPublic)
	if err := b.All(); err != nil {
		t.Fatal(err)
	}
	files := readAll(t, b.Dir())
	key := regexp.MustCompile(`<rect [^>]*fill="(#[0-9a-f]{6})"/><text [^>]*>([^<]+)</text>`)
	for _, v := range []struct{ game, variant string }{{"dip", "standard"}, {"emp", "empire3"}} {
		e, _ := adjudicator.Lookup(v.variant)
		info := e.Info()
		painted := e.(adjudicator.Painter).PowerColors()
		got := map[string]string{}
		for _, m := range key.FindAllStringSubmatch(files["games/"+v.game+"/chart.svg"], -1) {
			got[m[2]] = m[1]
		}
		for _, p := range info.Powers {
			name := info.PowerNames[p]
			if name == "" {
				name = p
			}
			c := painted[p]
			want, darker := hexOf(c), hexOf(c.Mix(picture.Black, 0.3))
			if g, ok := findKey(got, name); !ok || (g != want && g != darker) {
				t.Errorf("%s: %s's line is %q; its pictures' colour is %s (or %s darkened) (key %v)", v.game, name, g, want, darker, got)
			}
		}
	}
}

func hexOf(c picture.Color) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// findKey finds the key entry whose text is name, in any case.
func findKey(got map[string]string, name string) (string, bool) {
	for k, v := range got {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return "", false
}
