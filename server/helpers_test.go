package server

import (
	"sync"
	"testing"
	"time"

	_ "pbemd/adjudicator/diplomacy" // the games the tests play
	"pbemd/daemon/daemontest"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// player is one signed-up player of a test game.
type player struct{ addr, token string }

// mustContain fails the test for each want the text lacks.
func mustContain(t *testing.T, text string, wants ...string) {
	t.Helper()
	daemontest.Contains(t, text, wants...)
}
