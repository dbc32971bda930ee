// Package rating rates players across the games of one game master with
// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2012): each
// player has a rating, a rating deviation (how sure the rating is) and a
// volatility. A finished game is one rating period for the players in it,
// read as a match of every player against every other: finishing above an
// opponent is a win (1), level a draw (½), below a loss (0). Every player's
// update uses the ratings from before the game. A player is updated only in
// the periods they play (the deviation of an idle player does not grow
// with other people's games).
//
// It is written here because the list of modules this project's registry
// is known to serve names no Glicko-2, TrueSkill or multiplayer Elo
// library; the paper's worked example is its test vector.
package rating

import (
	"math"
	"slices"
)

// Rating is one player's standing.
type Rating struct {
	R     float64 // the rating, 1500 for a new player
	RD    float64 // the rating deviation, 350 for a new player
	Vol   float64 // the volatility σ, 0.06 for a new player
	Games int     // the rated games played
}

// New is a new player's rating.
func New() Rating { return Rating{R: 1500, RD: 350, Vol: 0.06} }

// Tau is the system constant τ: how much the volatility may change in one
// period (the paper suggests 0.3 to 1.2; 0.5 is its example's).
const Tau = 0.5

const scale = 173.7178 // Glicko-2's μ = (r − 1500) / 173.7178

// Match is one result of a period: the opponent's rating before it and the
// score (1 win, 0.5 draw, 0 loss).
type Match struct {
	Opponent Rating
	Score    float64
}

// Update is r after one rating period with the matches (step 1 to 8 of the
// paper). With no match the deviation grows as the paper's idle step says.
func Update(r Rating, matches []Match) Rating {
	mu, phi, sigma := (r.R-1500)/scale, r.RD/scale, r.Vol
	if len(matches) == 0 {
		r.RD = math.Min(math.Sqrt(phi*phi+sigma*sigma)*scale, 350)
		return r
	}
	var vInv, sum float64
	for _, m := range matches {
		muJ, phiJ := (m.Opponent.R-1500)/scale, m.Opponent.RD/scale
		g := gOf(phiJ)
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		vInv += g * g * e * (1 - e)
		sum += g * (m.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	sigma = newVolatility(delta, phi, v, sigma)
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu += phi * phi * sum
	return Rating{R: mu*scale + 1500, RD: phi * scale, Vol: sigma, Games: r.Games + 1}
}

func gOf(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// newVolatility is step 5 of the paper: the root of f by the Illinois
// algorithm, to a tolerance of 0.000001.
func newVolatility(delta, phi, v, sigma float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(Tau*Tau)
	}
	const eps = 0.000001
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 {
			k++
		}
		B = a - k*Tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > eps && i < 200; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

// Game is one finished game: each player's place (1 is best; equal places
// share it, as the powers of a draw do).
type Game struct {
	Places map[string]int
}

// Replay rates every player of games, played in the order given, from new
// ratings.
func Replay(games []Game) map[string]Rating {
	out := map[string]Rating{}
	for _, g := range games {
		players := make([]string, 0, len(g.Places))
		for p := range g.Places {
			players = append(players, p)
		}
		slices.Sort(players)
		before := make([]Rating, len(players))
		for i, p := range players {
			r, ok := out[p]
			if !ok {
				r = New()
			}
			before[i] = r
		}
		for i, p := range players {
			var ms []Match
			for j, q := range players {
				if i == j {
					continue
				}
				s := 0.5
				switch a, b := g.Places[p], g.Places[q]; {
				case a < b:
					s = 1
				case a > b:
					s = 0
				}
				ms = append(ms, Match{Opponent: before[j], Score: s})
			}
			out[p] = Update(before[i], ms)
		}
	}
	return out
}
