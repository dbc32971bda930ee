package scoring

import (
	"math"
	"testing"
)

// The vectors are the systems' own published figures: daanz.org's Squares
// system (5 centres count 25, 15 centres 225, the draw's total is 100),
// the Tribute tables of the Windy City Weasels (a 7-way draw share is 9.4
// points, a 2-way one 33; 1 point of tribute per topper centre over 6, at
// most the share, tied toppers split it), and the definitions of the
// draw-size and centre-based systems.
func TestScores(t *testing.T) {
	seven := map[string]int{"austria": 10, "england": 8, "france": 6, "germany": 5, "italy": 3, "russia": 2, "turkey": 0}
	cases := []struct {
		name string
		sys  System
		end  End
		want map[string]float64
	}{
		{"solo wins all", SumOfSquares, End{Centres: map[string]int{"france": 18, "england": 9, "italy": 7}, Winner: "france"},
			map[string]float64{"france": 100, "england": 0, "italy": 0}},
		{"squares 15 and 5", SumOfSquares, End{Centres: map[string]int{"a": 15, "b": 5}},
			map[string]float64{"a": 90, "b": 10}},
		{"squares, seven powers", SumOfSquares, End{Centres: seven},
			map[string]float64{"austria": 42.02, "england": 26.89, "france": 15.13, "germany": 10.5, "italy": 3.78, "russia": 1.68, "turkey": 0}},
		{"draw-size, three-way", DrawSize, End{Centres: seven, Draw: []string{"austria", "england", "france"}},
			map[string]float64{"austria": 33.33, "england": 33.33, "france": 33.33, "germany": 0, "italy": 0, "russia": 0, "turkey": 0}},
		{"centres", Centres, End{Centres: map[string]int{"a": 17, "b": 10, "c": 7}},
			map[string]float64{"a": 50, "b": 29.41, "c": 20.59}},
		{"tribute, topper of 10 in a 5-way draw", Tribute, End{Centres: map[string]int{"a": 10, "b": 8, "c": 7, "d": 5, "e": 4, "f": 0}},
			map[string]float64{"a": 39.2, "b": 17.2, "c": 16.2, "d": 14.2, "e": 13.2, "f": 0}},
		{"tribute, 7-way shares of 9.4", Tribute, End{Centres: map[string]int{"a": 6, "b": 5, "c": 5, "d": 5, "e": 5, "f": 4, "g": 4}},
			map[string]float64{"a": 15.43, "b": 14.43, "c": 14.43, "d": 14.43, "e": 14.43, "f": 13.43, "g": 13.43}},
		{"tribute, capped at the share", Tribute, End{Centres: map[string]int{"a": 17, "b": 3, "c": 3, "d": 3, "e": 3, "f": 3, "g": 2}},
			map[string]float64{"a": 17 + 66.0/7*7, "b": 3, "c": 3, "d": 3, "e": 3, "f": 3, "g": 2}},
		{"tribute, tied toppers split", Tribute, End{Centres: map[string]int{"a": 9, "b": 9, "c": 8, "d": 8}},
			map[string]float64{"a": 28.5, "b": 28.5, "c": 21.5, "d": 21.5}},
		{"tribute, 2-way share of 33", Tribute, End{Centres: map[string]int{"a": 17, "b": 17}},
			map[string]float64{"a": 50, "b": 50}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.sys.Score(c.end)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			for p, w := range c.want {
				if math.Abs(got[p]-w) > 0.011 {
					t.Errorf("%s: %.2f, want %.2f", p, got[p], w)
				}
				sum += got[p]
			}
			if len(got) != len(c.want) {
				t.Errorf("scores for %v, want %v", got, c.want)
			}
			if c.sys != Tribute && math.Abs(sum-100) > 0.05 {
				t.Errorf("scores add up to %.2f, want 100", sum)
			}
		})
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]System{"DSS": DrawSize, "sum-of-squares": SumOfSquares, "centers": Centres, "Tribute": Tribute} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := Parse("carnage"); err == nil {
		t.Error("an unknown system was accepted")
	}
	for _, s := range Systems {
		if s.Formula() == string(s) {
			t.Errorf("%s has no formula", s)
		}
	}
}
