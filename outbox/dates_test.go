package outbox

import (
	"fmt"
	"testing"
	"time"
)

// TestDatesIncreaseForEachReader: a reader's mails about one game written
// in the same second get Dates a second apart, in order; another reader,
// or another game, starts from the clock; once the clock has passed a
// reader's last Date, their next mail is dated by the clock.
func TestDatesIncreaseForEachReader(t *testing.T) {
	var d Dates
	t0 := time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)
	steps := []struct {
		to    []string
		about string
		at    time.Time
		want  time.Time
	}{
		{[]string{"a@x"}, "g1", t0, t0},
		{[]string{"A@x"}, "g1", t0, t0.Add(time.Second)},
		{[]string{"b@x"}, "g1", t0, t0},
		{[]string{"b@x", "a@x"}, "g1", t0.Add(500 * time.Millisecond), t0.Add(2 * time.Second)},
		{[]string{"a@x"}, "g2", t0, t0},
		{[]string{"a@x"}, "g1", t0.Add(5 * time.Second), t0.Add(5 * time.Second)},
	}
	for i, s := range steps {
		if got := d.Next(s.to, s.about, s.at); !got.Equal(s.want) {
			t.Errorf("step %d: mail to %v about %s at %s dated %s, want %s", i, s.to, s.about, s.at.Format(time.TimeOnly), got.Format(time.TimeOnly), s.want.Format(time.TimeOnly))
		}
	}
	// Many readers: those whose last Date is past are forgotten as new
	// ones come.
	for i := range 3000 {
		d.Next([]string{fmt.Sprintf("r%d@x", i)}, "g1", t0)
	}
	later := t0.Add(time.Hour)
	for i := range 3000 {
		d.Next([]string{fmt.Sprintf("s%d@x", i)}, "g1", later)
	}
	if len(d.last) > 3000 {
		t.Errorf("%d readers remembered, want only the 3000 of the last second", len(d.last))
	}
}
