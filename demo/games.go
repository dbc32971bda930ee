package demo

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	"pbemd/adjudicator"
	"pbemd/adjudicator/empire"
	"pbemd/adjudicator/supplychain"
	_ "pbemd/adjudicator/supremacy" // registers supremacy-3
	"pbemd/store"
)

// Games the demo plays (Options.Game).
const (
	Diplomacy   = "diplomacy"   // Ancient Mediterranean, five players
	Supremacy   = "supremacy"   // Supremacy 2020, three players, Length turns
	SupplyChain = "supplychain" // Supply Chain, three players, to the end of the deck
	Empire      = "empire"      // Empire Boardgame, two players, Length rounds, fog of war
)

// Games lists the names Options.Game accepts.
var Games = []string{Diplomacy, Supremacy, SupplyChain, Empire}

// rules is how the demo plays one of the games other than Diplomacy: the
// engine and its CREATE line, the engine's own seeded bot, and how the
// players vary their mail.
type rules struct {
	family  string
	variant string // engine name
	create  string // CREATE options ("" for none)
	e       adjudicator.Engine
	// bot writes a power's canonical orders for the current phase.
	bot func(state []byte, power string, seed int64) ([]string, error)
	// split, when not nil, tells how a player may send lines in two
	// mails that leave exactly lines standing: the first mail's lines and
	// the second's (ok false: not in this phase).
	split func(title string, lines []string, r *rand.Rand) (first, second []string, ok bool)
	// question is a mail of questions only a player may send before
	// ordering ("" for none), and answer a text its reply must show.
	question, answer string
	// events say what a phase did, from its record, for its line.
	events func(rec *store.PhaseRecord) ([]string, error)
}

// rulesFor returns the set-up the demo plays of a game: a small player
// count so that a whole game takes seconds. length is Supremacy's turns
// and the Empire Boardgame's rounds.
func rulesFor(game string, length int) (*rules, error) {
	switch game {
	case Supremacy:
		// The attack phase in one mail round (the default, steps=none):
		// every phase waits for every player, and ends as soon as the
		// last one's orders arrive (the game is not simultaneous).
		e, ok := adjudicator.Lookup("supremacy-3")
		if !ok {
			return nil, fmt.Errorf("the engine supremacy-3 is not compiled in")
		}
		return &rules{
			family: game, variant: "supremacy-3", create: fmt.Sprintf("turns=%d", length), e: e,
			bot:    botOf(e),
			split:  changeOfMind,
			events: supremacyEvents,
		}, nil
	case SupplyChain:
		e, ok := supplychain.NewEngine("supplychain-3")
		if !ok {
			return nil, fmt.Errorf("the engine supplychain-3 is not compiled in")
		}
		return &rules{
			family: game, variant: "supplychain-3", e: e,
			bot:      botOf(e),
			question: "HAND\n", answer: "Your hand",
			events: supplyChainEvents,
		}, nil
	case Empire:
		e, ok := empire.NewEngine("empire2")
		if !ok {
			return nil, fmt.Errorf("the engine empire2 is not compiled in")
		}
		return &rules{
			family: game, variant: "empire2", create: fmt.Sprintf("max_rounds=%d max_turns=4 fog=2", length), e: e,
			bot:    botOf(e),
			split:  empireSplit,
			events: empireEvents,
		}, nil
	}
	return nil, fmt.Errorf("no game %q (the demo plays %s)", game, strings.Join(Games, ", "))
}

// botOf is the scripted player of an engine: its adjudicator.Bot, the
// only way the demo orders for the games other than Diplomacy.
func botOf(e adjudicator.Engine) func(state []byte, power string, seed int64) ([]string, error) {
	b, ok := e.(adjudicator.Bot)
	if !ok {
		return func([]byte, string, int64) ([]string, error) {
			return nil, fmt.Errorf("%s has no bot", e.Info().Name)
		}
	}
	return func(state []byte, power string, seed int64) ([]string, error) {
		text, err := b.BotOrders(state, power, seed)
		if err != nil || text == "" {
			return nil, err
		}
		return strings.Split(text, "\n"), nil
	}
}

// changeOfMind is a player who sends a first part of their orders, then
// thinks again and sends the whole set, which replaces the first (the
// engine merges nothing).
func changeOfMind(_ string, lines []string, r *rand.Rand) (first, second []string, ok bool) {
	if len(lines) < 2 {
		return nil, nil, false
	}
	return lines[:1+r.IntN(len(lines)-1)], lines, true
}

// empireSplit is a player of the Empire Boardgame who sends orders in
// two mails. The engine merges them (adjudicator.Merger): a newer order
// for a unit replaces only that unit's, so in movement and deployment
// the two mails hold two halves of the set. In production a newer set
// replaces the standing one whole (purchases add up), so there the player
// changes their mind and sends the whole set again.
func empireSplit(title string, lines []string, r *rand.Rand) (first, second []string, ok bool) {
	switch {
	case len(lines) < 2 || strings.Contains(title, "bids"):
		return nil, nil, false
	case strings.Contains(title, "production"):
		return changeOfMind(title, lines, r)
	}
	k := 1 + r.IntN(len(lines)-1)
	return lines[:k], lines[k:], true
}

