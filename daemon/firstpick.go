package daemon

import (
	"fmt"
	"slices"
	"strings"

	"pbemd/store"
)

// First pick (issue 15 item 4). The seed: "It is usual that the senior
// diplomat(s) of the Great Power(s) that won the previous game and its GM
// can choose a country to play before other players." The game option
// first_pick names them (addresses), or says previous: then, at the start,
// they are read from the game that ended last on this daemon among games
// of the same family (its winners' senior diplomats at the end, and its
// GM). Each first picker who signed up gets their first choice that no
// earlier first picker took, in the order they signed up; the other
// players share the remaining powers as usual (AssignPowers). A first
// picker who ranked no power has no pick to make and is assigned with the
// others.

// maxFirstPick bounds the addresses first_pick names.
const maxFirstPick = 16

// parseFirstPick reads the value of first_pick: previous, off, or a list
// of addresses separated by commas.
func parseFirstPick(v string) ([]string, error) {
	switch v = strings.TrimSpace(strings.ToLower(v)); v {
	case "", "off", "none", "no":
		return nil, nil
	case store.FirstPickPrevious:
		return []string{store.FirstPickPrevious}, nil
	}
	var out []string
	for _, a := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' || r == ' ' }) {
		a = trimAddress(a)
		if !strings.Contains(a, "@") || strings.ContainsAny(a, "\r\n<>") {
			return nil, fmt.Errorf("first_pick is previous, off, or addresses separated by commas: %q is not an address", a)
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
		if len(out) > maxFirstPick {
			return nil, fmt.Errorf("first_pick names at most %d addresses", maxFirstPick)
		}
	}
	return out, nil
}

func trimAddress(s string) string { return strings.Trim(s, "<>.,;:()\"'") }

// firstPickers resolves g's first_pick option to addresses, and says where
// they come from.
func firstPickers(tx *store.Tx, g *store.Game) ([]string, string, error) {
	if !slices.Equal(g.Options.FirstPick, []string{store.FirstPickPrevious}) {
		return g.Options.FirstPick, "named by the GM", nil
	}
	e, err := engineFor(g)
	if err != nil {
		return nil, "", err
	}
	family := e.Info().Game
	var last *store.Game
	err = tx.EachGame(func(o *store.Game) error {
		if o.Name == g.Name || o.Status != store.Finished || o.Ended.IsZero() {
			return nil
		}
		if oe, err := engineFor(o); err != nil || oe.Info().Game != family {
			return nil
		}
		if last == nil || o.Ended.After(last.Ended) {
			last = o
		}
		return nil
	})
	if err != nil || last == nil {
		return nil, "", err
	}
	var out []string
	for _, w := range last.Winners {
		if s := seniorOf(last, w); s != "" && !slices.Contains(out, s) && lostPower(last, s) == "" { // lost.go
			out = append(out, s)
		}
	}
	for _, gm := range last.GM {
		if !slices.Contains(out, gm) {
			out = append(out, gm)
		}
	}
	return out, "the winners' senior diplomats and the GM of " + last.Name, nil
}

// firstPicks gives the first pickers among active (in sign-up order)
// their first choice not taken; it returns each one's power (by index in
// active) and a sentence for the start announcement ("" when nobody
// picked).
func firstPicks(active []*store.Player, pickers []string, from string, g *store.Game) (map[int]string, string) {
	picks := map[int]string{}
	var said []string
	taken := map[string]bool{}
	for i, p := range active {
		if !slices.Contains(pickers, p.Address) {
			continue
		}
		for _, want := range p.Prefs {
			if !taken[want] {
				taken[want], picks[i] = true, want
				said = append(said, fmt.Sprintf("%s chose %s", p.Address, powerName(g, want)))
				break
			}
		}
	}
	if len(said) == 0 {
		return picks, ""
	}
	return picks, fmt.Sprintf("First pick (%s): %s.\n", from, strings.Join(said, "; "))
}
