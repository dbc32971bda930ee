package daemon

import (
	"maps"
	"pbemd/adjudicator"
	"pbemd/store"
	"slices"
)

// The orders that stand for each power of the open phase.
//
// Every version a power sends is kept (store.AddOrderSet). What applies is
// the versions that count (not struck: OpenPhase.Struck) folded oldest
// first, the latest winning — GM orders (SET ORDERS) count as the power's
// own, in time order with the rest — except that a senior's LOCK JUNIORS
// makes the senior's versions and the GM's apply after everyone else's.
//
// Folding every version again for each new mail made the 2,000th mail of a
// phase cost 2,000 merges, so the folds are kept in the store by class
// (store.StandingOrders: every version; and, for the senior who holds a
// lock, its own and the GM's versions, and everyone else's) and each new
// version is merged into its classes once: at most two merges a mail. The
// standing set is then one fold, or two merged in the order the lock
// says. That equals folding every version in that order because an
// engine's Merge is associative (adjudicator.Merger); replacing the whole
// set (engines without Merge) is associative too. When what the folds
// assume changes — a diplomat's orders are struck, or a different senior
// locks the juniors out — the folds of the phase are made again from its
// first version, once.
//
// Each folded line remembers the version it came from (store.Source), so
// acknowledgements and STATUS can say who sent each line.

// mergeFor returns how a newer version combines with the standing set in
// engine e at state.
func mergeFor(e adjudicator.Engine, state []byte) func(standing, newer []string) []string {
	if m, ok := e.(adjudicator.Merger); ok {
		return func(standing, newer []string) []string { return m.Merge(state, standing, newer) }
	}
	return func(_, newer []string) []string { return append([]string(nil), newer...) }
}

// standing is the folded orders of one game's open phase, with the
// versions not folded in yet.
type standing struct {
	g       *store.Game
	folds   map[string]store.StandingOrders
	mark    store.FoldMark   // how far folds has come
	pending []store.OrderSet // versions after mark.Folded, oldest first
	last    uint64           // the number of the last version of pending
	touched map[string]bool  // powers whose folds changed since loading
	rebuilt bool             // folds are being made again from the first version
}

// lockHolder is the senior whose LOCK JUNIORS holds for power now, or "".
func lockHolder(g *store.Game, power string) string {
	if seniorLocked(g, power) {
		return g.Locks[power].By
	}
	return ""
}

// loadStanding reads the folds of g's open phase and the versions after
// them (every version, when the folds must be made again). It writes
// nothing, so it also serves read-only transactions.
func loadStanding(tx *store.Tx, g *store.Game) (*standing, error) {
	folds, mark, err := tx.StandingOrders(g.Name, g.Phase)
	if err != nil {
		return nil, err
	}
	rebuild := mark.Drops != len(g.Dropped)
	for power, so := range folds {
		if h := lockHolder(g, power); h != "" && h != so.Holder {
			rebuild = true
		}
	}
	if rebuild {
		folds, mark = map[string]store.StandingOrders{}, store.FoldMark{Drops: len(g.Dropped)}
	}
	sets, last, err := tx.OrderSetsSince(g.Name, g.Phase, mark.Folded)
	if err != nil {
		return nil, err
	}
	return &standing{g: g, folds: folds, mark: mark, pending: sets, last: last, touched: map[string]bool{}, rebuilt: rebuild}, nil
}

// fold merges the pending versions into their classes. It is pure: no
// store, so a Tick batch folds on every core.
func (s *standing) fold(merge func(standing, newer []string) []string) {
	for _, v := range s.pending {
		if s.g.Struck(v) {
			continue
		}
		so, seen := s.folds[v.Power]
		if !seen {
			so.Holder = lockHolder(s.g, v.Power)
		}
		one := versionFold(v)
		so.All = joinFolds(merge, so.All, one)
		if so.Holder != "" {
			if v.GM || v.Address == so.Holder {
				so.Own = joinFolds(merge, so.Own, one)
			} else {
				so.Others = joinFolds(merge, so.Others, one)
			}
		}
		s.folds[v.Power] = so
		s.touched[v.Power] = true
	}
	s.pending = nil
	s.mark.Folded = s.last
}

// versionFold is one version as a fold of its own.
func versionFold(v store.OrderSet) store.Fold {
	src := store.SourceOf(v)
	f := store.Fold{Set: true, Lines: append([]string(nil), v.Lines...), From: make([]store.Source, len(v.Lines))}
	for i := range f.From {
		f.From[i] = src
	}
	return f
}

