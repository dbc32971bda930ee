package diplomacy

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"pbemd/adjudicator"
)

var _ adjudicator.Bot = (*Engine)(nil)

// BotOrders implements adjudicator.Bot: seeded random legal orders for
// power in the open phase (RandomOrders, aggressive), one per line as a
// player would mail them; "" when power has nothing to order.
func (e *Engine) BotOrders(state []byte, power string, seed int64) (string, error) {
	g, err := decodeState(state, e.m)
	if err != nil || g.over {
		return "", err
	}
	all := RandomOrders(g.pos, rand.New(rand.NewPCG(uint64(seed), 0xd1)), RandomOptions{Aggressive: true})
	var lines []string
	for _, o := range OrdersOf(all, power) {
		lines = append(lines, e.m.FormatOrder(o))
	}
	return strings.Join(lines, "\n"), nil
}

var _ adjudicator.Setuper = (*Engine)(nil)

// Setup implements adjudicator.Setuper: a Diplomacy map takes no options.
func (e *Engine) Setup(options map[string]string) (adjudicator.Setup, error) {
	keys := make([]string, 0, len(options))
	for k := range options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		return adjudicator.Setup{}, fmt.Errorf("diplomacy (%s) has no options; unknown: %s", e.m.Name, strings.Join(keys, ", "))
	}
	return adjudicator.Setup{Engine: e.m.Name}, nil
}
