package daemon

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"pbemd/store"
)

var update = flag.Bool("update", false, "rewrite the golden mails in testdata/mails")

// goldens collects one mail of each kind and compares it with its file in
// testdata/mails (go test -run TestGoldenMails -update rewrites them).
type goldens struct {
	t    *testing.T
	kept map[string]bool
}

var (
	tokenRE    = regexp.MustCompile(`\b[a-z2-7]{26}\b`)
	codeRE     = regexp.MustCompile(`\b[2-9A-Z]{4}-[2-9A-Z]{4}(-[2-9A-Z]{5})?\b`)
	passwordRE = regexp.MustCompile(`\b[2-9a-z]{4}-[2-9a-z]{4}\b`)
	secretRE   = regexp.MustCompile(`\b[0-9a-f]{32}\b|\b[0-9a-f]{64}\b`)
	msgidRE    = regexp.MustCompile(`\b[0-9a-f]{8,}\.[0-9a-f]{20}@`)
)

// mask replaces what is random in every run: tokens, verification codes,
// passwords, draw-prize secrets.
func mask(s string) string {
	s = tokenRE.ReplaceAllString(s, "TOKEN")
	s = codeRE.ReplaceAllString(s, "CODE-CODE")
	s = passwordRE.ReplaceAllString(s, "pass-word")
	s = msgidRE.ReplaceAllString(s, "MSGID@")
	return secretRE.ReplaceAllString(s, "SECRET")
}

func (g *goldens) keep(kind string, m sent) {
	g.t.Helper()
	if g.kept[kind] {
		g.t.Fatalf("golden %q kept twice", kind)
	}
	g.kept[kind] = true
	got := mask("To: " + m.To + "\nSubject: " + m.Subject + "\n\n" + m.Text)
	path := filepath.Join("testdata", "mails", kind+".txt")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			g.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			g.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		g.t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		g.t.Errorf("mail %q differs from %s (run with -update if the change is right):\n--- got\n%s\n--- want\n%s", kind, path, got, want)
	}
}

// done fails on golden files that no mail produced any more.
func (g *goldens) done() {
	files, _ := filepath.Glob(filepath.Join("testdata", "mails", "*.txt"))
	for _, f := range files {
		kind := strings.TrimSuffix(filepath.Base(f), ".txt")
		if !g.kept[kind] {
			if *update {
				os.Remove(f)
				continue
			}
			g.t.Errorf("golden %s is no longer produced", f)
		}
	}
}

// subject finds the single mail to addr whose subject contains subj.
func (h *harness) subject(ms []sent, addr, subj string) sent {
	h.t.Helper()
	var got []sent
	for _, m := range to(ms, addr) {
		if strings.Contains(m.Subject, subj) {
			got = append(got, m)
		}
	}
	if len(got) != 1 {
		var all []string
		for _, m := range ms {
			all = append(all, m.To+": "+m.Subject)
		}
		h.t.Fatalf("want one mail to %s with %q, got %d of:\n%s", addr, subj, len(got), strings.Join(all, "\n"))
	}
	return got[0]
}

