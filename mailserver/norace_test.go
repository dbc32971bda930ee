//go:build !race

package mailserver

const raceEnabled = false
