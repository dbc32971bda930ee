package rating

import (
	"math"
	"testing"
)

// The paper's worked example: a player rated 1500 (RD 200, σ 0.06) beats
// one rated 1400 (RD 30) and loses to 1550 (RD 100) and 1700 (RD 300), with
// τ = 0.5: the new rating is 1464.06, RD 151.52, σ 0.05999.
func TestGlickmansExample(t *testing.T) {
	r := Update(Rating{R: 1500, RD: 200, Vol: 0.06}, []Match{
		{Rating{R: 1400, RD: 30}, 1},
		{Rating{R: 1550, RD: 100}, 0},
		{Rating{R: 1700, RD: 300}, 0},
	})
	if math.Abs(r.R-1464.06) > 0.01 || math.Abs(r.RD-151.52) > 0.01 || math.Abs(r.Vol-0.05999) > 0.00001 || r.Games != 1 {
		t.Errorf("got %.2f RD %.2f σ %.5f (%d games); want 1464.06 RD 151.52 σ 0.05999", r.R, r.RD, r.Vol, r.Games)
	}
}

// A game: the winner rises, the losers fall alike, a draw of two among
// seven lifts both the same; an idle period widens the deviation.
func TestReplay(t *testing.T) {
	solo := Game{Places: map[string]int{"a": 1, "b": 2, "c": 2, "d": 2}}
	rs := Replay([]Game{solo})
	if rs["a"].R <= 1500 || rs["b"].R >= 1500 || rs["b"] != rs["c"] || rs["a"].Games != 1 {
		t.Errorf("after a solo: %+v", rs)
	}
	draw := Game{Places: map[string]int{"a": 2, "b": 1, "e": 1, "f": 2}}
	rs = Replay([]Game{solo, draw})
	if rs["e"].R <= 1500 || rs["b"].R <= Replay([]Game{solo})["b"].R || rs["a"].Games != 2 {
		t.Errorf("after a draw: %+v", rs)
	}
	idle := Update(Rating{R: 1500, RD: 50, Vol: 0.06}, nil)
	if idle.RD <= 50 || idle.R != 1500 {
		t.Errorf("idle: %+v", idle)
	}
}