// TestGoldenMails plays a standard game from creation through a
// dislodgement, retreat, adjustments and a voted draw, and keeps one mail
// of every kind players and the GM receive.
func TestGoldenMails(t *testing.T) {
	h := newHarness(t)
	g := &goldens{t: t, kept: map[string]bool{}}
	defer g.done()

	if err := h.d.Welcome(); err != nil {
		t.Fatal(err)
	}
	g.keep("welcome", h.only(h.outbox(), harnessGM))
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE gold standard")
	created := h.only(h.outbox(), harnessGM)
	g.keep("create-reply", created)
	gm := created.Token

	powers := []string{"austria", "england", "france", "germany", "italy", "russia", "turkey"}
	pl := map[string]player{}
	for i, p := range powers {
		addr := p + "@example.test"
		h.send(addr, "", "JOIN gold prefer "+p)
		ms := h.outbox()
		if i == 0 {
			g.keep("join-reply", h.only(ms, addr))
		}
		if i == len(powers)-1 {
			g.keep("power-assigned", h.subject(ms, "england@example.test", "You are"))
			g.keep("game-started", h.subject(ms, "england@example.test", "has started"))
			g.keep("game-started-gm", h.subject(ms, harnessGM, "has started"))
			for _, p := range powers {
				m := h.subject(ms, p+"@example.test", "You are")
				pl[p] = player{p + "@example.test", m.Token}
			}
		}
	}

	h.as(pl["england"], "Hello GM,\n\nFleet London move North Sea\nF Edi - Nwg\nA Lvp - Yorkshre\nA Lvp - Wales\nF Nth - Hol\n\nThanks!\n-- \nEngland")
	g.keep("orders-ack", h.only(h.outbox(), "england@example.test"))
	h.send("stranger@example.test", "", "Hi, how do I play?")
	g.keep("stranger", h.only(h.outbox(), "stranger@example.test"))
	h.as(pl["england"], "HELP")
	g.keep("help-player", h.only(h.outbox(), "england@example.test"))
	h.send(harnessGM, gm, "HELP")
	g.keep("help-gm", h.only(h.outbox(), harnessGM))
	h.send("visitor@example.test", "", "LIST") // stranger@ had its one answer of the day
	g.keep("list", h.only(h.outbox(), "visitor@example.test"))
	h.as(pl["england"], "STATUS")
	g.keep("status", h.only(h.outbox(), "england@example.test"))
	h.as(pl["england"], "PRESS TO France\nShall we keep the Channel empty?\nENDPRESS")
	g.keep("press-private", h.only(h.outbox(), "france@example.test"))
	h.as(pl["france"], "BROADCAST\nFrance wants peace with all.\nENDPRESS")
	g.keep("press-broadcast", h.subject(h.outbox(), "england@example.test", "Broadcast"))
	h.as(pl["germany"], "PSA\nDo not trust the Tsar.\nENDPRESS")
	g.keep("press-psa", h.subject(h.outbox(), "england@example.test", "Anonymous"))
	h.send("watcher@example.test", "", "OBSERVE gold")
	g.keep("observe-reply", h.only(h.outbox(), "watcher@example.test"))

	// A junior asks England's senior, is accepted, orders, and is let go.
	h.send("pest@example.test", "", "JOIN gold as junior of England")
	h.outbox()
	h.as(pl["england"], "REFUSE pest@example.test no thank you")
	g.keep("join-refused", h.only(h.outbox(), "pest@example.test"))
	h.send("deputy@example.test", "", "JOIN gold as junior of England")
	ms := h.outbox()
	g.keep("join-asked", h.only(ms, "deputy@example.test"))
	g.keep("join-request", h.only(ms, "england@example.test"))
	h.as(pl["england"], "ACCEPT deputy@example.test")
	ms = h.outbox()
	g.keep("join-accepted", h.only(ms, "england@example.test"))
	g.keep("junior-power-mail", h.subject(ms, "deputy@example.test", "You are"))
	g.keep("junior-joined-gm", h.subject(ms, harnessGM, "joined England"))
	deputy := player{"deputy@example.test", h.subject(ms, "deputy@example.test", "You are").Token}
	h.clock.Add(5 * time.Minute)
	h.as(deputy, "A Lvp - Yor")
	g.keep("orders-ack-shared", h.only(h.outbox(), "deputy@example.test"))
	h.as(pl["england"], "RELEASE deputy@example.test")
	ms = h.outbox()
	g.keep("released", h.only(ms, "deputy@example.test"))
	g.keep("left-power-gm", h.subject(ms, harnessGM, "left England"))
	h.as(deputy, "A Lvp - Wal")
	g.keep("left-sentence", h.only(h.outbox(), "deputy@example.test"))
	h.clock.Add(-5 * time.Minute)

	// Spring 1901: Italy and Germany move towards Vienna.
	h.as(pl["italy"], "A Ven - Tyr")
	h.as(pl["germany"], "A Mun - Boh")
	h.outbox()
	h.clock.Add(47 * time.Hour)
	h.tick()
	g.keep("reminder", h.only(h.outbox(), "austria@example.test"))
	h.clock.Add(time.Hour)
	h.tick()
	ms = h.outbox()
	g.keep("results-player", h.subject(ms, "italy@example.test", "results"))
	g.keep("results-observer", h.subject(ms, "watcher@example.test", "results"))
	g.keep("results-gm", h.subject(ms, harnessGM, "results"))

	// Fall 1901: Vienna falls; Austria must retreat.
	h.as(pl["germany"], "A Boh - Vie")
	h.as(pl["italy"], "A Tyr S A Boh - Vie")
	h.outbox()
	// The seed's calendar: "The fall orders are due Friday", three days
	// after Spring's Tuesday deadline, as no Spring retreat was needed.
	h.clock.Add(72 * time.Hour)
	h.tick()
	ms = h.outbox()
	g.keep("results-dislodged", h.subject(ms, "austria@example.test", "results"))
	h.as(pl["austria"], "A Vie R Gal")
	g.keep("retreat-ack", h.only(h.outbox(), "austria@example.test"))
	h.clock.Add(24 * time.Hour)
	h.tick()
	ms = h.outbox()
	g.keep("results-retreats", h.subject(ms, "germany@example.test", "results"))
	h.as(pl["germany"], "Build A Mun")
	g.keep("build-ack", h.only(h.outbox(), "germany@example.test"))
	h.clock.Add(24 * time.Hour)
	h.tick()
	g.keep("results-adjustments", h.subject(h.outbox(), "austria@example.test", "results"))

	// The GM's hand.
	h.send(harnessGM, gm, "PAUSE a player is ill")
	ms = h.outbox()
	g.keep("gm-ack", h.reply(ms, harnessGM))
	g.keep("paused", h.subject(ms, "england@example.test", "paused"))
	h.send(harnessGM, gm, "RESUME")
	g.keep("resumed", h.subject(h.outbox(), "england@example.test", "resumed"))
	h.send(harnessGM, gm, "EXTEND 1 day")
	g.keep("new-deadline", h.subject(h.outbox(), "england@example.test", "deadline"))
	h.send(harnessGM, gm, "RULES\nPress must be in English.\nENDRULES")
	h.outbox()
	h.as(pl["england"], "RULES")
	g.keep("rules", h.only(h.outbox(), "england@example.test"))
	h.as(pl["england"], "HISTORY")
	g.keep("history-list", h.only(h.outbox(), "england@example.test"))
	h.as(pl["england"], "HISTORY S1901M")
	g.keep("history-phase", h.only(h.outbox(), "england@example.test"))
	i := strings.Index(created.Text, "Send VERIFY ")
	// Strangers get one answer a day each: one stranger per mail.
	h.send("checker@example.test", "", "VERIFY "+strings.Fields(created.Text[i+len("Send VERIFY "):])[0])
	g.keep("verify-yes", h.only(h.outbox(), "checker@example.test"))
	h.send("doubter@example.test", "", "VERIFY 2345-6789")
	g.keep("verify-no", h.only(h.outbox(), "doubter@example.test"))
	h.sendMail(&Incoming{MsgID: "big@test", From: "sender@example.test", Subject: "huge", TooBig: true})
	g.keep("too-big", h.only(h.outbox(), "sender@example.test"))
	h.as(pl["turkey"], "RESIGN")
	ms = h.outbox()
	g.keep("resign-reply", h.only(ms, "turkey@example.test"))
	g.keep("gm-alert", h.subject(ms, harnessGM, "resigned"))

	// Turkey's player has left, so the surviving powers cannot all vote:
	// the GM ends the game in a draw.
	for _, p := range powers {
		if p == "turkey" {
			continue
		}
		h.as(pl[p], "DRAW YES")
		ms := h.outbox()
		if p == "austria" {
			g.keep("draw-vote", h.only(ms, "austria@example.test"))
		}
	}
	if gg := h.game("gold"); gg.Status != store.Active {
		t.Fatalf("a draw passed without Turkey's vote: %s", gg.Status)
	}
	h.send(harnessGM, gm, "END DRAW")
	g.keep("game-over", h.subject(h.outbox(), "england@example.test", "Game over"))
	if gg := h.game("gold"); gg.Status != store.Finished || gg.EndedAs != "draw" {
		t.Fatalf("END DRAW: %s %s", gg.Status, gg.EndedAs)
	}
}
