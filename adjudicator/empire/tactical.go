package empire

import "math/rand/v2"

// A tactical turn (seed, "Administrating Tactical Movement on the Game
// Board"): every power writes its units' new positions on its private
// planning board (the orders), all boards are revealed at once, combat is
// resolved (combat capable units first, then weak units), and the supply
// check follows. The tactical phase ends when every power that still has
// units able to move says CEASEFIRE in the same turn (or after the game's
// limit of turns); the next round's strategic phase follows.

// Move is one unit's movement in a turn, for the report.
type Move struct {
	Power string `json:"power"`
	Unit  string `json:"unit"`
	From  string `json:"from"`
	To    string `json:"to"`
}

// TurnResult is what a tactical turn did.
type TurnResult struct {
	Moves     []Move          `json:"moves"`
	Battles   []*Battle       `json:"battles,omitempty"`
	Supply    []SupplyEvent   `json:"supply,omitempty"`
	Ceasefire map[string]bool `json:"ceasefire"` // powers with mobile units: their vote
	Ends      bool            `json:"ends"`      // the tactical phase ends
	Limit     bool            `json:"limit"`     // … because the turn limit was reached
}

// resolveTurn carries out one tactical turn.
func (g *Game) resolveTurn(sets map[string]*orderSet, rng *rand.Rand) *TurnResult {
	res := &TurnResult{Ceasefire: map[string]bool{}}
	retreat := map[*Unit]int{}
	for _, u := range g.Units {
		s := sets[u.Owner]
		if s == nil {
			continue
		}
		if h, ok := s.retreat[u]; ok {
			retreat[u] = h
		}
		p, ok := s.moves[u]
		if !ok || p == u.pos() || g.canTake(u, p) != nil {
			continue
		}
		from := g.posName(u.pos())
		u.At, u.To = p.At, p.To
		res.Moves = append(res.Moves, Move{Power: u.Owner, Unit: u.Name(), From: from, To: g.posName(p)})
	}
	res.Battles = g.combat(rng, retreat)
	sac := map[string][]string{}
	for p, s := range sets {
		sac[p] = s.sacrifice
	}
	res.Supply = g.tacticalSupply(sac)

	all := true
	for _, p := range g.alivePowers() {
		if !g.canMove(p) {
			continue
		}
		s := sets[p]
		vote := g.Opts.SilentCeasefire
		if s != nil && s.sent {
			vote = s.ceasefire
		}
		res.Ceasefire[p] = vote
		all = all && vote
	}
	res.Limit = g.Turn >= g.Opts.MaxTurns
	res.Ends = all || res.Limit
	if res.Ends {
		g.Step, g.Turn = stepDeploy, 0
		g.Round++
	} else {
		g.Turn++
	}
	return res
}

// canMove reports whether a power has a unit on the board that can move.
func (g *Game) canMove(p string) bool {
	for _, u := range g.Units {
		if u.Owner == p && !u.Pooled && u.Type.Mobile() && !u.Disabled {
			return true
		}
	}
	return false
}
