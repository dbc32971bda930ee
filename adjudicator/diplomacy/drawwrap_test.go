package diplomacy

import (
	"math"
	"strings"
	"testing"

	"pbemd/picture"
	"pbemd/picture/picturetest"
)

// TestOrdersDrawnAcrossTheCut plays on Cold War's world board (geo-wrap)
// two moves between provinces on either side of the Pacific cut and a
// support across it, and reads the picture: each mark is drawn the short
// way, as two halves reaching past one edge and in from the other, and no
// line of it runs across the board.
func TestOrdersDrawnAcrossTheCut(t *testing.T) {
	e, ok := NewEngine("coldwar")
	if !ok {
		t.Fatal("no coldwar map")
	}
	state := []byte(`{"version": 1, "variant": "coldwar", "phase": {"season": "spring", "year": 1950, "type": "movement"},
	"units": [{"power": "nato", "type": "fleet", "province": "epa"}, {"power": "nato", "type": "fleet", "province": "jap"},
	  {"power": "ussr", "type": "fleet", "province": "ber"}, {"power": "ussr", "type": "fleet", "province": "ala"}],
	"supply_centers": {}}`)
	sent := map[string][]string{}
	for p, text := range map[string]string{"nato": "F Epa - Wpa\nF Jap S F Epa - Wpa", "ussr": "F Ber - Goa\nF Ala S F Ber - Goa"} {
		ck, err := e.Check(state, p, text)
		if err != nil || len(ck.Canonical) != 2 {
			t.Fatalf("%s: %q read as %q (%v)", p, text, ck.Canonical, err)
		}
		sent[p] = ck.Canonical
	}
	out, err := e.Resolve(state, sent, 0)
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.Draw(out.Next, out.Report.Data, "")
	if err != nil {
		t.Fatal(err)
	}
	w := float64(p.Width)
	for _, id := range []string{"move-epa-wpa", "move-ber-goa", "support-jap-epa-wpa", "support-ala-ber-goa"} {
		g := findGroup(p.Items, id)
		if g == nil {
			t.Errorf("no mark %q", id)
			continue
		}
		left, right := false, false
		for _, it := range g.Items {
			var pts []picture.Point
			switch v := it.(type) {
			case *picture.Arrow:
				pts = []picture.Point{v.From, v.To}
			case *picture.Path:
				for _, l := range v.Lines {
					pts = append(pts, l...)
				}
			}
			for i := 1; i < len(pts); i++ {
				if math.Abs(pts[i].X-pts[i-1].X) > w/2 {
					t.Errorf("%s: a line from %v to %v runs across the board", id, pts[i-1], pts[i])
				}
			}
			for _, q := range pts {
				left = left || q.X < 0
				right = right || q.X > w
			}
		}
		if !left || !right {
			t.Errorf("%s is not drawn across the cut (past the left edge %v, past the right %v)", id, left, right)
		}
	}
	if svg := string(picturetest.SVG(t, p)); !strings.Contains(svg, `id="move-epa-wpa"`) {
		t.Error("the SVG has no move Epa–Wpa")
	}
}
