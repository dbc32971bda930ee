package daemon

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"pbemd/adjudicator"
	"pbemd/store"
)

// Scores at the end of a game (scoring=… at CREATE): the engine declares
// the systems it knows and scores a finished game (adjudicator.Scorer);
// the daemon keeps the system's name, asks for the scores once, when the
// game ends, keeps them in the game's record, and prints them in the end
// mail, STATUS and HISTORY.

func init() {
	createOptions["scoring"] = func(o *store.GameOptions, v string) error {
		if v == "off" || v == "none" {
			v = ""
		}
		o.Scoring = v
		return nil
	}
}

// checkScoring holds a game's scoring to what its engine knows, and writes
// the system's name as the engine spells it. before is the system the game
// had: it is fixed once the game has started (forming false).
func checkScoring(o *store.GameOptions, e adjudicator.Engine, before string, forming bool) error {
	if o.Scoring == before {
		return nil
	}
	if !forming {
		return fmt.Errorf("option scoring: a game's scoring is fixed once it has started")
	}
	if o.Scoring == "" {
		return nil
	}
	s, ok := e.(adjudicator.Scorer)
	if !ok {
		return fmt.Errorf("option scoring: games of %s have no scores", e.Info().Title)
	}
	system, _, err := s.Scoring(o.Scoring)
	if err != nil {
		return fmt.Errorf("option scoring: %w", err)
	}
	o.Scoring = system
	return nil
}

// scoreEnd asks g's engine for each power's score in the game that just
// ended as res says, keeps them in g.Scores and returns the lines for the
// end mail ("" when the game is not scored).
func scoreEnd(tx *txn, g *store.Game, res adjudicator.Result) (string, error) {
	if g.Options.Scoring == "" {
		return "", nil
	}
	e, err := engineFor(g)
	if err != nil {
		return "", err
	}
	s, ok := e.(adjudicator.Scorer)
	if !ok {
		return "", nil
	}
	state, err := tx.State(g.Name)
	if err != nil {
		return "", err
	}
	scores, err := s.Score(state, res, g.Options.Scoring)
	if err != nil {
		return "", err
	}
	g.Scores = scores
	return scoreLines(g), nil
}

// scoreLines is g's final scores with their system in one line, for the
// end mail, STATUS and HISTORY ("" when g has none).
func scoreLines(g *store.Game) string {
	if len(g.Scores) == 0 {
		return ""
	}
	e, err := engineFor(g)
	if err != nil {
		return ""
	}
	formula := g.Options.Scoring
	if s, ok := e.(adjudicator.Scorer); ok {
		if _, f, err := s.Scoring(g.Options.Scoring); err == nil {
			formula = f
		}
	}
	powers := slices.Collect(maps.Keys(g.Scores))
	slices.SortStableFunc(powers, func(a, b string) int {
		if g.Scores[a] != g.Scores[b] {
			if g.Scores[a] > g.Scores[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "Scores (%s):\n", formula)
	for _, p := range powers {
		fmt.Fprintf(&b, "  %-12s %s\n", powerName(g, p), strconv.FormatFloat(g.Scores[p], 'f', -1, 64))
	}
	return b.String()
}

// indent puts two spaces before every line of s.
func indent(s string) string {
	if s == "" {
		return ""
	}
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}
