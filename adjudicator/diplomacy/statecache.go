package diplomacy

import "sync"

// stateCacheSize bounds the decoded states a map keeps (about 8 KB each,
// key included): twice a deadline batch of 256 games, whose states before
// and after are both read again (Status, the pictures).
const stateCacheSize = 512

// stateCache memoises decodeState for one map. The daemon hands the engine
// the same stored state for every call of a phase (Check, Merge, Status,
// Examples … several per order mail), and reading the JSON was most of
// what those calls cost. Entries are keyed by the exact state bytes; the
// oldest entry goes first when the cache is full. A hit of get is a copy
// (Position.Clone), so a caller may change what it gets; view hands out
// the stored state itself, for the engine's calls that only read it
// (Check, Merge: two or three per order mail), which then cost no copy.
// Safe for concurrent use; a decode that fails is not kept.
type stateCache struct {
	mu    sync.Mutex
	byKey map[string]*gameState
	ring  []string // keys in the order they came, oldest at next once full
	next  int
}

// newStateCache returns an empty cache. Its table is made at the first
// put: a process that never decodes a stored state (`pbemd adjudicate`,
// every map loaded to parse or draw) does not pay for it.
func newStateCache() *stateCache { return &stateCache{} }

// get returns a copy of the state decoded from data, if kept.
func (c *stateCache) get(data []byte) (*gameState, bool) {
	c.mu.Lock()
	g, ok := c.byKey[string(data)]
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	return g.copy(), true
}

// view returns the state decoded from data, if kept: the one the cache
// holds, which the caller must not change.
func (c *stateCache) view(data []byte) (*gameState, bool) {
	c.mu.Lock()
	g, ok := c.byKey[string(data)]
	c.mu.Unlock()
	return g, ok
}

// put keeps a copy of g as what data decodes to.
func (c *stateCache) put(data []byte, g *gameState) {
	g = g.copy()
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[string(data)]; ok {
		return
	}
	key := string(data)
	if c.byKey == nil {
		c.byKey = make(map[string]*gameState, stateCacheSize)
	}
	if len(c.ring) < stateCacheSize {
		c.ring = append(c.ring, key)
	} else {
		delete(c.byKey, c.ring[c.next])
		c.ring[c.next] = key
		c.next = (c.next + 1) % stateCacheSize
	}
	c.byKey[key] = g
}

// len is the number of states kept (tests read it).
func (c *stateCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byKey)
}

// copy returns a deep copy of g.
func (g *gameState) copy() *gameState {
	return &gameState{pos: g.pos.Clone(), over: g.over, winners: append([]string(nil), g.winners...)}
}
