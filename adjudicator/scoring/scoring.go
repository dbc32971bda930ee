// Package scoring turns the end of a Diplomacy game into each power's
// score under the systems players know, so that a game may be played for
// more than "solo or draw". It is pure: the centres each power holds at
// the end, who won or who shares the draw, and the system give the scores.
//
// Systems (each scores a solo as 100 to the winner and 0 to everyone else):
//
//   - draw-size ("dss"): a draw's 100 points are shared equally among the
//     powers in the draw.
//   - sum-of-squares ("sos"): each power scores 100 × c² / Σc², where c is
//     the centres it holds (daanz.org's Squares Scoring System).
//   - centre-based ("ppsc", points per supply centre): 100 × c / Σc among
//     the powers that hold centres (webDiplomacy's PPSC).
//   - Tribute ("tribute", the Windy City Weasels' system): each power in
//     the draw scores its centres plus an equal share of 66 points; the
//     board-topper (the power with the most centres) is paid, by every
//     other power in the draw, one point for each centre it holds over 6,
//     never more than the payer's share; tied toppers split what is paid.
package scoring

import (
	"fmt"
	"slices"
	"strings"
)

// System names a scoring system.
type System string

const (
	DrawSize     System = "dss"
	SumOfSquares System = "sos"
	Centres      System = "ppsc"
	Tribute      System = "tribute"
)

// Systems lists the systems in the order HELP and RULES show them.
var Systems = []System{DrawSize, SumOfSquares, Centres, Tribute}

// Parse reads a system's name as a GM writes it in CREATE (scoring=…).
func Parse(s string) (System, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "dss", "draw-size", "drawsize", "draw":
		return DrawSize, nil
	case "sos", "sum-of-squares", "squares":
		return SumOfSquares, nil
	case "ppsc", "centres", "centers", "centre-based", "center-based":
		return Centres, nil
	case "tribute":
		return Tribute, nil
	}
	return "", fmt.Errorf("scoring %q is not known (known: dss, sos, ppsc, tribute)", s)
}

// Formula is the system in one line, for the end mail.
func (s System) Formula() string {
	switch s {
	case DrawSize:
		return "draw-size: a solo scores 100; a draw's 100 points are shared equally among the powers in it"
	case SumOfSquares:
		return "sum-of-squares: a solo scores 100; otherwise each power scores 100 × its centres² ÷ the sum of every power's centres²"
	case Centres:
		return "centre-based (PPSC): a solo scores 100; otherwise each power scores 100 × its centres ÷ all centres held"
	case Tribute:
		return "Tribute: a solo scores 100; otherwise each power in the draw scores its centres + 66 ÷ the draw's size, and pays the board-topper 1 point for each of the topper's centres over 6 (at most its share of the 66)"
	}
	return string(s)
}

// End is how a game ended.
type End struct {
	// Centres is each power's supply centre count at the end (a power
	// with none may be left out).
	Centres map[string]int
	// Winner is the power that won alone ("" for a draw).
	Winner string
	// Draw lists the powers that share a draw (nil: every power that
	// holds a centre).
	Draw []string
}

// Score returns each power's score (every power of e.Centres, and the
// winner and those in the draw), rounded to two decimals.
func (s System) Score(e End) (map[string]float64, error) {
	out := map[string]float64{}
	for p := range e.Centres {
		out[p] = 0
	}
	if e.Winner != "" {
		out[e.Winner] = 100
		return out, nil
	}
	draw := e.Draw
	if draw == nil {
		for p, c := range e.Centres {
			if c > 0 {
				draw = append(draw, p)
			}
		}
	}
	slices.Sort(draw)
	if len(draw) == 0 {
		return nil, fmt.Errorf("scoring: a draw among no power")
	}
	for _, p := range draw {
		out[p] = 0
	}
	switch s {
	case DrawSize:
		for _, p := range draw {
			out[p] = 100 / float64(len(draw))
		}
	case SumOfSquares, Centres:
		sum := 0.0
		for _, c := range e.Centres {
			sum += weight(s, c)
		}
		if sum == 0 {
			return nil, fmt.Errorf("scoring: no power holds a centre")
		}
		for p, c := range e.Centres {
			out[p] = 100 * weight(s, c) / sum
		}
	case Tribute:
		share := 66 / float64(len(draw))
		top, toppers := 0, []string(nil)
		for _, p := range draw {
			switch c := e.Centres[p]; {
			case c > top:
				top, toppers = c, []string{p}
			case c == top:
				toppers = append(toppers, p)
			}
		}
		owed := float64(max(top-6, 0))
		paid := 0.0
		for _, p := range draw {
			out[p] = float64(e.Centres[p]) + share
			if !slices.Contains(toppers, p) {
				t := min(owed, share)
				out[p] -= t
				paid += t
			}
		}
		for _, p := range toppers {
			out[p] += paid / float64(len(toppers))
		}
	default:
		return nil, fmt.Errorf("scoring: unknown system %q", s)
	}
	for p, v := range out {
		out[p] = float64(int64(v*100+0.5)) / 100
	}
	return out, nil
}

func weight(s System, c int) float64 {
	if s == SumOfSquares {
		return float64(c * c)
	}
	return float64(c)
}
