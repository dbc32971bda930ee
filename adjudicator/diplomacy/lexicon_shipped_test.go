package diplomacy

import (
	"strings"
	"testing"
)

// TestShippedAliasesShadowNoOtherProvince checks the shipped maps' names: no
// alias of a province begins another province's name. An alias is an exact
// name, and an exact name wins over a prefix, so such an alias would read
// "Liv" as Livonia without a word while a player may mean Liverpool (or "Nor"
// as Norway, "Sin" as Sinai): the judge must ask instead ("could be ...").
func TestShippedAliasesShadowNoOtherProvince(t *testing.T) {
	for _, variant := range MapNames() {
		m, _ := MapByName(variant)
		provs := m.Lexicon().Provinces
		for _, p := range provs {
			for _, a := range p.Aliases {
				a = strings.ToLower(a)
				for _, q := range provs {
					if q.ID == p.ID {
						continue
					}
					for _, n := range append([]string{q.ID, q.Abbrev, q.Full}, q.Aliases...) {
						if strings.HasPrefix(strings.ToLower(n), a) {
							t.Errorf("%s: alias %q of %s (%s) begins %q, a name of %s (%s)", variant, a, p.Full, p.Abbrev, n, q.Full, q.Abbrev)
						}
					}
				}
			}
		}
	}
}
