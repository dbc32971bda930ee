package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"

	"pbemd/adjudicator/diplomacy"
)

// A Supremacy scenario's world is drawn the same way as a Diplomacy map:
// "-scenario FILE.json -out FILE.geo" reads the scenario's areas, borders
// and chokepoints instead of a map file's provinces, and writes the
// geometry lines (geo-size, geo-shape, geo-place, geo-coast, geo-link) to
// a file of their own, which the engine embeds beside the scenario
// (adjudicator/supremacy/geometry.go reads it). In the sketch, "coast ID |
// lon lat" marks where a chokepoint's strait is drawn (ID is the
// chokepoint's id), and "link a b" a border drawn as a line.
//
//	go run ./internal/mapgeo -atlas package/land-50m.json -sketch internal/mapgeo/supremacy.sketch \
//	    -scenario adjudicator/supremacy/scenarios/default.json -out adjudicator/supremacy/scenarios/default.geo

// scenarioFile is the part of a scenario file the tool reads.
type scenarioFile struct {
	Name  string `json:"name"`
	Areas struct {
		List []struct {
			ID   string `json:"id"`
			Kind string `json:"kind"`
		} `json:"list"`
	} `json:"areas"`
	Borders struct {
		List [][2]string `json:"list"`
	} `json:"borders"`
	Chokepoints struct {
		List []struct {
			ID   string    `json:"id"`
			Seas [2]string `json:"seas"`
		} `json:"list"`
	} `json:"chokepoints"`
}

func runScenario(atlasPath, sketchPath, scenarioPath, outPath, debug string) error {
	if outPath == "" {
		return fmt.Errorf("-scenario wants -out")
	}
	sk, err := readSketch(sketchPath)
	if err != nil {
		return err
	}
	raw, err := os.ReadFile(scenarioPath)
	if err != nil {
		return err
	}
	var sf scenarioFile
	if err := json.Unmarshal(raw, &sf); err != nil {
		return fmt.Errorf("%s: %w", scenarioPath, err)
	}
	// The grid needs only each area's id and terrain, and emit the name
	// of the sketch.
	m := &diplomacy.Map{Name: "supremacy"}
	for _, a := range sf.Areas.List {
		k := diplomacy.Coast
		if a.Kind == "sea" {
			k = diplomacy.Sea
		}
		m.Provinces = append(m.Provinces, diplomacy.Province{ID: a.ID, Kind: k})
	}
	land, err := readAtlas(atlasPath)
	if err != nil {
		return err
	}
	g := newGrid(sk)
	g.paintLand(land, sk)
	if err := g.assign(sk, m); err != nil {
		return err
	}
	g.grow(sk.islandReach)
	g.despeck(sk.minArea)
	chains := g.trace()
	out := g.emit(sk, m, chains)
	header := fmt.Sprintf("# Geometry of the Supremacy scenario %s, made by internal/mapgeo -scenario (supremacy.go): do not edit by hand.\n", sf.Name)
	if err := os.WriteFile(outPath, append([]byte(header), out...), 0o644); err != nil {
		return err
	}
	if debug != "" {
		if err := g.writeDebug(debug, sk, chains); err != nil {
			return err
		}
	}
	border := map[[2]string]bool{}
	for _, b := range sf.Borders.List {
		border[b] = true
		border[[2]string{b[1], b[0]}] = true
	}
	strait := map[[2]string]bool{}
	for _, c := range sf.Chokepoints.List {
		strait[c.Seas] = true
		strait[[2]string{c.Seas[1], c.Seas[0]}] = true
	}
	g.reportBorders(func(a, b string) bool { return border[[2]string{a, b}] }, func(a, b string) bool { return strait[[2]string{a, b}] }, chains, sk.links)
	return nil
}

// reportBorders lists where the traced picture and the scenario's borders
// disagree: areas that share a border line but are not neighbours, and
// neighbours that neither share one nor are linked or joined by a strait.
func (g *grid) reportBorders(adjacent, strait func(a, b string) bool, chains []chain, links [][2]string) {
	linked := map[[2]string]bool{}
	for _, l := range links {
		linked[l] = true
		linked[[2]string{l[1], l[0]}] = true
	}
	shared := map[[2]int]float64{}
	for _, c := range chains {
		a, b := c.left, c.right
		if a < 0 || b < 0 || a >= g.nProv || b >= g.nProv {
			continue
		}
		if a > b {
			a, b = b, a
		}
		for i := 1; i < len(c.pts); i++ {
			shared[[2]int{a, b}] += math.Hypot(c.pts[i][0]-c.pts[i-1][0], c.pts[i][1]-c.pts[i-1][1])
		}
	}
	var lines []string
	for k, l := range shared {
		if l > 0 && !adjacent(g.ids[k[0]], g.ids[k[1]]) {
			lines = append(lines, fmt.Sprintf("touch but not adjacent: %s %s (%.0f px)", g.ids[k[0]], g.ids[k[1]], l/2))
		}
	}
	for a := 0; a < g.nProv; a++ {
		for b := a + 1; b < g.nProv; b++ {
			x, y := g.ids[a], g.ids[b]
			if adjacent(x, y) && shared[[2]int{a, b}] < 6 && !linked[[2]string{x, y}] && !strait(x, y) {
				lines = append(lines, fmt.Sprintf("adjacent but no border: %s %s (%.1f px)", x, y, shared[[2]int{a, b}]/2))
			}
		}
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
	fmt.Printf("%d disagreements\n", len(lines))
}
