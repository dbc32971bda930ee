package picture

import (
	"image"
	"math"
	"slices"
	"sync"
)

// Small shapes recur from picture to picture at the same place: a board's
// supply-centre rings, unit tokens on their provinces, the legend's
// symbols. Their coverage masks (which do not depend on the colour) are
// kept in a bounded cache, keyed by the exact points and pixel box, so a
// later picture blends the kept mask instead of rasterising the shape
// again. A kept mask is the one rasterising would make, so pictures are
// the same with or without it.

const (
	maxMaskArea  = 64 * 64 // the largest box whose mask is kept
	maxMaskBytes = 4 << 20 // the cache is emptied when it outgrows this
)

type maskEntry struct {
	box  image.Rectangle
	ends []int32 // where each polygon ends in pts
	pts  []Point
	mask []uint8
}

var maskCache struct {
	mu    sync.Mutex
	m     map[uint64][]*maskEntry
	bytes int
}

func maskHash(polys [][]Point, b image.Rectangle) uint64 {
	h := uint64(14695981039346656037)
	mix := func(v uint64) { h = (h ^ v) * 1099511628211 }
	mix(uint64(int64(b.Min.X))<<32 | uint64(uint32(b.Min.Y)))
	mix(uint64(int64(b.Max.X))<<32 | uint64(uint32(b.Max.Y)))
	for _, pl := range polys {
		mix(uint64(len(pl)))
		for _, q := range pl {
			mix(math.Float64bits(q.X))
			mix(math.Float64bits(q.Y))
		}
	}
	return h
}

func (e *maskEntry) matches(polys [][]Point, b image.Rectangle) bool {
	if e.box != b || len(e.ends) != len(polys) {
		return false
	}
	start := int32(0)
	for i, pl := range polys {
		if e.ends[i]-start != int32(len(pl)) || !slices.Equal(e.pts[start:e.ends[i]], pl) {
			return false
		}
		start = e.ends[i]
	}
	return true
}

// keptMask returns the kept mask of polys in box b, or nil.
func keptMask(key uint64, polys [][]Point, b image.Rectangle) []uint8 {
	maskCache.mu.Lock()
	defer maskCache.mu.Unlock()
	for _, e := range maskCache.m[key] {
		if e.matches(polys, b) {
			return e.mask
		}
	}
	return nil
}

// keepMask keeps a copy of the mask of polys in box b.
func keepMask(key uint64, polys [][]Point, b image.Rectangle, mask []uint8) {
	e := &maskEntry{box: b, mask: slices.Clone(mask)}
	for _, pl := range polys {
		e.pts = append(e.pts, pl...)
		e.ends = append(e.ends, int32(len(e.pts)))
	}
	size := len(e.mask) + 16*len(e.pts) + 64
	maskCache.mu.Lock()
	defer maskCache.mu.Unlock()
	if maskCache.m == nil || maskCache.bytes+size > maxMaskBytes {
		maskCache.m, maskCache.bytes = map[uint64][]*maskEntry{}, 0
	}
	maskCache.m[key] = append(maskCache.m[key], e)
	maskCache.bytes += size
}
