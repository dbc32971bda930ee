package diplomacy_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pbemd/daemon/daemontest"
	"pbemd/store"
	"pbemd/web"
)

// A Hundred game plays by mail through the daemon over two cycles of its
// calendar, 1425 to 1440: every player and the GM read each results mail
// named by the year alone (1425, 1430 …, never a Spring or Fall), France
// disbands the army it started with off its centres in the 1430
// adjustments, Burgundy builds in a neutral centre it took (build
// anywhere), and HISTORY, the deadline's phase and the web pages name
// the years as the mails do.
func TestHundredByMail(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("h1", "hundred", "web=public")
	ps := tb.SignUp("h1", []string{"england", "burgundy", "france"})
	readers := []string{ps["england"].Addr, ps["burgundy"].Addr, ps["france"].Addr, daemontest.GM}
	names := map[string]string{"england": "England", "burgundy": "Burgundy", "france": "France"}

	// play sends each power's orders, checks the acknowledgements name the
	// phase, lets the deadline pass and returns the results mail every
	// reader got.
	play := func(phase string, orders map[string]string) map[string]daemontest.Mail {
		t.Helper()
		for p, text := range orders {
			tb.As(ps[p], text)
			ack := daemontest.One(t, tb.Outbox(), ps[p].Addr, "Re:").Text
			daemontest.Contains(t, ack, "Orders received for "+names[p]+", "+phase)
			daemontest.Lacks(t, ack, "Please look again", "could not understand")
		}
		tb.Wait(72 * time.Hour)
		ms := tb.Outbox()
		out := map[string]daemontest.Mail{}
		for _, addr := range readers {
			m := daemontest.One(t, ms, addr, phase+" — results")
			daemontest.Lacks(t, m.Subject+m.Text, "Spring", "Fall", "Winter")
			out[addr] = m
		}
		return out
	}

	r := play("1425 Movement", map[string]string{
		"burgundy": "A Dij - Can",
		"france":   "A Pro - Sav",
		"england":  "F Lon - Eng",
	})
	rec := tb.Phase("h1", 0)
	want := daemontest.Drawn(t, "hundred", rec.StateAfter, rec.Data, "")
	for _, addr := range readers {
		daemontest.Contains(t, r[addr].Text, "A Dij - Can", "succeeded", "A Pro - Sav", "Next phase: 1430 Movement")
		if got := daemontest.OnePicture(t, r[addr], "h1-S1425M.png"); !bytes.Equal(got, want) {
			t.Errorf("%s's results picture is not the position after 1425", addr)
		}
	}
	daemontest.Contains(t, r[daemontest.GM].Text, "1430 Movement: orders due by")

	r = play("1430 Movement", map[string]string{"burgundy": "A Can H"})
	for _, addr := range readers {
		daemontest.Contains(t, r[addr].Text, "Next phase: 1430 Adjustments")
	}
	daemontest.Contains(t, r[ps["france"].Addr].Text, "You must disband 1 unit in 1430 Adjustments")
	daemontest.Contains(t, r[ps["burgundy"].Addr].Text, "You may build 1 unit in Dij (in 1430 Adjustments)", "Next: your orders for 1430 Adjustments, due by")

	r = play("1430 Adjustments", map[string]string{"france": "Disband A Sav", "burgundy": "Waive"})
	for _, addr := range readers {
		daemontest.Contains(t, r[addr].Text, "Next phase: 1435 Movement")
	}

	play("1435 Movement", map[string]string{"burgundy": "A Can - Lor"})
	r = play("1440 Movement", map[string]string{"burgundy": "A Lor H"})
	daemontest.Contains(t, r[ps["burgundy"].Addr].Text, "You may build 1 unit in Can or Dij (in 1440 Adjustments)")
	r = play("1440 Adjustments", map[string]string{"burgundy": "Build A Can"})
	for _, addr := range readers {
		daemontest.Contains(t, r[addr].Text, "Build A Can", "Next phase: 1445 Movement")
	}

	tb.As(ps["england"], "HISTORY")
	h := daemontest.One(t, tb.Outbox(), ps["england"].Addr, "Re:").Text
	daemontest.Contains(t, h, "1425 Movement", "1430 Adjustments", "1440 Adjustments")
	daemontest.Lacks(t, h, "Spring", "Fall", "Winter")

	g := tb.Game("h1")
	if g.PhaseTitle != "1445 Movement" {
		t.Errorf("the open phase is %q, want 1445 Movement", g.PhaseTitle)
	}

	dir := t.TempDir()
	b, err := web.New(tb.DB, web.Options{Dir: dir, Default: store.WebPublic})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Game("h1"); err != nil {
		t.Fatal(err)
	}
	var pages strings.Builder
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".html") {
			data, err := os.ReadFile(path)
			pages.Write(data)
			return err
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	daemontest.Contains(t, pages.String(), "1425 Movement", "1430 Adjustments", "1445 Movement")
	daemontest.Lacks(t, pages.String(), "Spring 14", "Fall 14", "Winter 14")
}
