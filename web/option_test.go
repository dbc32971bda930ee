package web_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pbemd/daemon/daemontest"
	"pbemd/store"
)

// web= chooses who reads a game's pages: public (on the index), unlisted
// (at a link nobody can guess, given in the results mails) or off (no
// pages, no link); a game whose CREATE names none takes the site's
// default. Every results mail, to players, observers and the GM alike,
// links to its phase's page when the site names a base URL.
func TestWebOptionAndResultsLink(t *testing.T) {
	t.Parallel()
	tb := newTable(t, store.WebUnlisted)
	games := map[string]string{"pub": "web=public", "hid": "web=unlisted", "off": "web=off", "dflt": ""}
	gmTokens := map[string]string{}
	for name, opt := range games {
		gmTokens[name] = tb.Create(name, "supplychain-2", opt)
		tb.SignUp(name, adjudicatorPowers(t, "supplychain-2"))
	}
	tb.Send("watcher@example.test", "", "OBSERVE pub")
	tb.Outbox()
	tb.Wait(7 * 24 * 3600e9)
	ms := tb.Outbox()
	link := regexp.MustCompile(`On the web: (\S+)`)
	b := newBuilder(t, tb, store.WebUnlisted)
	if err := b.All(); err != nil {
		t.Fatal(err)
	}
	for name := range games {
		g := tb.Game(name)
		want := ""
		switch name {
		case "pub":
			want = "https://games.example.org/pbemd/games/pub/p1.html"
		case "hid", "dflt":
			if len(g.Options.WebKey) < 26 {
				t.Fatalf("%s: unlisted without a key: %q", name, g.Options.WebKey)
			}
			want = "https://games.example.org/pbemd/u/" + g.Options.WebKey + "/p1.html"
		}
		n := 0
		for _, m := range ms {
			if !strings.Contains(m.Subject, "["+name+"]") || !strings.Contains(m.Subject, "results") {
				continue
			}
			n++
			got := link.FindStringSubmatch(m.Text)
			switch {
			case want == "" && got != nil:
				t.Errorf("%s: the mail to %s links to %s", name, m.To, got[1])
			case want != "" && (got == nil || got[1] != want):
				t.Errorf("%s: the mail to %s links to %v, want %s:\n%s", name, m.To, got, want, m.Text)
			}
		}
		if n < 3 {
			t.Errorf("%s: %d results mails", name, n)
		}
		if want != "" {
			page := filepath.Join(b.Dir(), filepath.FromSlash(strings.TrimPrefix(want, "https://games.example.org/pbemd/")))
			if _, err := os.Stat(page); err != nil {
				t.Errorf("%s: the link's page: %v", name, err)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(b.Dir(), "games", "off")); err == nil {
		t.Error("a game with web=off has pages")
	}
	index, err := os.ReadFile(filepath.Join(b.Dir(), "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), `href="games/pub/index.html"`) {
		t.Errorf("the index lacks the public game:\n%s", index)
	}
	for _, name := range []string{"hid", "dflt", "off", "/u/"} {
		if strings.Contains(string(index), name) {
			t.Errorf("the index shows %s:\n%s", name, index)
		}
	}
	// SET web=off takes a game's pages down.
	tb.Send(daemontest.GM, gmTokens["pub"], "SET web=off")
	tb.Outbox()
	if got := tb.Game("pub").Options.Web; got != store.WebOff {
		t.Fatalf("SET web=off: the game's web is %q", got)
	}
	if err := b.All(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(b.Dir(), "games", "pub")); err == nil {
		t.Error("SET web=off left the game's pages")
	}
}

// Results the GM previews (preview=on) are on no page until PUBLISH, nor
// is the phase they open (its title, whom it waits for, would tell them).
func TestPreviewedResultsWaitForPublish(t *testing.T) {
	t.Parallel()
	tb := newTable(t, store.WebPublic)
	gm := tb.Create("pv", "standard", "preview=on")
	pl := tb.SignUp("pv", adjudicatorPowers(t, "standard"))
	tb.As(pl["england"], "F Lon - Nth")
	tb.Outbox()
	tb.Wait(72 * 3600e9)
	tb.Outbox()
	if tb.Game("pv").Pending == nil {
		t.Fatal("no results wait for the GM")
	}
	b := newBuilder(t, tb, store.WebPublic)
	if err := b.All(); err != nil {
		t.Fatal(err)
	}
	for name, text := range readAll(t, b.Dir()) {
		for _, not := range []string{"Spring 1901 Movement: results", "Lon - Nth", "Fall 1901"} {
			if strings.Contains(text, not) {
				t.Errorf("%s shows %q before PUBLISH", name, not)
			}
		}
	}
	front := readAll(t, b.Dir())["games/pv/index.html"]
	if !strings.Contains(front, "The last results wait for the GM.") {
		t.Errorf("the front page:\n%s", front)
	}
	tb.Send(daemontest.GM, gm, "PUBLISH")
	tb.Outbox()
	if err := b.Game("pv"); err != nil {
		t.Fatal(err)
	}
	files := readAll(t, b.Dir())
	if p1 := files["games/pv/p1.html"]; !strings.Contains(p1, "Spring 1901 Movement: results") || !strings.Contains(p1, "Lon - Nth") {
		t.Errorf("after PUBLISH, page 1:\n%s", p1)
	}
	if !strings.Contains(files["games/pv/index.html"], "Fall 1901 Movement") {
		t.Errorf("after PUBLISH, the front page:\n%s", files["games/pv/index.html"])
	}
}

// After a ROLLBACK the reopened phase's page goes, and the phase played
// again gets a page of its own (the board drawn anew).
func TestRollbackTakesItsPageBack(t *testing.T) {
	t.Parallel()
	tb := newTable(t, store.WebPublic)
	gm := tb.Create("rb", "standard", "")
	pl := tb.SignUp("rb", adjudicatorPowers(t, "standard"))
	tb.As(pl["england"], "F Lon - Nth")
	tb.Outbox()
	tb.Wait(72 * 3600e9)
	tb.Outbox()
	b := newBuilder(t, tb, store.WebPublic)
	if err := b.Game("rb"); err != nil {
		t.Fatal(err)
	}
	before := readAll(t, b.Dir())
	if !strings.Contains(before["games/rb/p1.html"], "F Lon - Nth") {
		t.Fatalf("page 1:\n%s", before["games/rb/p1.html"])
	}
	tb.Send(daemontest.GM, gm, "ROLLBACK")
	tb.Outbox()
	if err := b.Game("rb"); err != nil {
		t.Fatal(err)
	}
	files := readAll(t, b.Dir())
	if _, ok := files["games/rb/p1.html"]; ok {
		t.Error("the reopened phase's page is still there")
	}
	if _, ok := files["games/rb/p1.svg"]; ok {
		t.Error("the reopened phase's board is still there")
	}
	if !strings.Contains(files["games/rb/index.html"], "Spring 1901 Movement") {
		t.Errorf("the front page after ROLLBACK:\n%s", files["games/rb/index.html"])
	}
	tb.As(pl["england"], "F Lon - Eng")
	tb.Outbox()
	tb.Wait(72 * 3600e9)
	tb.Outbox()
	if err := b.Game("rb"); err != nil {
		t.Fatal(err)
	}
	after := readAll(t, b.Dir())
	if p1 := after["games/rb/p1.html"]; !strings.Contains(p1, "F Lon - Eng") || strings.Contains(p1, "F Lon - Nth") {
		t.Errorf("page 1 played again:\n%s", p1)
	}
	if after["games/rb/p1.svg"] == before["games/rb/p1.svg"] {
		t.Error("the board of the phase played again is the old one")
	}
}
