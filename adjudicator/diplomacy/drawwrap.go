package diplomacy

import (
	"math"

	"pbemd/picture"
)

// A board of the whole world (geo-wrap) is cut at one meridian, so its left
// and right edges are the same place. An order between provinces on either
// side of the cut is drawn the short way, across the cut: its marks are
// drawn once reaching past one edge and again, shifted by the board's
// width, reaching in from the other; the picture clips what lies outside.

// near is p, or p moved a board's width left or right when from reaches
// it much more directly across the cut (the way round is under a third of
// the way across the board, so a wide sea's far shore is still reached
// across the board, as the shapes show it).
func (b *board) near(from, p picture.Point) picture.Point {
	if b.wrap == 0 {
		return p
	}
	d := p.X - from.X
	if round := b.wrap - math.Abs(d); round < math.Abs(d)/3 {
		if d > 0 {
			p.X -= b.wrap
		} else {
			p.X += b.wrap
		}
	}
	return p
}

// onBoard is p moved onto the board across the cut.
func (b *board) onBoard(p picture.Point) picture.Point {
	switch {
	case b.wrap == 0:
	case p.X < 0:
		p.X += b.wrap
	case p.X >= b.wrap:
		p.X -= b.wrap
	}
	return p
}

// across adds to items, for each arrow or line that reaches past an edge
// of a wrapping board, a copy shifted by the board's width, so that it
// also reaches in from the other edge.
func (b *board) across(items []picture.Item) []picture.Item {
	if b.wrap == 0 {
		return items
	}
	n := len(items)
	for _, it := range items[:n] {
		switch v := it.(type) {
		case *picture.Arrow:
			if s := b.shiftBack(v.From, v.To, v.Via); s != 0 {
				c := *v
				c.From, c.To, c.Via = c.From.Add(picture.Pt(s, 0)), c.To.Add(picture.Pt(s, 0)), c.Via.Add(picture.Pt(s, 0))
				items = append(items, &c)
			}
		case *picture.Path:
			var pts []picture.Point
			for _, l := range v.Lines {
				pts = append(pts, l...)
			}
			if s := b.shiftBack(pts...); s != 0 {
				c := *v
				c.Lines = make([][]picture.Point, len(v.Lines))
				for i, l := range v.Lines {
					c.Lines[i] = make([]picture.Point, len(l))
					for j, p := range l {
						c.Lines[i][j] = p.Add(picture.Pt(s, 0))
					}
				}
				items = append(items, &c)
			}
		case *picture.Circle:
			if s := b.shiftBack(v.C); s != 0 {
				c := *v
				c.C = c.C.Add(picture.Pt(s, 0))
				items = append(items, &c)
			}
		}
	}
	return items
}

// shiftBack is the shift that brings points reaching past an edge back
// across the board: +width when any lies left of it, -width when any lies
// right of it, 0 when all are on the board.
func (b *board) shiftBack(pts ...picture.Point) float64 {
	for _, p := range pts {
		switch {
		case p.X < 0:
			return b.wrap
		case p.X > b.wrap:
			return -b.wrap
		}
	}
	return 0
}
