package diplomacy

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestOfflineJSONAsEncoder: what `pbemd adjudicate` writes is what
// encoding/json's Encoder writes (indented by two spaces) for the same
// outcome, byte for byte: for every phase of the corpus adjudicated
// through the offline contract, and for outcomes with every field set or
// empty and strings that need escaping.
func TestOfflineJSONAsEncoder(t *testing.T) {
	check := func(t *testing.T, out *offlineOut) {
		t.Helper()
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			t.Fatal(err)
		}
		if got := out.appendJSON(nil); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("appendJSON wrote\n%s\nencoding/json\n%s", got, want.Bytes())
		}
	}
	t.Run("corpus", func(t *testing.T) {
		for i, c := range loadCorpus(t) {
			m := c.pos.Map
			in := offlineIn{jsonPosition: *encodePosition(c.pos, m.PowerName), Orders: map[string][]string{}}
			for _, o := range c.ords {
				p := m.PowerName(o.Power)
				in.Orders[p] = append(in.Orders[p], Format(o.Order, m.Lexicon()))
			}
			if i%7 == 0 {
				in.Orders[m.PowerName(m.Powers[0].ID)] = append(in.Orders[m.PowerName(m.Powers[0].ID)], "not an order <&>")
			}
			out, err := in.adjudicate()
			if err != nil {
				t.Fatalf("phase %d: %v", i, err)
			}
			check(t, out)
		}
	})
	var odd strings.Builder
	for c := range 128 {
		odd.WriteByte(byte(c))
	}
	odd.WriteString("\u2028\u2029é€😀\xff\xc3(\u00a0")
	s := odd.String()
	units := []jsonUnit{
		{Power: s, Type: "army", Province: "par"},
		{Power: "France", Type: "fleet", Province: "spa", Coast: "sc", AttackerFrom: s, ByConvoy: true, Options: []string{"por", s}},
		{Power: "France", Type: "fleet", Province: "spa", Options: []string{}},
	}
	for name, out := range map[string]*offlineOut{
		"zero":  {},
		"empty": {Results: []offlineResult{}, Standoffs: []string{}, Next: &jsonPosition{Units: []jsonUnit{}, SupplyCenters: map[string]string{}}},
		"full": {
			Phase:     &jsonPhase{Season: "spring", Year: -1901, Type: s},
			Results:   []offlineResult{{Power: s, Order: s, Outcome: Illegal, Reason: s}, {Power: "a", Order: "b", Outcome: Succeeded}, {Outcome: 200}},
			Standoffs: []string{"bur", s},
			Next: &jsonPosition{
				Version: 3, Variant: s, Phase: &jsonPhase{}, Units: units, Dislodged: units, Standoffs: []string{s},
				SupplyCenters: map[string]string{"par": "France", s: s, "": "", "PAR": "x", "zzz": "<"}, Over: true, Winners: []string{s, ""},
			},
			Winner: s,
		},
		"nil lists": {Next: &jsonPosition{Dislodged: []jsonUnit{}, Winners: []string{}}},
	} {
		t.Run(name, func(t *testing.T) { check(t, out) })
	}
}
