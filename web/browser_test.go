package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

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
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
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
	t.Parallel()
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

	do := func(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
	}
	str := func(t *testing.T, expr string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	do(t, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(ts.URL+"/"))
	if links := str(t, `Array.from(document.querySelectorAll("ul.games a")).map(a => a.getAttribute("href")).join(" ")`); links != "games/rome/index.html" {
		t.Fatalf("the index links to %q", links)
	}
	var src, title string
	boardNow := func() {
		t.Helper()
		do(t, chromedp.WaitReady("#board"))
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("board").complete`)); err != nil {
			t.Fatal(err)
		}
		src = str(t, `document.getElementById("board").getAttribute("src")`)
		title = str(t, `document.getElementById("phase").textContent`)
		if str(t, `String(document.getElementById("board").naturalWidth > 0)`) != "true" {
			t.Fatalf("the board %s did not load", src)
		}
	}
	do(t, chromedp.Click(`ul.games a`), chromedp.WaitVisible("#now"))
	if now := str(t, `document.getElementById("now").textContent`); !strings.Contains(now, g.PhaseTitle) || !strings.Contains(now, "Waiting for orders from") {
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
		step := chromedp.Click("#prev")
		if i%2 == 1 {
			step = chromedp.KeyEvent(kb.ArrowLeft)
		}
		before := src
		do(t, step)
		// the page the step leads to: each try is one evaluation (one
		// during the navigation fails, and the next one is in the new page)
		changed := false
		for deadline := time.Now().Add(10 * time.Second); !changed && time.Now().Before(deadline); {
			v, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.readyState === "complete" && document.getElementById("board") !== null && document.getElementById("board").getAttribute("src") !== `+quote(before)))
			changed = err == nil && v
			if !changed {
				time.Sleep(20 * time.Millisecond)
			}
		}
		if !changed {
			t.Fatalf("step %d back from %s: the board did not change", i+1, before)
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
	do(t, chromedp.Click("#next"))
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
			vp := chromedp.EmulateViewport(size.w, size.h)
			if size.mob {
				vp = chromedp.EmulateViewport(size.w, size.h, chromedp.EmulateScale(2), chromedp.EmulateMobile)
			}
			for _, page := range []string{"/", "/games/rome/", "/games/rome/p1.html", "/games/rome/p0.html"} {
				do(t, vp, chromedp.Navigate(ts.URL+page), chromedp.WaitReady("body"))
				got := str(t, `document.documentElement.scrollWidth + " " + window.innerWidth + " " + (document.documentElement.scrollWidth <= window.innerWidth)`)
				if !strings.HasSuffix(got, fmt.Sprint(size.w)+" true") {
					t.Errorf("%s at %d×%d: page width, window width, fits: %s", page, size.w, size.h, got)
				}
			}
			if shots == "" {
				return
			}
			do(t, chromedp.Navigate(ts.URL+"/games/rome/p4.html"), chromedp.WaitReady("#board"))
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("board").complete`)); err != nil {
				t.Fatal(err)
			}
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100: a PNG
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(shots, "game-"+size.name+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
