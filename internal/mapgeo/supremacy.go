package main

import (
	"encoding/json"
	"fmt"
	"os"

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
	g, chains, err := build(atlasPath, sk, m)
	if err != nil {
		return err
	}
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
	g.report(func(a, b string) bool { return border[[2]string{a, b}] }, func(a, b string) bool { return strait[[2]string{a, b}] }, 0, chains, sk.links)
	return nil
}
