package empire

import (
	"strings"
	"testing"
)

func eventsText(evs []SupplyEvent) string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Power+" "+e.Unit+" "+e.What)
	}
	return strings.Join(out, "; ")
}

// Seed, "Tactical Support" and "Expeditionary vs Regular forces".
func TestTacticalSupply(t *testing.T) {
	cases := []struct {
		name      string
		units     string
		sacrifice map[string][]string
		events    string
		after     string
	}{
		{
			name:   "cut off: divisions perish, regular corps disabled, expeditionary and HQ-less others unaffected",
			units:  "red RID1 A1\nred RIC2 A1\nred EAD3 A1\nred TD4 B1\nred RAC5 B1\nred EIC6 B1",
			events: "red RID1 perished; red RIC2 disabled; red TD4 perished; red RAC5 disabled",
			after:  "red RIC2 A1 disabled\nred EAD3 A1\nred RAC5 B1 disabled\nred EIC6 B1",
		},
		{
			name:  "a chain of adjacent units carries supply",
			units: "red FAC1 A1\nred TD2 B1\nred TD3 C1\nred RID4 D1",
			after: "red FAC1 A1\nred TD2 B1\nred TD3 C1\nred RID4 D1",
		},
		{
			name:   "a gap breaks the chain",
			units:  "red FAC1 A1\nred TD2 B1\nred RID4 D1",
			events: "red RID4 perished",
			after:  "red FAC1 A1\nred TD2 B1",
		},
		{
			name:   "supply never passes through enemy units",
			units:  "red AB1 A1\nblue EID1 B1\nred RID2 C1",
			events: "red RID2 perished",
			after:  "red AB1 A1\nblue EID1 B1",
		},
		{
			name:  "a unit on the move links both its hexes",
			units: "red CHQ1 A1\nred TD2 B1-C1\nred RID3 D1",
			after: "red CHQ1 A1\nred TD2 B1-C1\nred RID3 D1",
		},
		{
			name:   "a disabled headquarters supplies nobody",
			units:  "red CHQ1 A1 disabled\nred RID2 B1",
			events: "red RID2 perished",
			after:  "red CHQ1 A1 disabled",
		},
		{
			name:   "disabled units recover when supplied again",
			units:  "red DHQ1 A1\nred RIC2 B1 disabled\nred EAC3 B1 disabled",
			events: "red RIC2 restored; red EAC3 restored",
			after:  "red DHQ1 A1\nred RIC2 B1\nred EAC3 B1",
		},
		{
			name:      "a sacrificed unit supplies its group for the turn",
			units:     "red RID1 A1\nred TD2 B1\nred TD3 B1\nred RIC4 C1 disabled",
			sacrifice: map[string][]string{"red": {"TD2", "TD3"}},
			events:    "red TD2 sacrificed; red RIC4 restored",
			after:     "red RID1 A1\nred TD3 B1\nred RIC4 C1",
		},
		{
			name:      "no sacrifice when the group is supplied",
			units:     "red AGHQ1 A1\nred TD2 B1",
			sacrifice: map[string][]string{"red": {"TD2"}},
			after:     "red AGHQ1 A1\nred TD2 B1",
		},
		{
			name:      "a sacrifice helps only its own group",
			units:     "red RID1 A1\nred TD2 F4\nred RID3 F4",
			sacrifice: map[string][]string{"red": {"TD2"}},
			events:    "red RID1 perished; red TD2 sacrificed",
			after:     "red RID3 F4",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := testGame(t, openBoard, c.units)
			evs := g.tacticalSupply(c.sacrifice)
			if got := eventsText(evs); got != c.events {
				t.Errorf("events %q, want %q", got, c.events)
			}
			if got := unitsText(g); got != c.after {
				t.Errorf("after:\n%s\nwant:\n%s", got, c.after)
			}
		})
	}
}

// Seed, "Strategic Support": only factories, army bases and army group HQs
// support a whole territory (and its pool); field bases and army HQs only
// their own hex.
func TestStrategicSupply(t *testing.T) {
	cases := []struct {
		name      string
		units     string
		sacrifice map[string][]string
		events    string
		after     string
	}{
		{
			name:  "a factory supplies its territory and its pool",
			units: "red FAC1 A1\nred RID2 B1\nred RIC3 C1\nred DHQ4 C1\nred RAD5 A1 pooled",
			after: "red FAC1 A1\nred RID2 B1\nred RIC3 C1\nred DHQ4 C1\nred RAD5 A1 pooled",
		},
		{
			name:  "army base and army group HQ supply fully",
			units: "red AB1 A1\nred RID2 B1\nred AGHQ3 E4\nred TD4 F4",
			after: "red AB1 A1\nred RID2 B1\nred AGHQ3 E4\nred TD4 F4",
		},
		{
			name:   "a field base supplies only its own hex",
			units:  "red FB1 A1\nred RID2 A1\nred RID3 B1\nred RAD4 A1 pooled",
			events: "red RID3 perished; red RAD4 perished",
			after:  "red FB1 A1\nred RID2 A1",
		},
		{
			name:   "an army HQ supplies only its own hex",
			units:  "red AHQ1 A1\nred RIC2 A1\nred RIC3 B1",
			events: "red RIC3 perished",
			after:  "red AHQ1 A1\nred RIC2 A1",
		},
		{
			name:   "without strategic supply: corps HQ and expeditionary corps disabled, the rest perish",
			units:  "red CHQ1 A1\nred DHQ2 A1\nred EAC3 A1\nred EIC4 A1\nred EAD5 B1\nred EID6 B1\nred RIC7 B1\nred RAC8 B1\nred RID9 B1\nred TD10 B1",
			events: "red CHQ1 disabled; red DHQ2 perished; red EAC3 disabled; red EIC4 disabled; red EAD5 perished; red EID6 perished; red RIC7 perished; red RAC8 perished; red RID9 perished; red TD10 perished",
			after:  "red CHQ1 A1 disabled\nred EAC3 A1 disabled\nred EIC4 A1 disabled",
		},
		{
			name:      "a sacrifice supplies the territory for the phase",
			units:     "red RID1 A1\nred TD2 B1\nred RAD3 A1 pooled",
			sacrifice: map[string][]string{"red": {"TD2"}},
			events:    "red TD2 sacrificed",
			after:     "red RID1 A1\nred RAD3 A1 pooled",
		},
		{
			name:  "disabled units do not recover strategically",
			units: "red FAC1 A1\nred RIC2 B1 disabled",
			after: "red FAC1 A1\nred RIC2 B1 disabled",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := testGame(t, openBoard, c.units)
			g.Step = stepDeploy
			evs := g.strategicSupply(c.sacrifice)
			if got := eventsText(evs); got != c.events {
				t.Errorf("events %q, want %q", got, c.events)
			}
			if got := unitsText(g); got != c.after {
				t.Errorf("after:\n%s\nwant:\n%s", got, c.after)
			}
		})
	}
}
