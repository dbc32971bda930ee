//go:build race

package diplomacy

// raceEnabled: under the race detector a sync.Pool drops some of what it
// is given, so the resolver's scratch is made again now and then.
const raceEnabled = true
