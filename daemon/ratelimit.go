package daemon

import (
	"sync"
	"time"
)

// rateLimiter answers at most limit mails per sender per window; the first
// mail over the limit gets one notice, the rest silence, until the window
// moves on. It lives in memory: a restart forgets it, which only ever makes
// the daemon more talkative, never lossy (every mail is still processed).
type rateLimiter struct {
	mu     sync.Mutex
	limit  int
	window time.Duration
	seen   map[string]*senderWindow
}

type senderWindow struct {
	start    time.Time
	count    int
	notified bool
}

// Verdict is what the limiter allows for one mail.
type verdict int

const (
	answer verdict = iota // reply normally
	notice                // reply with the one notice that the sender is over the limit
	silent                // process, but do not reply
)

func newRateLimiter(limit int, window time.Duration) *rateLimiter {
	return &rateLimiter{limit: limit, window: window, seen: map[string]*senderWindow{}}
}

func (r *rateLimiter) check(sender string, now time.Time) verdict {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.seen[sender]
	if w == nil || now.Sub(w.start) >= r.window {
		if len(r.seen) > 100000 { // a flood of distinct senders: start over rather than grow
			r.seen = map[string]*senderWindow{}
		}
		w = &senderWindow{start: now}
		r.seen[sender] = w
	}
	w.count++
	switch {
	case w.count <= r.limit:
		return answer
	case !w.notified:
		w.notified = true
		return notice
	default:
		return silent
	}
}

// uncount takes back one check of sender made at now: the mail's
// transaction did not land (the store could not write) and the mail will
// be handed over again, so it must not count twice, nor use up the one
// notice.
func (r *rateLimiter) uncount(sender string, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.seen[sender]
	if w == nil || w.count == 0 || now.Sub(w.start) >= r.window {
		return
	}
	if w.count == r.limit+1 {
		w.notified = false
	}
	w.count--
}
