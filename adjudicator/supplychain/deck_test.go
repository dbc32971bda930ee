package supplychain

import (
	"encoding/json"
	"strings"
	"testing"
)

// Seed, set-up step 2: 210 cards in nine sets.
func TestDefaultDeckComposition(t *testing.T) {
	d := defaultDeck(t)
	want := map[Kind]int{KindMainOffice: 6, KindOffice: 9, KindVehicle: 16, KindContract: 58, KindSpecialOffice: 27,
		KindStarter: 8, KindDerelict: 6, KindPlan: 6, KindProperty: 74}
	got := map[Kind]int{}
	for _, c := range d.Cards {
		got[c.Kind]++
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d cards, want %d", k, got[k], n)
		}
	}
	if len(d.Cards) != 210 {
		t.Errorf("%d cards, want 210", len(d.Cards))
	}
	for _, table := range []string{"composition", "rules", "solo", "streets", "goods", "main_offices", "offices",
		"special_offices", "starters", "properties", "contracts", "vehicles", "derelicts", "business_plans"} {
		if d.Provenance[table] == "" {
			t.Errorf("table %s has no provenance", table)
		}
	}
	if d.Provenance["composition"] != "seed" || d.Provenance["rules"] != "seed" {
		t.Errorf("composition and rules come from the seed: %v", d.Provenance)
	}
	r := d.Rules
	if r.StartMoney != 1500 || r.MoneyCap != 2000 || r.HandLimit != 7 || r.Listed != 6 || r.ListingRounds != 4 ||
		r.PriceStep != 50 || r.BlindDiscount != 50 || r.StreetBonus != 50 || r.TokenVP != 3 || r.SpecialOfficesDealt != 2 ||
		r.OfficeLead != 2 || r.ShortDeckOut != "234" || r.SoloProperties != 15 || r.MaxPlayers != 6 {
		t.Errorf("rules differ from the seed: %+v", r)
	}
}

// Seed, set-up step 2: the Short Deck keeps one of each property.
func TestShortDeckHasOneOfEachProperty(t *testing.T) {
	d := defaultDeck(t)
	names := map[string]int{}
	for _, c := range d.Cards {
		if c.Kind == KindProperty && !strings.ContainsAny(c.Code[len(c.Code)-1:], d.Rules.ShortDeckOut) {
			names[c.Name]++
		}
	}
	for _, c := range d.Cards {
		if c.Kind == KindProperty && names[c.Name] == 0 {
			t.Errorf("%s has no copy in the Short Deck", c.Name)
		}
	}
	// The solo rule "only 1 Ad Agency" needs the Short Deck to hold two.
	if names["Ad Agency"] != 2 || len(d.SoloExclude) != 1 {
		t.Errorf("Ad Agency copies in the Short Deck: %d, solo excludes %d", names["Ad Agency"], len(d.SoloExclude))
	}
}

// The invented deck must bring every rule into play.
func TestDefaultDeckExercisesEveryRule(t *testing.T) {
	d := defaultDeck(t)
	effects := map[EffectKind]bool{}
	var vehicleNeeded, supplierWithNeeds, sameStreet, businessMakes, partialLinks, derelictNegative bool
	for i := range d.Cards {
		c := &d.Cards[i]
		effects[c.Effect.Kind] = true
		if c.Needs&d.vehicleMask() != 0 {
			vehicleNeeded = true
		}
		if c.Role() == "supplier" {
			supplierWithNeeds = true
		}
		if c.IsBusiness() && c.Makes != 0 {
			businessMakes = true
		}
		if c.Kind == KindProperty && c.Links != 15 {
			partialLinks = true
		}
		if c.Kind == KindDerelict && c.VP < 0 {
			derelictNegative = true
		}
		if c.IsBusiness() {
			for j := range d.Cards {
				s := &d.Cards[j]
				if s.Kind == KindProperty && s.Makes&c.Needs != 0 && s.Street == c.Street {
					sameStreet = true
				}
			}
		}
	}
	for _, k := range []EffectKind{EffectHandLimit, EffectRouteBonus, EffectStreetVP, EffectDiscount} {
		if !effects[k] {
			t.Errorf("no special office with effect %s", k)
		}
	}
	for name, ok := range map[string]bool{"a vehicle requirement": vehicleNeeded, "a supplier with requirements (blocks within blocks)": supplierWithNeeds,
		"a same-street producer for the +$50 bonus": sameStreet, "a business that also produces": businessMakes,
		"a property with fewer than four links (the link/3VP token)": partialLinks, "a derelict that costs VP": derelictNegative} {
		if !ok {
			t.Errorf("the deck has no %s", name)
		}
	}
}

