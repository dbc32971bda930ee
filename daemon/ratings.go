package daemon

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"pbemd/orders"
	"pbemd/rating"
	"pbemd/store"
)

// Ratings (issue 34): every finished game places its players by address
// (1 for its winners or the powers of its draw, 2 for everyone else, those
// who resigned or were ejected included); package rating replays the games
// in the order they ended (Glicko-2). RATINGS shows the best-rated players
// and the asker's own; the GM sees a candidate's rating beside the record;
// min_rating= bars lower-rated players from joining.

// ratingsShown is how many players RATINGS lists.
const ratingsShown = 10

func init() {
	createOptions["min_rating"] = func(o *store.GameOptions, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 3000 {
			return fmt.Errorf("min_rating is a rating from 0 to 3000 (a newcomer is rated 1500)")
		}
		o.MinRating = n
		return nil
	}
}

// rateGame records how g, which has just ended, placed its players.
func rateGame(tx *store.Tx, g *store.Game) error {
	places := map[string]int{}
	for _, p := range g.Players {
		if p.Power == "" {
			continue
		}
		switch {
		case p.Left && (p.LeftHow == store.LeftResigned || p.LeftHow == store.LeftEjected):
			places[p.Address] = 2
		case !p.Left && p.Rank == 0:
			places[p.Address] = 2
			if slices.Contains(g.Winners, p.Power) {
				places[p.Address] = 1
			}
		}
	}
	if len(places) < 2 {
		return nil
	}
	return tx.PutRatedGame(store.RatedGame{Game: g.Name, Ended: g.Ended, Places: places})
}

// ratings rates every address that finished a game here.
func ratings(tx *store.Tx) (map[string]rating.Rating, error) {
	rated, err := tx.RatedGames()
	if err != nil {
		return nil, err
	}
	games := make([]rating.Game, len(rated))
	for i, r := range rated {
		games[i] = rating.Game{Places: r.Places}
	}
	return rating.Replay(games), nil
}

// ratingOf is addr's rating (a newcomer's when they have none).
func ratingOf(tx *store.Tx, addr string) (rating.Rating, error) {
	rs, err := ratings(tx)
	if err != nil {
		return rating.Rating{}, err
	}
	if r, ok := rs[strings.ToLower(addr)]; ok {
		return r, nil
	}
	return rating.New(), nil
}

// ratingText is a rating as players read it: "1532 ± 174 (2 games)".
func ratingText(r rating.Rating) string {
	if r.Games == 0 {
		return fmt.Sprintf("%d (new: no rated game yet)", int(math.Round(r.R)))
	}
	return fmt.Sprintf("%d ± %d (%d rated game%s)", int(math.Round(r.R)), int(math.Round(2*r.RD)), r.Games, plural(r.Games))
}

// candidateRating is the rating line the GM or a senior reads beside a
// candidate's record.
func candidateRating(tx *store.Tx, addr string) string {
	r, err := ratingOf(tx, addr)
	if err != nil {
		return ""
	}
	return "Their rating: " + ratingText(r) + ".\n"
}

// ratingBars says why addr may not join g by its minimum rating ("" when
// they may).
func ratingBars(tx *store.Tx, g *store.Game, addr string) string {
	if g.Options.MinRating <= 0 {
		return ""
	}
	r, err := ratingOf(tx, addr)
	if err != nil || int(math.Round(r.R)) >= g.Options.MinRating {
		return ""
	}
	return fmt.Sprintf("%s takes players rated %d or more on this game master; your rating: %s.", g.Name, g.Options.MinRating, ratingText(r))
}

// maskAddress shows an address so its owner knows it and others cannot
// write to it: "an…@example.org".
func maskAddress(addr string) string {
	local, domain, ok := strings.Cut(addr, "@")
	if !ok {
		return "…"
	}
	r := []rune(local)
	return string(r[:min(2, len(r))]) + "…@" + domain
}

func cmdRatings(mc *mailCtx, _ *orders.Command) error {
	rs, err := ratings(mc.tx.Tx)
	if err != nil {
		return err
	}
	addrs := make([]string, 0, len(rs))
	for a := range rs {
		addrs = append(addrs, a)
	}
	// The best first: by the rating less twice the deviation (what the
	// rating is at least, 95 times in 100), then the rating.
	low := func(r rating.Rating) float64 { return r.R - 2*r.RD }
	slices.SortFunc(addrs, func(a, b string) int {
		if c := cmp.Compare(low(rs[b]), low(rs[a])); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var b strings.Builder
	b.WriteString("Ratings on this game master (Glicko-2 over every finished game; each game counts as a match against every other player in it: finishing above them is a win, level a draw). Best first, by what the rating is at least (rating − twice its deviation); addresses are shortened:\n")
	if len(addrs) == 0 {
		b.WriteString("  (no game has finished yet)\n")
	}
	for i, a := range addrs[:min(ratingsShown, len(addrs))] {
		fmt.Fprintf(&b, "  %2d. %-28s %s\n", i+1, maskAddress(a), ratingText(rs[a]))
	}
	own, ok := rs[strings.ToLower(mc.sender)]
	if !ok {
		own = rating.New()
	}
	if i := slices.Index(addrs, strings.ToLower(mc.sender)); i >= 0 {
		fmt.Fprintf(&b, "\nYour rating: %s, place %d of %d.\n", ratingText(own), i+1, len(addrs))
	} else {
		fmt.Fprintf(&b, "\nYour rating: %s.\n", ratingText(own))
	}
	mc.say("%s", b.String())
	return nil
}
