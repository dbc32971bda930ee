package store

import (
	"bytes"
	"fmt"
	"strings"
)

// Reliability records: per address, across every game on this daemon, how
// often the address's power ordered in time, missed a phase, finished a
// game or left one early. Each counted event is one key, written by the
// transaction that caused it (a phase's processing, a RESIGN, the end of a
// game): writing the same event again (a phase processed again after
// ROLLBACK) overwrites its key, so each counts exactly once.
//
// Bucket:
//
//	records  address 0 game 0 'p' phase(8) → 'o' (on time), 'l' (late) or 'm' (missed)
//	         address 0 game 0 'f'          → finished the game
//	         address 0 game 0 'r'          → resigned from it
//	         address 0 game 0 'e'          → ejected from it
var bucketRecords = registerBucket([]byte("records"))

// Record is one address's reliability record.
type Record struct {
	OnTime   int // phases in which their power owed orders and had them by the deadline
	Late     int // phases in which it had them only after the deadline (in a grace or extension)
	Missed   int // phases in which it owed orders and had none
	Finished int // games they played to the end
	Resigned int // games they left with RESIGN
	Ejected  int // games the GM removed them from
	Games    int // games counted in any of the above
}

// Phases is how many phases the record counts.
func (r Record) Phases() int { return r.OnTime + r.Late + r.Missed }

// OnTimePercent is the share of counted phases ordered on time (late
// ones are not), rounded down (100 for a record of no phases).
func (r Record) OnTimePercent() int {
	if r.Phases() == 0 {
		return 100
	}
	return 100 * r.OnTime / r.Phases()
}

// RecordEvent is one counted event of a record.
type RecordEvent byte

const (
	EventOnTime   RecordEvent = 'o'
	EventLate     RecordEvent = 'l'
	EventMissed   RecordEvent = 'm'
	EventFinished RecordEvent = 'f'
	EventResigned RecordEvent = 'r'
	EventEjected  RecordEvent = 'e'
)

func recordPrefix(addr string) []byte {
	return append([]byte(strings.ToLower(addr)), 0)
}

func recordGameKey(addr, game string) []byte {
	return append(append(recordPrefix(addr), game...), 0)
}

// CountPhase records that addr's power owed orders in phase of game and
// ordered on time (EventOnTime), after the deadline (EventLate) or not
// at all (EventMissed).
func (tx *Tx) CountPhase(addr, game string, phase int, ev RecordEvent) error {
	if ev != EventOnTime && ev != EventLate && ev != EventMissed {
		return fmt.Errorf("count phase %d of %s for %s: %q is not a phase event", phase, game, addr, ev)
	}
	k := append(append(recordGameKey(addr, game), 'p'), u64(uint64(phase))...)
	return tx.bucket(bucketRecords).Put(k, []byte{byte(ev)})
}

// CountGame records a game-level event (finished, resigned, ejected) of
// addr in game.
func (tx *Tx) CountGame(addr, game string, ev RecordEvent) error {
	if ev != EventFinished && ev != EventResigned && ev != EventEjected {
		return fmt.Errorf("count %s of %s: %q is not a game event", addr, game, ev)
	}
	return tx.bucket(bucketRecords).Put(append(recordGameKey(addr, game), byte(ev)), []byte{1})
}

// RecordOf sums the record of addr over every game. It reads one key per
// counted event of that address.
func (tx *Tx) RecordOf(addr string) Record {
	var r Record
	prefix := recordPrefix(addr)
	var lastGame []byte
	c := tx.bucket(bucketRecords).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		rest := k[len(prefix):]
		i := bytes.IndexByte(rest, 0)
		if i < 0 || i+1 >= len(rest) {
			continue
		}
		if game := rest[:i]; !bytes.Equal(game, lastGame) {
			lastGame = bytes.Clone(game)
			r.Games++
		}
		switch RecordEvent(rest[i+1]) {
		case 'p':
			switch {
			case len(v) == 1 && RecordEvent(v[0]) == EventOnTime:
				r.OnTime++
			case len(v) == 1 && RecordEvent(v[0]) == EventLate:
				r.Late++
			default:
				r.Missed++
			}
		case EventFinished:
			r.Finished++
		case EventResigned:
			r.Resigned++
		case EventEjected:
			r.Ejected++
		}
	}
	return r
}
