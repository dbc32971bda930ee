package supremacy

import (
	"encoding/json"
	"strings"
	"testing"
)

func defaultJSON(t *testing.T) map[string]any {
	t.Helper()
	data, err := scenarioFiles.ReadFile("scenarios/default.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func table(m map[string]any, name string) map[string]any { return m[name].(map[string]any) }

func list(m map[string]any, name string) []any { return table(m, name)["list"].([]any) }

// TestScenarioValidation breaks the default scenario one way at a time:
// each break must be refused with a message naming it.
func TestScenarioValidation(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(m map[string]any)
		wants string
	}{
		{"unknown field", func(m map[string]any) { table(m, "rules")["start_money"] = 1 }, `unknown field "start_money"`},
		{"missing provenance", func(m map[string]any) { delete(table(m, "market"), "provenance") }, "market: provenance missing"},
		{"bad provenance", func(m map[string]any) { table(m, "deck")["provenance"] = "guess" }, `deck: provenance "guess"`},
		{"public provenance needs a source", func(m map[string]any) { table(m, "deck")["provenance"] = "public: " }, "deck: provenance"},
		{"border to nowhere", func(m map[string]any) {
			b := table(m, "borders")
			b["list"] = append(b["list"].([]any), []any{"usw", "atlantis"})
		}, `borders: unknown area "atlantis"`},
		{"border twice", func(m map[string]any) {
			b := table(m, "borders")
			b["list"] = append(b["list"].([]any), []any{"usc", "usw"})
		}, "listed twice"},
		{"impassable not a border", func(m map[string]any) {
			b := table(m, "borders")
			b["impassable"] = append(b["impassable"].([]any), []any{"usw", "fra"})
		}, "impassable: usw–fra must be a border"},
		{"home without city", func(m map[string]any) {
			a := list(m, "areas")[0].(map[string]any)
			delete(a, "cities")
		}, "home area usw has no city"},
		{"home is a sea", func(m map[string]any) {
			p := list(m, "superpowers")[0].(map[string]any)
			p["homes"] = append(p["homes"].([]any), "nth")
		}, "home nth is a sea area"},
		{"home of two", func(m map[string]any) {
			p := list(m, "superpowers")[1].(map[string]any)
			p["homes"] = append(p["homes"].([]any), "usw")
		}, "home of two superpowers"},
		{"company in the sea", func(m map[string]any) {
			c := table(m, "deck")["companies"].([]any)[0].(map[string]any)
			c["area"] = "nth"
		}, "is a sea area"},
		{"company without its city", func(m map[string]any) {
			for _, x := range table(m, "deck")["companies"].([]any) {
				if c := x.(map[string]any); c["id"] == "tokyomin" {
					delete(c, "city")
				}
			}
		}, "has several cities"},
		{"bad resource", func(m map[string]any) {
			table(m, "deck")["companies"].([]any)[0].(map[string]any)["resource"] = "gold"
		}, `resource "gold"`},
		{"falling price track", func(m map[string]any) {
			table(m, "market")["track"] = []any{500, 400}
			table(m, "market")["start"] = 0
		}, "must not fall"},
		{"start off the track", func(m map[string]any) { table(m, "market")["start"] = 99 }, "off the track"},
		{"interest table gap", func(m map[string]any) {
			rows := table(m, "loans")["rows"].([]any)
			table(m, "loans")["rows"] = append(rows[:2:2], rows[3:]...)
		}, "loans row 3: amount 4000, want 3000"},
		{"chokepoint between non-neighbours", func(m map[string]any) {
			list(m, "chokepoints")[0].(map[string]any)["seas"] = []any{"epo", "nth"}
		}, "do not border"},
		{"chokepoint control at sea", func(m map[string]any) {
			list(m, "chokepoints")[0].(map[string]any)["control"] = "car"
		}, "control area car is a sea area"},
		{"duplicate area", func(m map[string]any) {
			t := table(m, "areas")
			t["list"] = append(t["list"].([]any), map[string]any{"id": "usw", "name": "Again", "kind": "land"})
		}, `area "usw" appears twice`},
		{"two areas one name", func(m map[string]any) {
			list(m, "areas")[1].(map[string]any)["name"] = "Texas"
		}, `names both`},
		{"zero output", func(m map[string]any) {
			table(m, "deck")["companies"].([]any)[0].(map[string]any)["output"] = 0
		}, "output must be positive"},
		{"negative salary", func(m map[string]any) { table(m, "rules")["company_salary"] = -1 }, "company_salary must not be negative"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := defaultJSON(t)
			c.edit(m)
			data, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ParseScenario(data)
			if err == nil || !strings.Contains(err.Error(), c.wants) {
				t.Fatalf("ParseScenario: %v, want an error containing %q", err, c.wants)
			}
		})
	}
	t.Run("unchanged", func(t *testing.T) {
		data, _ := json.Marshal(defaultJSON(t))
		if _, err := ParseScenario(data); err != nil {
			t.Fatal(err)
		}
	})
}