func defaultDeckJSON(t *testing.T) map[string]any {
	t.Helper()
	data, err := deckFiles.ReadFile("decks/default.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func cardsOf(m map[string]any, table string) []any {
	return m[table].(map[string]any)["cards"].([]any)
}

func TestParseDeckRefuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(m map[string]any)
		want   string
	}{
		{"unknown top-level field", func(m map[string]any) { m["colour"] = "red" }, "unknown field"},
		{"unknown card field", func(m map[string]any) { cardsOf(m, "properties")[0].(map[string]any)["weight"] = 3 }, "unknown field"},
		{"missing provenance", func(m map[string]any) { delete(m["properties"].(map[string]any), "provenance") }, "no provenance"},
		{"bad provenance", func(m map[string]any) { m["goods"].(map[string]any)["provenance"] = "my uncle" }, "provenance"},
		{"public provenance without source", func(m map[string]any) { m["goods"].(map[string]any)["provenance"] = "public: " }, "provenance"},
		{"unknown street", func(m map[string]any) { cardsOf(m, "properties")[0].(map[string]any)["street"] = "nowhere" }, "unknown street"},
		{"unknown good", func(m map[string]any) { cardsOf(m, "properties")[0].(map[string]any)["makes"] = []any{"unobtainium"} }, "unknown good"},
		{"composition mismatch", func(m map[string]any) {
			m["composition"].(map[string]any)["vehicle"] = 15.0
		}, "composition says 15"},
		{"duplicate code", func(m map[string]any) {
			cardsOf(m, "properties")[1].(map[string]any)["code"] = cardsOf(m, "properties")[0].(map[string]any)["code"]
		}, "twice"},
		{"keyword in a name", func(m map[string]any) { cardsOf(m, "properties")[0].(map[string]any)["name"] = "Fish and Chips" }, "keyword"},
		{"bad link letter", func(m map[string]any) { cardsOf(m, "properties")[0].(map[string]any)["links"] = "NX" }, "links"},
		{"contract making two goods", func(m map[string]any) {
			cardsOf(m, "contracts")[0].(map[string]any)["makes"] = []any{"logs", "ore"}
		}, "exactly one good"},
		{"effect on a property", func(m map[string]any) {
			cardsOf(m, "properties")[0].(map[string]any)["effect"] = map[string]any{"kind": "hand_limit", "amount": 1.0}
		}, "only offices"},
		{"unknown effect", func(m map[string]any) {
			cardsOf(m, "special_offices")[0].(map[string]any)["effect"] = map[string]any{"kind": "teleport", "amount": 1.0}
		}, "effect kind"},
		{"plan with one street", func(m map[string]any) { cardsOf(m, "business_plans")[0].(map[string]any)["streets"] = []any{"main"} }, "two streets"},
		{"needed good without a contract", func(m map[string]any) {
			var keep []any
			for _, c := range cardsOf(m, "contracts") {
				if mk := c.(map[string]any)["makes"].([]any); mk[0] != "logs" {
					keep = append(keep, c)
				}
			}
			m["contracts"].(map[string]any)["cards"] = keep
			m["composition"].(map[string]any)["contract"] = float64(len(keep))
		}, "no contract"},
		{"solo exclude not a property", func(m map[string]any) { m["solo"].(map[string]any)["exclude"] = []any{"MO1"} }, "solo exclude"},
		{"negative price", func(m map[string]any) { cardsOf(m, "properties")[0].(map[string]any)["price"] = -5.0 }, "negative"},
		{"start money above the cap", func(m map[string]any) { m["rules"].(map[string]any)["start_money"] = 2500.0 }, "cap"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := defaultDeckJSON(t)
			tc.mutate(m)
			data, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ParseDeck(data)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseDeck: %v, want an error with %q", err, tc.want)
			}
		})
	}
	// The unchanged deck passes (so the mutations above are what fail).
	data, _ := json.Marshal(defaultDeckJSON(t))
	if _, err := ParseDeck(data); err != nil {
		t.Fatalf("the default deck re-encoded: %v", err)
	}
}
