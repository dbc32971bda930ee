package empire

import (
	"fmt"
	"math/rand/v2"
)

// The world generator (option world=generated) makes a new board from the
// game's seed, so every game can be played on a different world. It grows
// land from a few random starting hexes until about three fifths of the
// board is land, cuts shorelines (a land hex facing water keeps each wedge
// towards the water with even odds; a water hex next to land gets a land
// wedge towards it one time in three), then places the homes as far apart by
// land as it can on all-land hexes with land all around. A board whose homes
// are not all joined by land is thrown away and another is drawn.

// generatedSize is the default board size for a number of players.
func generatedSize(players int) (w, h int) {
	switch players {
	case 2:
		return 12, 10
	case 3:
		return 14, 12
	case 4:
		return 16, 12
	case 5:
		return 18, 14
	case 6:
		return 20, 16
	case 7:
		return 24, 16
	}
	return 26, 18
}

// generateWorld makes a board for the players from seed.
func generateWorld(seed int64, players, w, h int) (*World, error) {
	dw, dh := generatedSize(players)
	if w == 0 {
		w = dw
	}
	if h == 0 {
		h = dh
	}
	g := grid{w, h}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x656d70697265)) // "empire"
	for attempt := 0; attempt < 50; attempt++ {
		land := growLand(g, rng)
		wd := shorelines(g, land, rng)
		homes, ok := placeHomes(g, wd, players, rng)
		if !ok {
			continue
		}
		world, err := newWorld("generated", fmt.Sprintf("Generated world, %d×%d hexes, seed %d", w, h, seed), "invented", g, wd, homes)
		if err == nil {
			return world, nil
		}
	}
	return nil, fmt.Errorf("no playable %d×%d world for %d players from seed %d", w, h, players, seed)
}

// growLand marks about 60% of the hexes as land, grown from a few seeds.
func growLand(g grid, rng *rand.Rand) []bool {
	n := g.size()
	land := make([]bool, n)
	target := n * 3 / 5
	count := 0
	var frontier []int
	inFrontier := make([]bool, n)
	addLand := func(i int) {
		if land[i] {
			return
		}
		land[i] = true
		count++
		for d := 0; d < 6; d++ {
			if j := g.neighbour(i, d); j >= 0 && !land[j] && !inFrontier[j] {
				inFrontier[j] = true
				frontier = append(frontier, j)
			}
		}
	}
	for k := 0; k < 3+rng.IntN(3); k++ {
		addLand(rng.IntN(n))
	}
	for count < target && len(frontier) > 0 {
		k := rng.IntN(len(frontier))
		i := frontier[k]
		frontier[k] = frontier[len(frontier)-1]
		frontier = frontier[:len(frontier)-1]
		inFrontier[i] = false
		addLand(i)
	}
	return land
}

// shorelines turns a land/water mask into wedges.
func shorelines(g grid, land []bool, rng *rand.Rand) []wedges {
	out := make([]wedges, g.size())
	for i := range land {
		var m wedges
		for d := 0; d < 6; d++ {
			j := g.neighbour(i, d)
			switch {
			case land[i] && (j < 0 || land[j]):
				m |= 1 << d
			case land[i]:
				if rng.IntN(2) == 0 {
					m |= 1 << d
				}
			case j >= 0 && land[j]:
				if rng.IntN(3) == 0 {
					m |= 1 << d
				}
			}
		}
		if land[i] && m == 0 {
			m = 1 << rng.IntN(6)
		}
		out[i] = m
	}
	return out
}

// placeHomes picks homes far apart by land on all-land hexes ringed by land.
func placeHomes(g grid, land []wedges, players int, rng *rand.Rand) ([]Home, bool) {
	tmp := &World{g: g, land: land, links: make([][]int, g.size())}
	for i := range land {
		for d := 0; d < 6; d++ {
			j := g.neighbour(i, d)
			if j >= 0 && land[i].land(d) && land[j].land(opposite(d)) {
				tmp.links[i] = append(tmp.links[i], j)
			}
		}
	}
	var cands []int
	for i := range land {
		if land[i] == allLand && len(tmp.links[i]) == 6 {
			cands = append(cands, i)
		}
	}
	if len(cands) < players {
		return nil, false
	}
	chosen := []int{cands[rng.IntN(len(cands))]}
	dists := [][]int{tmp.landDistances(chosen[0])}
	for len(chosen) < players {
		best, bestD := -1, -1
		for _, c := range cands {
			d := 1 << 30
			for _, ds := range dists {
				if ds[c] < 0 {
					d = -1
					break
				}
				d = min(d, ds[c])
			}
			if d > bestD {
				best, bestD = c, d
			}
		}
		if bestD < 4 {
			return nil, false
		}
		chosen = append(chosen, best)
		dists = append(dists, tmp.landDistances(best))
	}
	var homes []Home
	for k, h := range chosen {
		homes = append(homes, Home{Seat: fmt.Sprintf("p%d", k+1), Hex: h})
	}
	return homes, true
}