// joinFolds is the fold of a's versions followed by b's. A line of the
// result comes from b when b holds it, else from a.
func joinFolds(merge func(standing, newer []string) []string, a, b store.Fold) store.Fold {
	switch {
	case !b.Set:
		return a
	case !a.Set: // merging into nothing changes nothing
		return store.Fold{Set: true, Lines: append([]string(nil), b.Lines...), From: append([]store.Source(nil), b.From...)}
	}
	lines := merge(a.Lines, b.Lines)
	from := make([]store.Source, len(lines))
	fromB := sourcesByLine(b)
	fromA := sourcesByLine(a)
	for i, l := range lines {
		if src, ok := fromB[l]; ok {
			from[i] = src
		} else {
			from[i] = fromA[l]
		}
	}
	return store.Fold{Set: true, Lines: lines, From: from}
}

func sourcesByLine(f store.Fold) map[string]store.Source {
	m := make(map[string]store.Source, len(f.Lines))
	for i, l := range f.Lines {
		if i < len(f.From) {
			m[l] = f.From[i]
		}
	}
	return m
}

// save writes back the folds that changed (call it after fold, in a
// read-write transaction), so the next mail starts from them.
func (s *standing) save(tx *store.Tx) error {
	if len(s.touched) == 0 && !s.rebuilt {
		return nil
	}
	changed := map[string]store.StandingOrders{}
	for p := range s.touched {
		changed[p] = s.folds[p]
	}
	if s.rebuilt {
		changed = s.folds
	}
	if err := tx.PutStandingOrders(s.g.Name, s.g.Phase, changed, s.mark, s.rebuilt); err != nil {
		return err
	}
	s.touched, s.rebuilt = map[string]bool{}, false
	return nil
}

// sent tells whether power has sent any version that counts (folded or
// not).
func (s *standing) sent(power string) bool {
	if s.folds[power].All.Set {
		return true
	}
	for _, v := range s.pending {
		if v.Power == power && !s.g.Struck(v) {
			return true
		}
	}
	return false
}

// standingFold is the fold that applies for power (call fold first).
func (s *standing) standingFold(merge func(standing, newer []string) []string, power string) store.Fold {
	so := s.folds[power]
	if h := lockHolder(s.g, power); h != "" && h == so.Holder {
		return joinFolds(merge, so.Others, so.Own)
	}
	return so.All
}

// orders returns the set that applies for each power that sent orders
// (call fold first).
func (s *standing) orders(merge func(standing, newer []string) []string) map[string][]string {
	out := map[string][]string{}
	for _, power := range slices.Sorted(maps.Keys(s.folds)) {
		if f := s.standingFold(merge, power); f.Set {
			out[power] = f.Lines
		}
	}
	return out
}

// linesOf returns power's standing orders and, for each line, the version
// it came from (call fold first).
func (s *standing) linesOf(merge func(standing, newer []string) []string, power string) ([]string, []store.Source) {
	f := s.standingFold(merge, power)
	return f.Lines, f.From
}

// openStanding folds what is new of g's open phase and writes the folds
// back: a mail's work does not grow with the versions before it.
func openStanding(tx *store.Tx, e adjudicator.Engine, state []byte, g *store.Game) (*standing, func(standing, newer []string) []string, error) {
	s, err := loadStanding(tx, g)
	if err != nil {
		return nil, nil, err
	}
	merge := mergeFor(e, state)
	s.fold(merge)
	if err := s.save(tx); err != nil {
		return nil, nil, err
	}
	return s, merge, nil
}

// currentOrders is the set that applies for each power of g's open phase.
func currentOrders(tx *store.Tx, e adjudicator.Engine, state []byte, g *store.Game) (map[string][]string, error) {
	s, merge, err := openStanding(tx, e, state, g)
	if err != nil {
		return nil, err
	}
	return s.orders(merge), nil
}

// effectiveOrders folds the versions in sets (one phase's, oldest first)
// from scratch with the same code that keeps the folds of the open phase
// one version at a time, so the two cannot disagree.
func effectiveOrders(e adjudicator.Engine, state []byte, g *store.Game, sets []store.OrderSet) map[string][]string {
	s := &standing{g: g, folds: map[string]store.StandingOrders{}, pending: sets, touched: map[string]bool{}}
	merge := mergeFor(e, state)
	s.fold(merge)
	return s.orders(merge)
}