// TestDefaultScenario checks the default board's shape and the seed's
// numbers in it.
func TestDefaultScenario(t *testing.T) {
	sc, ok := ScenarioByName("default")
	if !ok {
		t.Fatal("no default scenario")
	}
	r := sc.Rules
	seed := map[string][2]int{
		"start cash": {r.StartCash, 7000}, "forces": {r.StartForces, 9}, "cards": {r.StartCards, 3}, "fast cards": {r.FastStartCards, 6},
		"company salary": {r.CompanySalary, 50}, "force salary": {r.ForceSalary, 10}, "hits": {r.HitMin, 4}, "abm": {r.ABMKillMin, 2},
		"winter": {r.WinterDetonation, 12}, "research card": {r.ResearchCardCost, 200}, "activations": {r.AttackActivations, 3},
		"forces cost": {sc.Costs.Forces.Cash, 300}, "icbm": {sc.Costs.ICBM.Cash, 500}, "abm cost": {sc.Costs.ABM.Cash, 1000},
		"abm minerals": {sc.Costs.ABM.Minerals, 2}, "company worth": {sc.NetWorth.Company, 1200}, "blockaded": {sc.NetWorth.BlockadedCompany, 600},
		"force worth": {sc.NetWorth.Force, 200}, "icbm worth": {sc.NetWorth.ICBM, 1000}, "abm worth": {sc.NetWorth.ABM, 2000},
		"loan 5000": {sc.Loans.Interest(5000), 400}, "market start": {sc.Market.Track[sc.Market.Start], 500},
		"five up": {sc.Market.Track[sc.Market.Start+5], 800},
	}
	for name, v := range seed {
		if v[0] != v[1] {
			t.Errorf("%s = %d, want %d (seed)", name, v[0], v[1])
		}
	}
	if got := len(sc.powers); got != 8 {
		t.Errorf("%d superpowers, want 8", got)
	}
	var optional []string
	for _, p := range sc.powers {
		if p.Optional {
			optional = append(optional, p.ID)
		}
	}
	if strings.Join(optional, ",") != "brazil,middleeast" {
		t.Errorf("optional superpowers %v", optional)
	}
	// multi-city areas: Japan and Brazil (seed: Multiple City Areas)
	for _, id := range []string{"jap", "bra"} {
		if n := len(sc.areas[sc.areaByID[id]].Cities); n < 2 {
			t.Errorf("%s has %d cities", id, n)
		}
	}
	// the seed's choke points, with Egypt controlling Suez
	var suez *Chokepoint
	for _, c := range sc.chokes {
		if c.ID == "suez" {
			suez = c
		}
	}
	if suez == nil || sc.areas[suez.control].ID != "egy" {
		t.Errorf("Suez: %+v", suez)
	}
	// every superpower's home touches the sea; the impassable borders keep
	// armies out
	if sc.armyBorder(sc.areaByID["ind"], sc.areaByID["wch"]) {
		t.Error("India–Western China is impassable")
	}
	if !sc.adjacent(sc.areaByID["ind"], sc.areaByID["wch"]) {
		t.Error("India and Western China border each other")
	}
}
