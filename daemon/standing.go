package daemon

import (
	"pbemd/adjudicator"
	"pbemd/store"
)

// The orders that stand for each power of the open phase.
//
// Every version a power sends is kept (store.AddOrderSet). What applies is
// the versions folded oldest first, the latest winning; a senior's LOCK
// makes the senior's versions apply after the juniors'; the GM's (SET
// ORDERS) apply last of all. Folding every version again for each new mail
// made the 2,000th mail of a phase cost 2,000 merges, so the folds are kept
// in the store by class (store.StandingOrders: every player version, the
// senior's, the juniors', the GM's) and each new version is merged into its
// classes once. The standing set is then at most three folds merged in the
// order the lock says. That equals folding every version in that order
// because an engine's Merge is associative (adjudicator.Merger); replacing
// the whole set (engines without Merge) is associative too.

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
	folds   map[string]store.StandingOrders
	folded  uint64           // the last version folded into folds
	pending []store.OrderSet // versions after it, oldest first
	last    uint64           // the last version of pending
	touched map[string]bool  // powers whose folds changed since loading
}

// loadStanding reads the folds of g's open phase and the versions after
// them. It writes nothing, so it also serves read-only transactions.
func loadStanding(tx *store.Tx, g *store.Game) (*standing, error) {
	folds, folded, err := tx.StandingOrders(g.Name, g.Phase)
	if err != nil {
		return nil, err
	}
	sets, last, err := tx.OrderSetsSince(g.Name, g.Phase, folded)
	if err != nil {
		return nil, err
	}
	return &standing{folds: folds, folded: folded, pending: sets, last: last, touched: map[string]bool{}}, nil
}

// fold merges the pending versions into their classes. It is pure: no
// store, so a Tick batch folds on every core.
func (s *standing) fold(merge func(standing, newer []string) []string) {
	for _, v := range s.pending {
		so := s.folds[v.Power]
		switch {
		case v.GM:
			addVersion(merge, &so.GM, v.Lines)
		default:
			mine, other := &so.Senior, &so.Junior
			if v.Rank != 0 {
				mine, other = other, mine
			}
			addVersion(merge, mine, v.Lines)
			if other.Set {
				addVersion(merge, &so.Any, v.Lines)
			} else {
				// Every player version so far came from this class, in
				// the same order: the two folds are equal, one merge
				// does for both.
				so.Any = store.Fold{Set: true, Lines: append([]string(nil), mine.Lines...)}
			}
		}
		s.folds[v.Power] = so
		s.touched[v.Power] = true
	}
	s.pending = nil
	s.folded = s.last
}

func addVersion(merge func(standing, newer []string) []string, f *store.Fold, lines []string) {
	if !f.Set {
		f.Set, f.Lines = true, append([]string(nil), lines...) // merging into nothing changes nothing
		return
	}
	f.Lines = merge(f.Lines, lines)
}

// save writes back the folds that changed (call it after fold, in a
// read-write transaction), so the next mail starts from them.
func (s *standing) save(tx *store.Tx, g *store.Game) error {
	if len(s.touched) == 0 {
		return nil
	}
	changed := map[string]store.StandingOrders{}
	for p := range s.touched {
		changed[p] = s.folds[p]
	}
	if err := tx.PutStandingOrders(g.Name, g.Phase, changed, s.folded); err != nil {
		return err
	}
	s.touched = map[string]bool{}
	return nil
}

// sent tells whether power has sent any version (folded or not).
func (s *standing) sent(power string) bool {
	so := s.folds[power]
	if so.Any.Set || so.GM.Set {
		return true
	}
	for _, v := range s.pending {
		if v.Power == power {
			return true
		}
	}
	return false
}

// orders returns the set that applies for each power that sent orders
// (call fold first): the versions of the players (or, when the senior has
// locked the juniors out, the juniors' and then the senior's), then the
// GM's.
func (s *standing) orders(merge func(standing, newer []string) []string, g *store.Game) map[string][]string {
	out := map[string][]string{}
	for _, power := range store.SortedKeys(s.folds) {
		so := s.folds[power]
		chain := []store.Fold{so.Any, so.GM}
		if seniorLocked(g, power) {
			chain = []store.Fold{so.Junior, so.Senior, so.GM}
		}
		var cur store.Fold
		for _, f := range chain {
			if f.Set {
				addVersion(merge, &cur, f.Lines)
			}
		}
		if cur.Set {
			out[power] = cur.Lines
		}
	}
	return out
}

// currentOrders folds what is new of g's open phase, writes the folds
// back and returns the set that applies for each power: a mail's work
// does not grow with the versions before it.
func currentOrders(tx *store.Tx, e adjudicator.Engine, state []byte, g *store.Game) (map[string][]string, error) {
	s, err := loadStanding(tx, g)
	if err != nil {
		return nil, err
	}
	merge := mergeFor(e, state)
	s.fold(merge)
	if err := s.save(tx, g); err != nil {
		return nil, err
	}
	return s.orders(merge, g), nil
}
