package web_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pbemd/adjudicator"
	_ "pbemd/adjudicator/diplomacy"
	_ "pbemd/adjudicator/empire"
	_ "pbemd/adjudicator/supplychain"
	"pbemd/daemon"
	"pbemd/daemon/daemontest"
	"pbemd/store"
	"pbemd/web"
)

// play has the engine's bot order for every power the game waits for and
// lets the deadline pass, phases times (fewer when the game ends).
func play(t testing.TB, tb *daemontest.Table, name string, players map[string]daemontest.Player, phases int) {
	t.Helper()
	for range phases {
		g := tb.Game(name)
		if g.Status != store.Active {
			return
		}
		e, _ := adjudicator.Lookup(g.Variant)
		bot := e.(adjudicator.Bot)
		state := tb.State(name)
		for _, w := range g.Waiting {
			text, err := bot.BotOrders(state, w, int64(g.Phase))
			if err != nil {
				t.Fatal(err)
			}
			tb.As(players[w], text)
		}
		tb.Outbox()
		if g = tb.Game(name); g.Status == store.Active && g.Phase == tb.Game(name).Phase {
			tb.Wait(max(g.Deadline.Sub(tb.Now())+time.Minute, time.Minute))
		}
		tb.Outbox()
	}
}

// newTable is a daemon whose games are public by default and whose
// results link to pages at base.
func newTable(t testing.TB, def string) *daemontest.Table {
	return daemontest.NewWith(t, func(o *daemon.Options) {
		o.Web = daemon.Web{Default: def, BaseURL: "https://games.example.org/pbemd/"}
	})
}

func newBuilder(t testing.TB, tb *daemontest.Table, def string) *web.Builder {
	t.Helper()
	b, err := web.New(tb.DB, web.Options{Dir: t.TempDir(), Default: def, Results: daemon.PublicResults})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readAll returns every file under dir by its slash path.
func readAll(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = string(raw)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// privateLines are the lines of every power's private results and view
// that no public text of the game shows: what only that power may read.
func privateLines(t testing.TB, tb *daemontest.Table, name string) []string {
	t.Helper()
	g := tb.Game(name)
	e, _ := adjudicator.Lookup(g.Variant)
	var public strings.Builder
	var private []string
	for i := range g.Phase {
		rec := tb.Phase(name, i)
		public.WriteString(daemon.PublicResults(g, rec))
		for _, p := range rec.Private {
			private = append(private, strings.Split(p, "\n")...)
		}
		st, _ := e.Status(rec.StateAfter)
		public.WriteString(st.Summary)
	}
	if v, ok := e.(adjudicator.Viewer); ok {
		for _, p := range e.Info().Powers {
			text, err := v.View(tb.State(name), p)
			if err != nil {
				t.Fatal(err)
			}
			private = append(private, strings.Split(text, "\n")...)
		}
	}
	var out []string
	for _, l := range private {
		l = strings.TrimSpace(l)
		if len(l) >= 12 && !strings.Contains(public.String(), l) && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// TestPagesShowNoPrivateWord plays a Diplomacy game with private press, a
// fogged Empire game and a Supply Chain game (hidden hands) through the
// real daemon, builds their pages and reads every file for every private
// string: private press, what each power's results say to it alone, each
// power's own view (its hand of cards, its fogged map), orders not yet
// processed and every address.
func TestPagesShowNoPrivateWord(t *testing.T) {
	t.Parallel()
	tb := newTable(t, store.WebPublic)
	tb.Create("dip", "standard", "")
	dip := tb.SignUp("dip", adjudicatorPowers(t, "standard"))
	tb.Create("emp", "empire2", "fog=2")
	emp := tb.SignUp("emp", adjudicatorPowers(t, "empire2"))
	tb.Create("sc", "supplychain-2", "")
	sc := tb.SignUp("sc", adjudicatorPowers(t, "supplychain-2"))
	tb.Send("watcher@example.test", "", "OBSERVE dip")
	tb.Outbox()

	tb.As(dip["england"], "PRESS TO France\nSECRET-ALLIANCE-7731 let us take Belgium together\nENDPRESS")
	tb.As(dip["france"], "BROADCAST\nOPEN-LETTER-4410 peace in our time\nENDPRESS")
	tb.As(dip["italy"], "PSA\nANON-NOTE-2209 someone is lying\nENDPRESS")
	tb.Outbox()
	play(t, tb, "dip", dip, 3)
	play(t, tb, "emp", emp, 6)
	play(t, tb, "sc", sc, 6)
	// Orders for the open phase, not processed yet.
	tb.As(dip["england"], "PRESS TO Germany\nSECRET-DEAL-5150 spare Denmark\nENDPRESS")
	tb.Outbox()

	b := newBuilder(t, tb, store.WebPublic)
	if err := b.All(); err != nil {
		t.Fatal(err)
	}
	files := readAll(t, b.Dir())
	var pages strings.Builder
	for name, text := range files {
		if strings.HasSuffix(name, ".html") || strings.HasSuffix(name, ".svg") {
			pages.WriteString(text)
		}
	}
	all := pages.String()
	for _, want := range []string{"OPEN-LETTER-4410", "ANON-NOTE-2209", "Broadcast from France", "Anonymous announcement"} {
		if !strings.Contains(all, want) {
			t.Errorf("the pages lack the public %q", want)
		}
	}
	nots := []string{"SECRET-ALLIANCE-7731", "SECRET-DEAL-5150", "example.test", "example.org", "--- for you only ---"}
	for _, game := range []string{"dip", "emp", "sc"} {
		g := tb.Game(game)
		if g.Phase < 2 {
			t.Fatalf("%s: only %d phases played", game, g.Phase)
		}
		for _, p := range g.Players {
			nots = append(nots, p.Token)
		}
		nots = append(nots, g.GMToken)
		priv := privateLines(t, tb, game)
		if len(priv) == 0 && game != "dip" {
			t.Errorf("%s: no private line to look for", game)
		}
		nots = append(nots, priv...)
	}
	for name, text := range files {
		for _, not := range nots {
			if strings.Contains(text, not) {
				t.Errorf("%s shows the private %q", name, not)
			}
		}
	}
	// The fogged game's boards are the observer's: each differs from
	// every power's own.
	g := tb.Game("emp")
	e, _ := adjudicator.Lookup(g.Variant)
	d := e.(adjudicator.Drawer)
	for i := range g.Phase {
		rec := tb.Phase("emp", i)
		page := files["games/emp/p"+strconv.Itoa(i+1)+".svg"]
		if page == "" {
			t.Fatalf("no board for page %d of emp", i+1)
		}
		if svg(t, d, rec, "") != page {
			t.Errorf("page %d of emp: the board is not the observer's", i+1)
		}
		for _, p := range e.Info().Powers {
			if svg(t, d, rec, p) == page {
				t.Errorf("page %d of emp: the board is %s's own (fog lifted)", i+1, p)
			}
		}
	}
}

func svg(t testing.TB, d adjudicator.Drawer, rec *store.PhaseRecord, viewer string) string {
	t.Helper()
	pic, err := d.Draw(rec.StateAfter, rec.Data, viewer)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := pic.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func adjudicatorPowers(t testing.TB, variant string) []string {
	e, ok := adjudicator.Lookup(variant)
	if !ok {
		t.Fatalf("no variant %s", variant)
	}
	return e.Info().Powers
}
