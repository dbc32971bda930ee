//go:build race

package mailserver

// raceEnabled: the race detector makes byte loops ~15 times slower, so
// the memory test stores smaller mails under it.
const raceEnabled = true