// supremacyKinds sort the public events of a Supremacy phase by their
// verb, first match first.
var supremacyKinds = []struct{ needle, one, many string }{
	{" cannot ", "failed order", "failed orders"},
	{" buys ", "market trade", "market trades"},
	{" sells ", "market trade", "market trades"},
	{" attacks: ", "attack", "attacks"},
	{" occupies ", "area taken", "areas taken"},
	{" IS CONQUERED ", "power conquered", "powers conquered"},
	{" places ", "placement", "placements"},
	{" opens ", "opening", "openings"},
	{" moves ", "move", "moves"},
	{" builds ", "build", "builds"},
	{" researches ", "research", "researches"},
	{" seizes ", "seizure", "seizures"},
	{" disbands ", "disband", "disbands"},
}

// supremacyEvents counts what the events of a Supremacy phase did.
func supremacyEvents(rec *store.PhaseRecord) ([]string, error) {
	var data struct {
		Events []struct {
			Kind string `json:"kind"`
			Text string `json:"text"`
			Dice []int  `json:"dice"`
		} `json:"events"`
	}
	if err := json.Unmarshal(rec.Data, &data); err != nil {
		return nil, fmt.Errorf("%s: result data: %w", rec.Title, err)
	}
	counts := make([]int, len(supremacyKinds))
	dice := 0
	for _, ev := range data.Events {
		if ev.Kind == "dice" {
			dice += len(ev.Dice)
			continue
		}
		for i, k := range supremacyKinds {
			if ev.Kind == "public" && strings.Contains(ev.Text, k.needle) {
				counts[i]++
				break
			}
		}
	}
	var out []string
	seen := map[string]int{}
	for i, k := range supremacyKinds {
		if j, ok := seen[k.one]; ok {
			counts[j] += counts[i]
			counts[i] = 0
		} else {
			seen[k.one] = i
		}
	}
	for i, k := range supremacyKinds {
		out = addCount(out, counts[i], k.one, k.many)
	}
	return addCount(out, dice, "die rolled", "dice rolled"), nil
}

// supplyChainEvents are the events of a Supply Chain phase as the engine
// words them ("Red collects revenue: $100 along MO1.").
func supplyChainEvents(rec *store.PhaseRecord) ([]string, error) {
	var data struct {
		Events []string `json:"events"`
	}
	if err := json.Unmarshal(rec.Data, &data); err != nil {
		return nil, fmt.Errorf("%s: result data: %w", rec.Title, err)
	}
	var out []string
	for _, ev := range data.Events {
		out = append(out, strings.TrimSuffix(ev, "."))
	}
	return out, nil
}

// empireEvents counts what the steps of an Empire phase did.
func empireEvents(rec *store.PhaseRecord) ([]string, error) {
	var steps []*empire.PhaseResult
	if err := json.Unmarshal(rec.Data, &steps); err != nil {
		return nil, fmt.Errorf("%s: result data: %w", rec.Title, err)
	}
	var out []string
	for _, st := range steps {
		switch {
		case st.Bids != nil:
			out = addCount(out, st.Bids.Turns, "strategic turn", "strategic turns")
		case st.Build != nil:
			n := 0
			for _, p := range st.Build.Production {
				n += len(p.Bought)
			}
			out = addCount(out, n, "purchase", "purchases")
			out = addCount(out, len(st.Build.Placed), "unit placed", "units placed")
		case st.Deploy != nil:
			n := 0
			for _, k := range st.Deploy.Pooled {
				n += k
			}
			out = addCount(out, n, "unit pooled", "units pooled")
			out = addCount(out, len(st.Deploy.Transformed), "transformation", "transformations")
		case st.Turn != nil:
			lost := 0
			for _, b := range st.Turn.Battles {
				for _, k := range b.Lost {
					lost += k
				}
			}
			out = addCount(out, len(st.Turn.Moves), "move", "moves")
			out = addCount(out, len(st.Turn.Battles), "battle", "battles")
			out = addCount(out, lost, "unit lost", "units lost")
			if st.Turn.Ends {
				out = append(out, "the tactical phase ends")
			}
		}
		for _, p := range st.Eliminated {
			out = append(out, titleCase(p)+" is out")
		}
	}
	return out, nil
}

func addCount(out []string, n int, one, many string) []string {
	switch {
	case n == 1:
		return append(out, "1 "+one)
	case n > 1:
		return append(out, fmt.Sprintf("%d %s", n, many))
	}
	return out
}

// powerName is a power as the daemon names it in mail: the engine's name
// for it ("usa" ⇒ "United States"), else the id capitalised.
func (rl *rules) powerName(id string) string {
	if n := rl.e.Info().PowerNames[id]; n != "" {
		return n
	}
	return titleCase(id)
}

// titleCase capitalises a power id for the demo's own lines ("usa" ⇒ "Usa").
func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
