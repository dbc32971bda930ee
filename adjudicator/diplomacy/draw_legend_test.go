package diplomacy

import (
	"testing"

	"pbemd/adjudicator"
	"pbemd/picture"
	"pbemd/picture/picturetest"
)

// Every shipped variant's start picture keeps every word of its legend
// inside the picture: Chaos's 34 powers wrap into rows under the board
// instead of running off its right edge.
func TestLegendFitsEveryVariant(t *testing.T) {
	names := append(MapNames(), RuleVariantNames()...)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			e, ok := adjudicator.Lookup(name)
			if !ok {
				t.Fatalf("%s not registered", name)
			}
			st, err := e.New(nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			p, err := e.(adjudicator.Drawer).Draw(st, nil, "")
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			picturetest.WalkText(p.Items, func(tx *picture.Text) {
				right := tx.At.X + picture.TextWidth(tx.S, tx.Size, tx.Bold)
				switch tx.Anchor {
				case picture.Middle:
					right = tx.At.X + picture.TextWidth(tx.S, tx.Size, tx.Bold)/2
				case picture.End:
					right = tx.At.X
				}
				if right > float64(p.Width)+1 || tx.At.Y > float64(p.Height) {
					n++
					if n <= 3 {
						t.Errorf("%q at (%.0f,%.0f) ends at x %.0f, outside the %d×%d picture", tx.S, tx.At.X, tx.At.Y, right, p.Width, p.Height)
					}
				}
			})
			if n > 3 {
				t.Errorf("and %d more words outside", n-3)
			}
		})
	}
}
