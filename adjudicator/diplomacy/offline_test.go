package diplomacy

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateOffline = flag.Bool("update-offline", false, "rewrite the expected outcomes testdata/offline/*.out")

// TestAdjudicateJSONGolden: `pbemd adjudicate` on each input
// testdata/offline/NAME.json writes NAME.out, byte for byte (indented
// JSON: scripts and diffs of saved outcomes depend on its bytes). The
// inputs cover an opening, a movement with a standoff and a dislodged
// unit, a retreat with an unreadable order that needs escaping, and a
// solo victory.
func TestAdjudicateJSONGolden(t *testing.T) {
	ins, err := filepath.Glob("testdata/offline/*.json")
	if err != nil || len(ins) == 0 {
		t.Fatalf("no inputs in testdata/offline (%v)", err)
	}
	for _, in := range ins {
		name := strings.TrimSuffix(in, ".json")
		t.Run(filepath.Base(name), func(t *testing.T) {
			raw, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := AdjudicateJSON(bytes.NewReader(raw), &got); err != nil {
				t.Fatal(err)
			}
			if *updateOffline {
				if err := os.WriteFile(name+".out", got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(name + ".out")
			if err != nil {
				t.Fatalf("%v (go test -update-offline writes it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("adjudicate wrote\n%s\nwant %s.out\n%s", got.Bytes(), name, want)
			}
		})
	}
}

func TestAdjudicateJSON(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		bad     string   // error text when the input must be refused
		results []string // "Power|order|outcome" expected, in order
		next    string   // text the next position must contain
		winner  string
	}{
		{name: "not json", in: `{"variant": "standard"`, bad: "reading JSON"},
		{name: "empty", in: ``, bad: "reading JSON"},
		{name: "unknown variant", in: `{"variant": "colonial"}`, bad: `unknown variant "colonial"`},
		{name: "no variant", in: `{}`, bad: `"variant" is required`},
		{name: "unknown field", in: `{"variant": "standard", "seed": 3}`, bad: `unknown field "seed"`},
		{name: "two values", in: `{"variant": "standard"} {}`, bad: "more than one JSON value"},
		{name: "unknown power", in: `{"variant": "standard", "orders": {"Narnia": ["A Par H"]}}`, bad: `unknown power "Narnia"`},
		{name: "two units in one province", in: `{"variant": "standard", "units": [{"power": "France", "type": "army", "province": "par"}, {"power": "Germany", "type": "army", "province": "par"}]}`, bad: "two units in par"},
		{name: "bad phase", in: `{"variant": "standard", "phase": {"season": "summer", "year": 1901, "type": "movement"}}`, bad: "season"},
		{
			name:    "start position, free text orders",
			in:      `{"variant": "standard", "orders": {"England": ["F London - North Sea", "A lvp - yor", "A Lvp - Wal"], "france": ["Army Paris to Burgundy", "this is not an order"]}}`,
			results: []string{"England|F Lon - Nth|succeeded", "England|A Lvp - Yor|illegal", "England|A Lvp - Wal|illegal", "France|A Par - Bur|succeeded", "France|this is not an order|invalid"},
			next:    `"season": "fall"`,
		},
		{
			name: "retreat phase, a standoff province is refused",
			in: `{"variant": "standard", "phase": {"season": "spring", "year": 1902, "type": "retreat"},
			      "units": [{"power": "Germany", "type": "army", "province": "bur"}, {"power": "France", "type": "army", "province": "par"}],
			      "dislodged": [{"power": "France", "type": "army", "province": "bur", "attacker_from": "mun"}],
			      "standoffs": ["pic"],
			      "supply_centers": {"par": "France", "mun": "Germany"},
			      "orders": {"France": ["A Bur - Pic"]}}`,
			results: []string{"France|A Bur R Pic|illegal"},
			next:    `"season": "fall"`,
		},
		{
			name: "retreat phase, the unit retreats",
			in: `{"variant": "standard", "phase": {"season": "spring", "year": 1902, "type": "retreat"},
			      "units": [{"power": "Germany", "type": "army", "province": "bur"}, {"power": "France", "type": "army", "province": "par"}],
			      "dislodged": [{"power": "France", "type": "army", "province": "bur", "attacker_from": "mun"}],
			      "standoffs": ["pic"],
			      "supply_centers": {"par": "France", "mun": "Germany"},
			      "orders": {"France": ["A Bur R Bel"]}}`,
			results: []string{"France|A Bur R Bel|succeeded"},
			next:    `"province": "bel"`,
		},
		{
			name: "retreat to a free province",
			in: `{"variant": "standard", "phase": {"season": "spring", "year": 1902, "type": "retreat"},
			      "units": [{"power": "Germany", "type": "army", "province": "bur"}, {"power": "France", "type": "army", "province": "par"}],
			      "dislodged": [{"power": "France", "type": "army", "province": "gas", "attacker_from": "bur"}],
			      "standoffs": ["spa"],
			      "supply_centers": {"par": "France", "mun": "Germany"},
			      "orders": {"France": ["A Gas - Spa", "A Gas R Mar"]}}`,
			results: []string{"France|A Gas R Spa|illegal", "France|A Gas R Mar|succeeded"},
			next:    `"province": "mar"`,
		},
		{
			name: "adjustments with civil disorder",
			in: `{"variant": "standard", "phase": {"season": "winter", "year": 1901, "type": "adjustment"},
			      "units": [{"power": "Russia", "type": "army", "province": "lvn"}, {"power": "Russia", "type": "army", "province": "swe"}, {"power": "England", "type": "fleet", "province": "nth"}],
			      "supply_centers": {"stp": "Russia", "lon": "England", "edi": "England"},
			      "orders": {"England": ["Build F Edi", "Build A Lon"]}}`,
			results: []string{"England|Build F Edi|succeeded", "England|Build A Lon|failed"},
			next:    `"province": "lvn"`,
		},
		{
			name: "solo victory",
			in: `{"variant": "ancientmed", "phase": {"season": "fall", "year": 460, "type": "movement"},
			      "units": [{"power": "Rome", "type": "army", "province": "mas"}],
			      "supply_centers": {"rom": "Rome", "rav": "Rome", "nea": "Rome", "sic": "Rome", "sad": "Rome", "bal": "Rome", "sag": "Rome",
			         "car": "Rome", "tha": "Rome", "cir": "Rome", "num": "Rome", "lep": "Rome", "cyr": "Rome", "ale": "Rome", "mem": "Rome", "the": "Rome", "dal": "Rome"},
			      "orders": {"Rome": ["A Massilia H"]}}`,
			results: []string{"Rome|A Mas H|succeeded"},
			winner:  "Rome",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := AdjudicateJSON(strings.NewReader(tc.in), &out)
			if tc.bad != "" {
				if err == nil || !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), tc.bad) {
					t.Fatalf("error %v, want ErrBadInput with %q", err, tc.bad)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got offlineOut
			dec := json.NewDecoder(&out)
			dec.DisallowUnknownFields()
			if err := dec.Decode(&got); err != nil {
				t.Fatal(err)
			}
			var res []string
			for _, r := range got.Results {
				res = append(res, r.Power+"|"+r.Order+"|"+r.Outcome.String())
				if r.Outcome != Succeeded && r.Reason == "" {
					t.Errorf("%s %s: no reason", r.Power, r.Order)
				}
			}
			if strings.Join(res, "\n") != strings.Join(tc.results, "\n") {
				t.Errorf("results\n%s\nwant\n%s", strings.Join(res, "\n"), strings.Join(tc.results, "\n"))
			}
			next, _ := json.Marshal(got.Next)
			if tc.next != "" && !strings.Contains(string(next), strings.ReplaceAll(tc.next, " ", "")) {
				t.Errorf("next %s lacks %s", next, tc.next)
			}
			if got.Winner != tc.winner {
				t.Errorf("winner %q, want %q", got.Winner, tc.winner)
			}
		})
	}
}
