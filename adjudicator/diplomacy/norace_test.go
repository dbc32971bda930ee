//go:build !race

package diplomacy

const raceEnabled = false
