package diplomacy

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestFogSees: what a power sees in a fog of war game, one case each:
// the provinces of its units and of the centres it owns, and their
// neighbours by land or sea; nothing else.
func TestFogSees(t *testing.T) {
	m, _ := MapByName("fog")
	for _, tc := range []struct {
		name   string
		units  []Unit
		owners map[string]string
		power  string
		want   string
	}{
		{"FW.1 England at the start", m.NewPosition().Units, m.NewPosition().Owners, "england",
			"cly edi eng iri lon lvp nao nth nwg wal yor"},
		{"FW.2 A fleet at sea sees the coasts and seas it borders", []Unit{{Power: "england", Type: Fleet, Loc: Location{Province: "nth"}}}, nil, "england",
			"bel den edi eng hel hol lon nth nwg nwy ska yor"},
		{"FW.3 A centre owned without a unit is seen with its borders", nil, map[string]string{"nwy": "england"}, "england",
			"bar fin nth nwg nwy ska stp swe"},
		{"FW.4 An army inland sees the land it borders", []Unit{{Power: "germany", Type: Army, Loc: Location{Province: "boh"}}}, nil, "germany",
			"boh gal mun sil tyr vie"},
		{"FW.5 Another power's units show nothing", []Unit{{Power: "france", Type: Army, Loc: Location{Province: "boh"}}}, nil, "germany", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pos := &Position{Map: m, Phase: Phase{Spring, 1901, Movement}, Units: tc.units, Owners: tc.owners}
			var got []string
			for p := range visible(pos, tc.power) {
				got = append(got, p)
			}
			slices.Sort(got)
			if strings.Join(got, " ") != tc.want {
				t.Errorf("sees %q, want %q", strings.Join(got, " "), tc.want)
			}
		})
	}
}

// TestFogResults: a power's results name the orders of the units it
// sees, and not a support or convoy of a unit it does not see (FW.6),
// nor a standoff or dislodgement out of its sight (FW.7).
func TestFogResults(t *testing.T) {
	m, _ := MapByName("fog")
	f := FogEngine{&Engine{m: m}}
	state := encodeState(&gameState{pos: m.NewPosition()})
	out, err := f.Resolve(state, map[string][]string{
		"england": {"F Lon - Eng", "F Edi - Nth", "A Lvp - Yor"},
		"france":  {"F Bre - Eng", "A Par - Pic", "A Mar S A Par - Bur"},
		"germany": {"A Mun - Bur", "A Ber - Kie", "F Kie - Hol"},
	}, 1)
	if err != nil {
		t.Fatal(err)
	}
	eng := out.Report.Private["england"]
	// The bounce in the Channel is seen; the fleet that came from Brest,
	// out of sight, is not.
	if !strings.Contains(eng, "F Lon - Eng               failed") || !strings.Contains(eng, "Standoffs: Eng") {
		t.Errorf("England does not read its bounce in the Channel:\n%s", eng)
	}
	for _, hidden := range []string{"F Bre", "A Mar", "A Mun", "A Ber", "Bur"} {
		if strings.Contains(eng, hidden) {
			t.Errorf("England reads %s:\n%s", hidden, eng)
		}
	}
	if strings.Contains(out.Report.Public, "A ") || strings.Contains(out.Report.Public, "F ") {
		t.Errorf("the shared part names units:\n%s", out.Report.Public)
	}
	var data ResultData
	if err := json.Unmarshal(out.Report.Data, &data); err != nil || len(data.Orders) != 9 {
		t.Errorf("the phase's data keeps every order: %d, %v", len(data.Orders), err)
	}
}
