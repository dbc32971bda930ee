package diplomacy

import (
	"fmt"
	"slices"

	"pbemd/adjudicator"
)

// Endings by agreement. Besides the draw of every survivor, Diplomacy
// players agree on smaller draws (the proposal names who shares it: a
// "DIAS" is the draw of all alive, a smaller one leaves some survivors out,
// who then lose) and on conceding the game to one power, as njudge's SET
// DRAW <powers> and SET CONCEDE <power>, and DPjudge's draw and concession
// votes, allow. The seed: "players can end the game by agreement before a
// winner is determined".

// agreements are the endings this engine offers besides the draw of all
// survivors (Info.Agreements).
var agreements = []adjudicator.Agreement{adjudicator.AgreeNamed, adjudicator.AgreeConcede}

// Agreed implements adjudicator.Agreer.
func (e *Engine) Agreed(state []byte, kind adjudicator.Agreement, powers []string) (adjudicator.Result, error) {
	g, err := decodeState(state, e.m)
	if err != nil {
		return adjudicator.Result{}, err
	}
	live := alive(g.pos)
	var names []string
	for _, p := range e.m.Powers { // the map's order, whatever order the vote named them in
		if slices.Contains(powers, p.ID) {
			if !live[p.ID] {
				return adjudicator.Result{}, fmt.Errorf("%s has no units or centres left and cannot share an agreed ending", p.Name)
			}
			names = append(names, p.Name)
		}
	}
	if len(names) != len(powers) {
		return adjudicator.Result{}, fmt.Errorf("an agreed ending names %v, not all powers of %s", powers, e.m.Name)
	}
	ids := slices.Clone(powers)
	slices.SortFunc(ids, func(a, b string) int { return e.m.powerIdx[a] - e.m.powerIdx[b] })
	switch kind {
	case adjudicator.AgreeDraw:
		return adjudicator.Result{Kind: "draw", Winners: ids, Text: fmt.Sprintf("The game has ended in a draw shared by every surviving power: %s.", adjudicator.List(names))}, nil
	case adjudicator.AgreeNamed:
		if len(names) < 2 {
			return adjudicator.Result{}, fmt.Errorf("a draw is shared by two or more powers")
		}
		return adjudicator.Result{Kind: "draw", Winners: ids, Text: fmt.Sprintf("The surviving powers agreed on a draw shared by %s; the other survivors lose.", adjudicator.List(names))}, nil
	case adjudicator.AgreeConcede:
		if len(names) != 1 {
			return adjudicator.Result{}, fmt.Errorf("a game is conceded to one power")
		}
		return adjudicator.Result{Kind: "concession", Winners: ids, Text: fmt.Sprintf("The surviving powers conceded the game to %s, which wins.", names[0])}, nil
	}
	return adjudicator.Result{}, fmt.Errorf("diplomacy: no agreed ending of kind %q", kind)
}
