package outbox

import (
	"strings"
	"sync"
	"time"
)

// Dates gives a reader's mails about one thing (a game) Date headers that
// strictly increase in the order the mails are written: mail clients sort
// a mailbox by Date, to the second, and one event often writes a reader
// several mails at once (the answer to their mail, the game's start, their
// power; the last results and the end of the game). A mail's Date is its
// time, or one second after the last Date given to one of its readers
// about the same thing when that is not earlier. Mails about different
// games may share a second: their order tells nothing, and a GM of many
// games is not sent mail dated hours ahead by one deadline burst.
//
// It keeps, in memory, the readers whose last Date is not yet past, and
// forgets the others as new ones come (a burst's readers, once its second
// is over); after a restart it begins again from the clock. The zero
// value is ready.
type Dates struct {
	mu      sync.Mutex
	last    map[string]int64 // reader (lower case) and what about → the Unix second of their last Date
	pruneAt int
}

// Next returns the Date of a mail to readers about something (a game's
// name, "" for none) written at now.
func (d *Dates) Next(readers []string, about string, now time.Time) time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	keys := make([]string, len(readers))
	sec := now.Unix()
	for i, r := range readers {
		keys[i] = strings.ToLower(r) + "\x00" + about
		if l, ok := d.last[keys[i]]; ok && l >= sec {
			sec = l + 1
		}
	}
	if d.last == nil {
		d.last = map[string]int64{}
	}
	if len(d.last) >= d.pruneAt {
		for k, l := range d.last {
			if l < now.Unix() {
				delete(d.last, k)
			}
		}
		d.pruneAt = max(1024, 2*len(d.last))
	}
	for _, k := range keys {
		d.last[k] = sec
	}
	if sec == now.Unix() {
		return now
	}
	return time.Unix(sec, 0).In(now.Location())
}
