package empire

import (
	"fmt"
	"strconv"
	"strings"
)

// The board is a rectangle of pointy-top hexes in "odd-r" offset layout: row
// r (0 at the top) holds columns 0..W-1, and odd rows are shifted half a hex
// to the right — with the 1-based row names players see, the even-numbered
// rows 2, 4, 6, … (RULES says so in those words). A hex is named by its column letter and 1-based row number
// ("A1" is the top left hex, "C4" the third column of the fourth row), and
// indexed internally as r*W+c.
//
// Each hex is split into six wedges, one facing each neighbour; a wedge is
// land or water. The number of land wedges is the hex's land fragments (6
// for an all-land hex, 1 to 5 for a shoreline hex, 0 for open water). Two
// neighbouring hexes share land, and a land unit may cross between them,
// when both wedges that face each other across their common edge are land.

// Direction numbers the six edges of a hex, counter-clockwise from east.
const (
	dirE = iota
	dirNE
	dirNW
	dirW
	dirSW
	dirSE
)

var dirNames = [6]string{"E", "NE", "NW", "W", "SW", "SE"}

// opposite is the direction of the same edge seen from the other hex.
func opposite(d int) int { return (d + 3) % 6 }

// maxCols is the widest board: columns are named by one letter.
const maxCols = 26

// maxRows is the tallest board: rows are named 1..99.
const maxRows = 99

// grid is the geometry of a W×H board.
type grid struct{ w, h int }

func (g grid) size() int { return g.w * g.h }

// neighbour returns the hex next to i in direction d, or -1 off the board.
func (g grid) neighbour(i, d int) int {
	r, c := i/g.w, i%g.w
	odd := r&1 == 1
	switch d {
	case dirE:
		c++
	case dirW:
		c--
	case dirNE:
		r--
		if odd {
			c++
		}
	case dirNW:
		r--
		if !odd {
			c--
		}
	case dirSE:
		r++
		if odd {
			c++
		}
	case dirSW:
		r++
		if !odd {
			c--
		}
	}
	if r < 0 || r >= g.h || c < 0 || c >= g.w {
		return -1
	}
	return r*g.w + c
}

// cube converts hex i to cube coordinates (for distances).
func (g grid) cube(i int) (x, y, z int) {
	r, c := i/g.w, i%g.w
	x = c - (r-(r&1))/2
	z = r
	return x, -x - z, z
}

// distance is the number of hex steps between i and j, ignoring terrain.
func (g grid) distance(i, j int) int {
	x1, y1, z1 := g.cube(i)
	x2, y2, z2 := g.cube(j)
	return max(abs(x1-x2), abs(y1-y2), abs(z1-z2))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// name is the printed name of hex i ("C4").
func (g grid) name(i int) string {
	return string(rune('A'+i%g.w)) + strconv.Itoa(i/g.w+1)
}

// parse reads a hex name ("C4", "c4"); it reports false for anything else,
// including hexes off the board.
func (g grid) parse(s string) (int, bool) {
	if len(s) < 2 || len(s) > 3 {
		return 0, false
	}
	col := s[0]
	switch {
	case col >= 'a' && col <= 'z':
		col -= 'a' - 'A'
	case col >= 'A' && col <= 'Z':
	default:
		return 0, false
	}
	c := int(col - 'A')
	if s[1] == '0' {
		return 0, false
	}
	r, err := strconv.Atoi(s[1:])
	if err != nil || r < 1 {
		return 0, false
	}
	r--
	if c >= g.w || r >= g.h {
		return 0, false
	}
	return r*g.w + c, true
}

// wedges is the land of one hex: bit d set when the wedge facing direction
// d is land.
type wedges uint8

const allLand wedges = 0x3f

func (m wedges) land(d int) bool { return m&(1<<d) != 0 }

// fragments is the number of land wedges (the hex's production points).
func (m wedges) fragments() int {
	n := 0
	for d := 0; d < 6; d++ {
		if m.land(d) {
			n++
		}
	}
	return n
}

// rotate turns the wedges by k sixths of a full turn counter-clockwise.
func (m wedges) rotate(k int) wedges {
	var out wedges
	for d := 0; d < 6; d++ {
		if m.land(d) {
			out |= 1 << ((d + k) % 6)
		}
	}
	return out
}

// String writes the wedges as a map file token: "#" for all land, "." for
// open water, else six characters in direction order E NE NW W SW SE, '#'
// for a land wedge and '.' for a water wedge ("##...#").
func (m wedges) String() string {
	switch m {
	case allLand:
		return "#"
	case 0:
		return "."
	}
	var b [6]byte
	for d := 0; d < 6; d++ {
		b[d] = '.'
		if m.land(d) {
			b[d] = '#'
		}
	}
	return string(b[:])
}

// parseWedges reads a map file token (see wedges.String).
func parseWedges(tok string) (wedges, error) {
	switch tok {
	case "#":
		return allLand, nil
	case ".":
		return 0, nil
	}
	if len(tok) != 6 {
		return 0, fmt.Errorf("hex %q: want #, . or six characters of # and . (directions E NE NW W SW SE)", tok)
	}
	var m wedges
	for d := 0; d < 6; d++ {
		switch tok[d] {
		case '#':
			m |= 1 << d
		case '.':
		default:
			return 0, fmt.Errorf("hex %q: character %q is neither # (land) nor . (water)", tok, tok[d])
		}
	}
	return m, nil
}

// parseRows reads the rows of a tile or board: one string per row, one
// token per hex, separated by spaces.
func parseRows(rows []string) (w, h int, land []wedges, err error) {
	h = len(rows)
	for r, row := range rows {
		toks := strings.Fields(row)
		if r == 0 {
			w = len(toks)
		}
		if len(toks) != w {
			return 0, 0, nil, fmt.Errorf("row %d has %d hexes, row 1 has %d", r+1, len(toks), w)
		}
		for _, t := range toks {
			m, err := parseWedges(t)
			if err != nil {
				return 0, 0, nil, fmt.Errorf("row %d: %w", r+1, err)
			}
			land = append(land, m)
		}
	}
	if w == 0 || h == 0 {
		return 0, 0, nil, fmt.Errorf("no hexes")
	}
	return w, h, land, nil
}

// formatRows writes land as rows (the inverse of parseRows); the
// even-numbered rows (2nd, 4th, …) are indented by one space so the file
// shows the hex layout.
func formatRows(w int, land []wedges) []string {
	var rows []string
	for r := 0; r*w < len(land); r++ {
		var b strings.Builder
		if r%2 == 1 {
			b.WriteByte(' ')
		}
		for c := 0; c < w; c++ {
			if c > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(land[r*w+c].String())
		}
		rows = append(rows, b.String())
	}
	return rows
}
