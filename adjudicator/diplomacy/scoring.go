package diplomacy

import (
	"pbemd/adjudicator"
	"pbemd/adjudicator/scoring"
)

var _ adjudicator.Scorer = (*Engine)(nil)

// Scoring implements adjudicator.Scorer with the systems of package
// scoring (draw-size, sum-of-squares, centre-based, Tribute).
func (e *Engine) Scoring(name string) (system, formula string, err error) {
	s, err := scoring.Parse(name)
	if err != nil {
		return "", "", err
	}
	return string(s), s.Formula(), nil
}

// Score implements adjudicator.Scorer. A solo or a concession gives its one
// winner everything; a draw is shared by the powers res names (every power
// that holds a centre when it names none), each scored by the centres it
// holds at the end.
func (e *Engine) Score(state []byte, res adjudicator.Result, system string) (map[string]float64, error) {
	s, err := scoring.Parse(system)
	if err != nil {
		return nil, err
	}
	g, err := viewState(state, e.m)
	if err != nil {
		return nil, err
	}
	end := scoring.End{Centres: map[string]int{}}
	counts := g.pos.CentreCount()
	for _, p := range e.m.Powers {
		end.Centres[p.ID] = counts[p.ID]
	}
	switch {
	case len(res.Winners) == 1 && res.Kind != "draw":
		end.Winner = res.Winners[0]
	case len(res.Winners) > 0:
		end.Draw = res.Winners
	}
	return s.Score(end)
}
