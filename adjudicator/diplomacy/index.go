package diplomacy

// nameIndex finds an id's position in a fixed list with fewer instructions
// than a map with string keys (the resolver looks up every unit's province
// and power, every centre's owner and every order's provinces). An id's
// key is its length and its first, middle and last bytes; the key is
// hashed by a seeded multiply into a table of at least 16 slots per id,
// the seed being the first that puts no two ids in one slot, so a lookup
// is a few loads, one multiply and a comparison of keys (and of the
// strings for an id longer than three bytes, which its key does not spell
// out). Should two ids share a key, or no seed do, the index falls back
// to a map.
type nameIndex struct {
	seed  uint32
	shift uint32
	mask  uint32 // len(slot)-1
	slot  []slot
	ids   []string
	byMap map[string]int // the fallback
}

// slot holds an id's key and its index in the list (-1: empty).
type slot struct {
	key uint32
	i   int32
}

func idKey(s string) uint32 {
	n := len(s)
	if n == 0 {
		return 0
	}
	return uint32(n)<<24 | uint32(s[0])<<16 | uint32(s[n>>1])<<8 | uint32(s[n-1])
}

func newNameIndex(ids []string) nameIndex {
	bits := uint32(4)
	for 1<<bits < 16*len(ids) {
		bits++
	}
	x := nameIndex{shift: 32 - bits, mask: 1<<bits - 1, slot: make([]slot, 1<<bits), ids: ids}
	for x.seed = 1; x.seed < 1<<10; x.seed++ {
		if x.fill() {
			return x
		}
	}
	// No seed: every id misses the one empty slot, then finds the map.
	x = nameIndex{shift: 32, mask: 0, slot: []slot{{0, -1}}, byMap: make(map[string]int, len(ids))}
	for i, id := range ids {
		x.byMap[id] = i
	}
	return x
}

// fill puts every id in its slot and reports whether none collided.
func (x *nameIndex) fill() bool {
	for i := range x.slot {
		x.slot[i] = slot{0, -1}
	}
	for i, id := range x.ids {
		k := idKey(id)
		h := ((k ^ x.seed) * 0x9E3779B1) >> x.shift
		if k == 0 || x.slot[h].i >= 0 {
			return false
		}
		x.slot[h] = slot{k, int32(i)}
	}
	return true
}

// find returns the position of id in the list. An empty slot's key is 0,
// which no id's key is, so a key that matches is a filled slot; an id of
// three bytes (every province of the standard map) is all in its key.
func (x *nameIndex) find(id string) (int, bool) {
	var k uint32
	switch n := len(id); n {
	case 0:
		return x.miss(id)
	case 3:
		k = 3<<24 | uint32(id[0])<<16 | uint32(id[1])<<8 | uint32(id[2])
	default:
		k = uint32(n)<<24 | uint32(id[0])<<16 | uint32(id[n>>1])<<8 | uint32(id[n-1])
	}
	if e := x.slot[(((k^x.seed)*0x9E3779B1)>>x.shift)&x.mask]; e.key == k && (len(id) <= 3 || x.ids[e.i] == id) {
		return int(e.i), true
	}
	return x.miss(id)
}

// miss is find without the table: the fallback map, if any.
func (x *nameIndex) miss(id string) (int, bool) {
	if x.byMap == nil {
		return -1, false
	}
	i, ok := x.byMap[id]
	return i, ok
}

// prov returns the index of a province id.
func (m *Map) prov(id string) (int, bool) { return m.provFind.find(id) }

// power returns the index of a power id.
func (m *Map) power(id string) (int, bool) { return m.powerFind.find(id) }

// abbreviations prints a map's provinces as its lexicon does (every
// province has an abbreviation), through the map's own index.
type abbreviations Map

func (a *abbreviations) Abbrev(id string) (string, bool) {
	i, ok := a.provFind.find(id)
	if !ok {
		return "", false
	}
	return a.Provinces[i].Abbrev, true
}
