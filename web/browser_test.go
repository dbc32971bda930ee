package web_test

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbemd/internal/skipnote"
	"pbemd/store"
	"pbemd/web"
)

// browser starts Debian's Chromium headless (chromedp) for the test, or
// skips it with a note when there is none (CI installs it: .ci/run).
func browser(t *testing.T) context.Context {
	t.Helper()
	exe, err := exec.LookPath("chromium")
	if err != nil {
		skipnote.Say("pbemd/web: the browser tests are skipped: no chromium on PATH (apt-get install chromium; .ci/run installs it)")
		t.Skip("no chromium on PATH: apt-get install chromium")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, time.Minute)
	t.Cleanup(func() { cancelT(); cancelB(); cancelA() })
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx
}

// In Chromium: the index lists the game; its front page shows the board
// and the game now; stepping back (by link and by arrow key) changes the
// board, which loads under the pages' Content-Security-Policy; at a
// phone's 390×844 and a desktop's 1280×800 nothing is wider than the
// screen. PBEMD_WEB_SCREENSHOTS=DIR saves the game's page at both sizes.
func TestPagesInChromium(t *testing.T) {
	ctx := browser(t)
	tb := newTable(t, store.WebPublic)
	tb.Create("rome", "ancientmed", "")
	pl := tb.SignUp("rome", adjudicatorPowers(t, "ancientmed"))
	tb.Outbox()
	tb.As(pl["rome"], "BROADCAST\nRome wants peace; Carthage, keep to Africa.\nENDPRESS")
	tb.Outbox()
	play(t, tb, "rome", pl, 4)
	b := newBuilder(t, tb, store.WebPublic)
	if err := b.All(); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(web.Handler(b.Dir(), func(string) bool { return true }))
	defer ts.Close()
	g := tb.Game("rome")

	var links []string
	var src, title string
	var loaded bool
	err := chromedp.Run(ctx,
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(ts.URL+"/"),
		chromedp.Evaluate(`Array.from(document.querySelectorAll("ul.games a")).map(a => a.getAttribute("href"))`, &links),
	)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 1 || links[0] != "games/rome/index.html" {
		t.Fatalf("the index links to %v", links)
	}
	boardNow := func() {
		t.Helper()
		err := chromedp.Run(ctx,
			chromedp.WaitReady("#board"),
			chromedp.Poll(`document.getElementById("board").complete`, nil),
			chromedp.Evaluate(`document.getElementById("board").getAttribute("src")`, &src),
			chromedp.Evaluate(`document.getElementById("board").naturalWidth > 0`, &loaded),
			chromedp.Text("#phase", &title),
		)
		if err != nil {
			t.Fatal(err)
		}
		if !loaded {
			t.Fatalf("the board %s did not load", src)
		}
	}
	if err := chromedp.Run(ctx, chromedp.Click(`ul.games a`), chromedp.WaitVisible("#now")); err != nil {
		t.Fatal(err)
	}
	var now string
	if err := chromedp.Run(ctx, chromedp.Text("#now", &now)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(now, g.PhaseTitle) || !strings.Contains(now, "Waiting for orders from") {
		t.Errorf("the front page's now: %q (the game is in %s)", now, g.PhaseTitle)
	}
	boardNow()
	seen := map[string]string{src: title}
	boards := map[string]bool{}
	read := func(src string) {
		raw, err := os.ReadFile(filepath.Join(b.Dir(), "games", "rome", src))
		if err != nil {
			t.Fatal(err)
		}
		boards[string(raw)] = true
	}
	read(src)
	// Back by the link, then by the arrow key (step.js), to the start.
	for i := 0; i < g.Phase; i++ {
		var step chromedp.Action = chromedp.Click("#prev")
		if i%2 == 1 {
			step = chromedp.KeyEvent("\u2190") // kb.ArrowLeft
		}
		before := src
		if err := chromedp.Run(ctx, step); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Run(ctx, chromedp.Poll(`document.getElementById("board") && document.getElementById("board").getAttribute("src") !== `+quote(before), nil)); err != nil {
			t.Fatalf("step %d back from %s: the board did not change: %v", i+1, before, err)
		}
		boardNow()
		seen[src] = title
		read(src)
	}
	if len(seen) != g.Phase+1 || src != "p0.svg" {
		t.Errorf("stepping back showed %v, ending at %s", seen, src)
	}
	if len(boards) < 3 {
		t.Errorf("only %d different boards in %d phases", len(boards), len(seen))
	}
	// Forward again by "next".
	if err := chromedp.Run(ctx, chromedp.Click("#next")); err != nil {
		t.Fatal(err)
	}
	boardNow()
	if src != "p1.svg" {
		t.Errorf("next from the start shows %s", src)
	}

	shots := os.Getenv("PBEMD_WEB_SCREENSHOTS")
	for _, size := range []struct {
		name string
		w, h int64
		mob  bool
	}{{"phone", 390, 844, true}, {"desktop", 1280, 800, false}} {
		t.Run(size.name, func(t *testing.T) {
			var fits bool
			var sw, iw int
			var png []byte
			vp := chromedp.EmulateViewport(size.w, size.h)
			if size.mob {
				vp = chromedp.EmulateViewport(size.w, size.h, chromedp.EmulateScale(3), chromedp.EmulateMobile)
			}
			for _, page := range []string{"/", "/games/rome/", "/games/rome/p1.html", "/games/rome/p0.html"} {
				err := chromedp.Run(ctx, vp,
					chromedp.Navigate(ts.URL+page),
					chromedp.WaitReady("body"),
					chromedp.Evaluate(`document.documentElement.scrollWidth <= window.innerWidth`, &fits),
					chromedp.Evaluate(`document.documentElement.scrollWidth`, &sw),
					chromedp.Evaluate(`window.innerWidth`, &iw),
				)
				if err != nil {
					t.Fatal(err)
				}
				if !fits || iw != int(size.w) {
					t.Errorf("%s at %d×%d: the page is %d px wide in a window of %d", page, size.w, size.h, sw, iw)
				}
			}
			if shots == "" {
				return
			}
			if err := chromedp.Run(ctx, chromedp.Navigate(ts.URL+"/games/rome/p4.html"), chromedp.WaitReady("#board"),
				chromedp.Poll(`document.getElementById("board").complete`, nil), chromedp.FullScreenshot(&png, 90)); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(shots, "game-"+size.name+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
