package store

import (
	"maps"
	"slices"
)

// A transaction hands out a copy of a game at every read and, before a
// mail's game is written back, compares it with the one it holds
// (gamecache.go): once each per mail. Both were done by reflection, which
// cost more than the rest of an order mail's bookkeeping; here they are
// written out field by field. Nothing reminds whoever adds a field to
// Game (or to a record in it) to copy and compare it here, so the tests
// do: TestCloneGameSharesNothing fills every field and finds any slice,
// map or pointer a copy shares, and TestSameGameSeesEveryField changes
// every field, element and key, one at a time, and wants sameGame to see
// each change.

// cloneGame is a deep copy of g: no slice, map or pointer of the copy is
// shared with g. A nil slice or map stays nil and an empty one empty,
// as a comparison of the two (sameGame) wants.
func cloneGame(g *Game) *Game {
	c := new(Game)
	*c = *g
	c.Options.Engine = maps.Clone(g.Options.Engine)
	c.Options.FirstPick = slices.Clone(g.Options.FirstPick)
	c.OpenPhase = g.OpenPhase.Clone()
	if g.Players != nil {
		c.Players = make([]Player, len(g.Players))
		for i, p := range g.Players {
			p.PassHash = slices.Clone(p.PassHash)
			p.Prefs = slices.Clone(p.Prefs)
			c.Players[i] = p
		}
	}
	c.Observers = slices.Clone(g.Observers)
	c.GM = slices.Clone(g.GM)
	c.Requests = slices.Clone(g.Requests)
	c.Winners = slices.Clone(g.Winners)
	c.Scores = maps.Clone(g.Scores)
	c.Autopilot = maps.Clone(g.Autopilot)
	if g.Pending != nil {
		p := *g.Pending
		c.Pending = &p
	}
	c.Seniors = slices.Clone(g.Seniors)
	c.GraceUsed = maps.Clone(g.GraceUsed)
	c.Absences = slices.Clone(g.Absences)
	return c
}

// sameGame reports whether a and b are the same record, field for field,
// as strictly as reflect.DeepEqual (a nil slice or map is not an empty
// one) or more so: a time.Time is compared as a value, its location by
// pointer, so two equal instants written in different locations differ.
// A difference it reports where the encoded records would not differ
// costs a write, never a lost one.
func sameGame(a, b *Game) bool {
	return a.Name == b.Name && a.Variant == b.Variant && a.Map == b.Map && a.Created == b.Created && a.Status == b.Status &&
		sameOptions(&a.Options, &b.Options) && a.Seed == b.Seed &&
		sameOpenPhase(&a.OpenPhase, &b.OpenPhase) &&
		samePlayers(a.Players, b.Players) && sameSlice(a.Observers, b.Observers) && sameSlice(a.GM, b.GM) &&
		a.GMToken == b.GMToken && sameSlice(a.Requests, b.Requests) &&
		a.Paused == b.Paused && a.PausedAt == b.PausedAt && a.PauseReason == b.PauseReason &&
		a.PausedUntil == b.PausedUntil && a.HouseRules == b.HouseRules &&
		sameSlice(a.Winners, b.Winners) && a.EndedAs == b.EndedAs && sameMap(a.Scores, b.Scores) && sameMap(a.Autopilot, b.Autopilot) &&
		(a.Pending == nil) == (b.Pending == nil) && (a.Pending == nil || *a.Pending == *b.Pending) &&
		a.PrizeCommit == b.PrizeCommit && a.PrizeSeed == b.PrizeSeed &&
		sameSlice(a.Seniors, b.Seniors) && a.Ended == b.Ended && sameMap(a.GraceUsed, b.GraceUsed) &&
		sameSlice(a.Absences, b.Absences) && a.WeeklyFrom == b.WeeklyFrom
}

func sameOptions(a, b *GameOptions) bool {
	return a.Pace == b.Pace && a.Press == b.Press && a.PSA == b.PSA && a.PressInAdj == b.PressInAdj &&
		a.Preview == b.Preview && a.ProcessEarly == b.ProcessEarly && a.DrawPrize == b.DrawPrize &&
		a.ObserverPress == b.ObserverPress && a.GreyPress == b.GreyPress && a.TurnTime == b.TurnTime &&
		a.Calendar == b.Calendar && a.Late == b.Late && a.Grace == b.Grace && a.GraceEvery == b.GraceEvery &&
		a.LateLimit == b.LateLimit && a.Absence == b.Absence && a.AbsenceDays == b.AbsenceDays && a.Scoring == b.Scoring && a.Autopilot == b.Autopilot &&
		sameMap(a.Engine, b.Engine) && a.Seats == b.Seats && a.MinOnTime == b.MinOnTime && a.MinRating == b.MinRating &&
		sameSlice(a.FirstPick, b.FirstPick) && a.Web == b.Web && a.WebKey == b.WebKey
}

func sameOpenPhase(a, b *OpenPhase) bool {
	return a.Phase == b.Phase && a.PhaseID == b.PhaseID && a.PhaseTitle == b.PhaseTitle &&
		a.PhaseKind == b.PhaseKind && a.PhaseStarted == b.PhaseStarted && a.Deadline == b.Deadline &&
		a.PhaseSeed == b.PhaseSeed && a.LastOrdersEnd == b.LastOrdersEnd &&
		sameSlice(a.Waiting, b.Waiting) && sameSlice(a.Alive, b.Alive) && sameSlice(a.Reminded, b.Reminded) &&
		sameMap(a.DrawVotes, b.DrawVotes) && sameMap(a.PaceVotes, b.PaceVotes) && sameMap(a.Ready, b.Ready) &&
		sameMap(a.Locks, b.Locks) && sameSlice(a.Dropped, b.Dropped) && sameMap(a.Proposals, b.Proposals) &&
		a.CalStart == b.CalStart && a.CalYear == b.CalYear && a.YearStep == b.YearStep &&
		a.FirstDeadline == b.FirstDeadline && a.ProcessNow == b.ProcessNow &&
		sameSlice(a.Late, b.Late) && sameSlice(a.Graced, b.Graced)
}

func samePlayers(a, b []Player) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		p, q := &a[i], &b[i]
		if p.Address != q.Address || p.Power != q.Power || p.Rank != q.Rank || p.Token != q.Token ||
			!sameSlice(p.PassHash, q.PassHash) || p.Zone != q.Zone || !sameSlice(p.Prefs, q.Prefs) ||
			p.Joined != q.Joined || p.Lock != q.Lock || p.Left != q.Left || p.LeftHow != q.LeftHow ||
			p.LeftAt != q.LeftAt {
			return false
		}
	}
	return true
}

// sameSlice is slices.Equal that tells a nil slice from an empty one.
func sameSlice[S ~[]E, E comparable](a, b S) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
}

// sameMap is maps.Equal that tells a nil map from an empty one.
func sameMap[M ~map[K]V, K, V comparable](a, b M) bool {
	return (a == nil) == (b == nil) && maps.Equal(a, b)
}
