package daemon

import (
	"testing"
	"time"
)

// A zone is read once and then handed out as read; a name that is no
// zone is refused every time, and nothing is kept for it.
func TestLoadZone(t *testing.T) {
	a, err := loadZone("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	b, err := loadZone("Europe/Paris")
	if err != nil || a != b {
		t.Errorf("second read: %p, %v; first %p", b, err, a)
	}
	when := time.Date(2026, 7, 1, 19, 0, 0, 0, time.UTC)
	if got := when.In(b).Format("15:04 MST"); got != "21:00 CEST" {
		t.Errorf("19:00 UTC in Paris reads %s", got)
	}
	for range 2 {
		if _, err := loadZone("Mars/Olympus"); err == nil {
			t.Error("Mars/Olympus read as a zone")
		}
	}
	if _, ok := zones.Load("Mars/Olympus"); ok {
		t.Error("an unknown zone was kept")
	}
}
