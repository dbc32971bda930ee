package server

import (
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
)

// Every is how often something runs, spelled as a duration ("1m", "30s")
// like every other length of time in the config. Configs written for older
// versions spelled poll and tick as cron schedules; those still work:
// "@every D" is read as D, any other schedule ("*/5 * * * *") is kept and
// run as before. Either way Config.Warnings says how to write it now.
type Every struct {
	D    time.Duration // the interval; 0 when Cron is set
	Cron string        // an old cron schedule that is not "@every D"
	old  string        // the old spelling as written, for the warning
}

// cronParser reads the old spelling (robfig/cron, minute resolution, with
// descriptors such as @hourly and @every).
var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// UnmarshalText reads a duration, or an old cron schedule.
func (e *Every) UnmarshalText(text []byte) error {
	s := strings.TrimSpace(string(text))
	if d, err := time.ParseDuration(s); err == nil {
		*e = Every{D: d}
		return nil
	}
	if rest, ok := strings.CutPrefix(s, "@every "); ok {
		if d, err := time.ParseDuration(strings.TrimSpace(rest)); err == nil {
			*e = Every{D: d, old: s}
			return nil
		}
	}
	if _, err := cronParser.Parse(s); err == nil {
		*e = Every{Cron: s, old: s}
		return nil
	}
	return fmt.Errorf("%q is not a duration (e.g. \"1m\", \"30s\")", s)
}

// MarshalText writes the current spelling.
func (e Every) MarshalText() ([]byte, error) {
	if e.Cron != "" {
		return []byte(e.Cron), nil
	}
	return []byte(e.D.String()), nil
}

func (e Every) String() string {
	b, _ := e.MarshalText()
	return string(b)
}

// validate bounds the interval: a mailbox or a clock checked more than once
// a second only costs, and less than daily is no schedule at all.
func (e Every) validate(key string) error {
	if e.Cron != "" {
		return nil
	}
	if e.D < time.Second || e.D > 24*time.Hour {
		return fmt.Errorf("%s %q must be between 1s and 24h", key, e.D)
	}
	return nil
}

// oldSpelling says how to write an old value now ("" when it is current).
func (e Every) oldSpelling(key string) string {
	switch {
	case e.old == "":
		return ""
	case e.Cron != "":
		return fmt.Sprintf("%s = %q is the cron spelling of older versions; it still works, but %s is a duration now (e.g. %s = \"5m\")", key, e.old, key, key)
	default:
		return fmt.Sprintf("%s = %q is the cron spelling of older versions; write %s = %q", key, e.old, key, e.D)
	}
}
