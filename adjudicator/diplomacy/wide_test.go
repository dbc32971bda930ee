package diplomacy

import (
	"fmt"
	"strings"
	"testing"
)

// wideMap writes a synthetic map of rows × 20 provinces, in rows a, b, …
// and columns a … t: province "x" + row + column (xdp: row d, column p).
// Rows a–c are land, row d coast, the rows after it sea, the last row
// coast again; the last province (bottom right) has two coasts, north (to
// the sea above) and west (to its neighbour). Red's home centres are xaa, xab, xac (armies), Blue's the
// last three of the last row (armies, and a fleet on the north coast of
// the corner); row d's first ten provinces are neutral centres.
func wideMap(rows int) string {
	const cols = 20
	id := func(r, c int) string { return fmt.Sprintf("x%c%c", 'a'+r, 'a'+c) }
	last := rows - 1
	corner := id(last, cols-1)
	kind := func(r int) string {
		switch {
		case r < 3:
			return "land"
		case r == 3 || r == last:
			return "coast"
		}
		return "sea"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "variant wide\ntitle Wide (a synthetic board)\nvictory 9\nprovinces %d\ncentres 16\n", rows*cols)
	b.WriteString("power red | Red |\npower blue | Blue |\n")
	for r := range rows {
		for c := range cols {
			centre := "-"
			switch {
			case r == 0 && c < 3:
				centre = "red"
			case r == last && c >= cols-3:
				centre = "blue"
			case r == 3 && c < 10:
				centre = "sc"
			}
			fmt.Fprintf(&b, "province %s | X%c%c | %s | %s | Wide %s |\n", id(r, c), 'a'+r, 'a'+c, kind(r), centre, id(r, c))
		}
	}
	fmt.Fprintf(&b, "coasts %s | nc wc\n", corner)
	for r := range rows {
		for c := range cols {
			var army, fleet []string
			for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				nr, nc := r+d[0], c+d[1]
				if nr < 0 || nr >= rows || nc < 0 || nc >= cols {
					continue
				}
				k, nk := kind(r), kind(nr)
				if k != "sea" && nk != "sea" && (nr == r || k == "land" || nk == "land") {
					army = append(army, id(nr, nc)) // no army across the sea
				}
				if k != "land" && nk != "land" && (k == "sea" || nk == "sea" || nr == r) {
					to := id(nr, nc)
					if to == corner {
						to += map[bool]string{true: "/wc", false: "/nc"}[nr == r]
					}
					fleet = append(fleet, to)
				}
			}
			if len(army) > 0 {
				fmt.Fprintf(&b, "army %s | %s\n", id(r, c), strings.Join(army, " "))
			}
			switch {
			case id(r, c) == corner:
				fmt.Fprintf(&b, "fleet %s/nc | %s\nfleet %s/wc | %s\n", corner, id(r-1, c), corner, id(r, c-1))
			case len(fleet) > 0:
				fmt.Fprintf(&b, "fleet %s | %s\n", id(r, c), strings.Join(fleet, " "))
			}
		}
	}
	fmt.Fprintf(&b, "unit red | A xaa\nunit red | A xab\nunit red | A xac\n")
	fmt.Fprintf(&b, "unit blue | A %s\nunit blue | A %s\nunit blue | F %s/nc\n", id(last, cols-3), id(last, cols-2), corner)
	return b.String()
}

// TestWideMap: a map of 200 provinces and 202 locations, more than the
// two words the bit sets once had, loads and adjudicates movement,
// convoys, retreats and civil disorder on provinces of every word
// (testdata/wide: xjp is province 195, in the last word).
func TestWideMap(t *testing.T) {
	m, err := ParseMap("wide.map", []byte(wideMap(10)))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Provinces) != 200 || len(m.locs) != 202 || m.provIdx["xjp"] != 195 || m.locIdx["xjt/wc"] != 201 {
		t.Fatalf("%d provinces, %d locations, xjp at %d, xjt/wc at %d", len(m.Provinces), len(m.locs), m.provIdx["xjp"], m.locIdx["xjt/wc"])
	}
	for _, c := range loadCases(t, "testdata/wide/*.txt") {
		t.Run(c.name, func(t *testing.T) { runCaseOn(t, m, c) })
	}
}

// TestLocationLimit: a map of more than 256 locations is refused with the
// file's name and the line of the province at which the count passes the
// limit.
func TestLocationLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("variant big\ntitle Big\nvictory 1\npower red | Red |\n")
	for i := range 257 {
		id := string(rune('a'+i/26)) + string(rune('a'+i%26)) + "x"
		home := "-"
		if i == 0 {
			home = "red"
		}
		b.WriteString("province " + id + " | " + id + " | land | " + home + " | Province " + id + " |\n")
	}
	_, err := ParseMap("big.map", []byte(b.String()))
	// The 257th province, jwx, stands on line 4 + 257.
	if err == nil || !strings.Contains(err.Error(), "map big.map line 261: province jwx: the map has 257 locations (provinces plus coasts), at most 256 supported") {
		t.Fatalf("257 locations: %v", err)
	}
}
