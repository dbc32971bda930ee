package server

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"pbemd/store"
)

// A deadline check that runs for longer than LongTick fails /healthz
// (while it runs no other deadline and no GM's PROCESS is processed);
// once it ends, /healthz is ok again and the results go out. The check
// is held at its commit by the store's fault hook while the clock moves
// on past LongTick.
func TestE2EHealthzFailsWhileATickRunsLong(t *testing.T) {
	e := newE2E(t)
	_, pl := e.standardGame("slow")
	url := serveEndpoint(t, e.srv)
	if code, body := healthz(t, url); code != http.StatusOK {
		t.Fatalf("healthz before: %d %s", code, body)
	}

	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free) // before the server stops (cleanups run last first)
	e.srv.DB.SetWriteFault(func(store.Commit) error { <-release; return nil })

	e.clock.Add(48 * time.Hour)
	e.srv.Kick()
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, ok := e.srv.Daemon.TickRunning(); ok {
			break
		}
		if time.Now().After(end) {
			t.Fatal("no tick started after the kick")
		}
	}
	if code, body := healthz(t, url); code != http.StatusOK || strings.Contains(body, "tick") {
		t.Errorf("a tick just started: healthz %d %q", code, body)
	}
	e.clock.Add(LongTick + time.Second)
	code, body := healthz(t, url)
	if code != http.StatusServiceUnavailable {
		t.Fatalf("a tick running for over %s: healthz %d %q", LongTick, code, body)
	}
	mustContain(t, body, "failing", "tick: the deadline check has run for 1m1s", "no deadline or PROCESS is processed")

	free()
	e.srv.DB.SetWriteFault(nil)
	waitHealthz(t, url, "after the tick", func(code int, body string) bool { return code == http.StatusOK })
	e.next(pl["england"].addr, "Spring 1901 Movement — results")
}
