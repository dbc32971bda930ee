package diplomacy

import (
	"fmt"
	"testing"
)

// TestNameIndex: the index finds every province and power of the shipped
// maps at its place and nothing else, and so does its fallback (a list
// whose ids no seed separates).
func TestNameIndex(t *testing.T) {
	others := []string{"", "x", "LON", "lon ", "lo", "lonx", "stp/nc", "england2", "Rome", "naf\x00"}
	check := func(name string, x nameIndex, ids []string) {
		for i, id := range ids {
			if j, ok := x.find(id); !ok || j != i {
				t.Errorf("%s: find(%q) = %d, %v; want %d", name, id, j, ok, i)
			}
		}
		for _, id := range others {
			if j, ok := x.find(id); ok && ids[j] != id {
				t.Errorf("%s: find(%q) = %d (%q)", name, id, j, ids[j])
			}
		}
	}
	for _, mn := range MapNames() {
		m, _ := MapByName(mn)
		var provs, powers []string
		for _, p := range m.Provinces {
			provs = append(provs, p.ID)
		}
		for _, p := range m.Powers {
			powers = append(powers, p.ID)
		}
		if m.provFind.byMap != nil || m.powerFind.byMap != nil {
			t.Errorf("%s: the index fell back to a map", mn)
		}
		check(mn+" provinces", m.provFind, provs)
		check(mn+" powers", m.powerFind, powers)
	}
	var many []string // as many ids as a map may have locations
	for i := range maxLocs {
		many = append(many, fmt.Sprintf("%c%c%c", 'a'+i%26, 'a'+i/26, 'a'+(i*7)%26))
	}
	if x := newNameIndex(many); x.byMap != nil {
		t.Errorf("%d three-letter ids fell back to a map", maxLocs)
	} else {
		check(fmt.Sprint(maxLocs, " ids"), x, many)
	}
	// Same length, first, middle and last byte: one key, no seed helps.
	same := []string{"abxyc", "abzyc", "aqxyc"}
	x := newNameIndex(same)
	if x.byMap == nil {
		t.Fatal("ids with one key did not fall back to a map")
	}
	check("one key", x, same)
}
