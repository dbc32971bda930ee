package daemon

import (
	"strings"
	"testing"

	"pbemd/orders"
)

// helpLine is how HELP shows a usage: the command as written, then the
// first line of what it does.
func helpLine(u usage) string {
	does, _, _ := strings.Cut(u.does, "\n")
	return strings.TrimSpace(u.use) + " " + does
}

// squeeze collapses runs of spaces, so a line reads the same whatever the
// column HELP aligns it to.
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestHelpToAPlayerListsEveryPlayerCommand: a diplomat's HELP lists every
// command of the table a player may use, PASSWORD among them, with the
// table's line, and none of the GM's (nor an observer's UNOBSERVE).
func TestHelpToAPlayerListsEveryPlayerCommand(t *testing.T) {
	h := newHarness(t)
	_, pl := h.startStandard("hp")
	h.as(pl["england"], "HELP")
	text := h.only(h.outbox(), "england@example.test").Text
	flat := squeeze(text)
	mustContain(t, text, "PASSWORD <new password>")
	for _, c := range commandTable {
		line := squeeze(helpLine(c.help))
		switch c.who {
		case gmOnly, siteOnly, watcher:
			if strings.Contains(flat, line) {
				t.Errorf("a player's HELP lists %s, which a player may not use: %q", c.verb, line)
			}
		default:
			if !strings.Contains(flat, line) {
				t.Errorf("a player's HELP lacks %s: %q", c.verb, line)
			}
		}
		if c.gm.use != "" && strings.Contains(flat, squeeze(helpLine(c.gm))) {
			t.Errorf("a player's HELP shows the GM's line of %s", c.verb)
		}
	}
	if strings.Contains(text, "UNOBSERVE") {
		t.Errorf("a player's HELP offers UNOBSERVE")
	}
	if strings.Contains(text, "GM commands") {
		t.Errorf("a player's HELP has the GM's part:\n%s", text)
	}
}

// TestHelpToAnObserverLeavesOutWhatOnlyAPlayerMayDo: an observer is shown
// the commands an observer may use (PRESS and BROADCAST among them: the
// seed lets observers comment and write to the players), not DRAW,
// PASSWORD, SET ZONE and the other commands of a player; and SET ZONE is
// refused as HELP says.
func TestHelpToAnObserverLeavesOutWhatOnlyAPlayerMayDo(t *testing.T) {
	h := newHarness(t)
	h.startStandard("ho")
	h.send("watcher@example.test", "", "OBSERVE ho")
	tok := h.only(h.outbox(), "watcher@example.test").Token
	h.send("watcher@example.test", tok, "HELP")
	text := h.only(h.outbox(), "watcher@example.test").Text
	mustContain(t, text, "UNOBSERVE", "PRESS TO", "BROADCAST")
	for _, not := range []string{"DRAW YES", "PASSWORD", "SET ZONE", "READY"} {
		if strings.Contains(text, not) {
			t.Errorf("an observer's HELP offers %s:\n%s", not, text)
		}
	}
	h.send("watcher@example.test", tok, "SET ZONE Europe/Paris")
	mustContain(t, h.only(h.outbox(), "watcher@example.test").Text, "SET ZONE: only a player of a game can do that")
	flat := squeeze(text)
	for _, c := range commandTable {
		line := squeeze(helpLine(c.help))
		want := c.who == anyone || c.who == member || c.who == watcher
		if got := strings.Contains(flat, line); got != want {
			t.Errorf("an observer's HELP: %s listed %v, want %v", c.verb, got, want)
		}
	}
}

// TestHelpToTheGMListsTheGMCommands: the GM of a game finds every GM
// command of the table in HELP, and the GM's line of the commands players
// use too; CREATE only the site's GM may use, and only the site's GM is
// shown it.
func TestHelpToTheGMListsTheGMCommands(t *testing.T) {
	h := newHarness(t)
	gm, _ := h.startStandard("hg")
	h.send(harnessGM, gm, "HELP")
	text := h.only(h.outbox(), harnessGM).Text
	mustContain(t, text, "GM commands")
	_, gmPart, _ := strings.Cut(text, "GM commands")
	flat := squeeze(gmPart)
	for _, c := range commandTable {
		switch {
		case c.who == gmOnly:
			if !strings.Contains(flat, squeeze(helpLine(c.help))) {
				t.Errorf("the GM's HELP lacks %s", c.verb)
			}
		case c.who == siteOnly:
			if strings.Contains(flat, squeeze(helpLine(c.help))) {
				t.Errorf("a game's GM is shown the site GM's %s", c.verb)
			}
		case c.gm.use != "":
			if !strings.Contains(flat, squeeze(helpLine(c.gm))) {
				t.Errorf("the GM's HELP lacks the GM's line of %s", c.verb)
			}
		}
	}
	h.send(harnessGM, "", "SIGNON GM - sesame\nHELP")
	mustContain(t, squeeze(h.only(h.outbox(), harnessGM).Text), squeeze(helpLine(commands["CREATE"].help)))
}

// TestEveryCommandHasAHelpLine: HELP is built from the table, so a
// command without a line would be a command nobody is told of; and a line
// fits a mail's 78 columns.
func TestEveryCommandHasAHelpLine(t *testing.T) {
	for _, c := range commandTable {
		if strings.TrimSpace(c.help.use) == "" || strings.TrimSpace(c.help.does) == "" {
			t.Errorf("%s has no help line", c.verb)
		}
		for _, u := range []usage{c.help, c.gm} {
			if u.use == "" {
				continue
			}
			var b strings.Builder
			writeUsage(&b, u)
			for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
				if len([]rune(l)) > 78 {
					t.Errorf("%s: HELP line longer than 78 columns: %q", c.verb, l)
				}
			}
		}
	}
}

// TestRefusalsNameTheCommandAsWritten: a command refused to its sender is
// named as the sender wrote it, not by the parser's verb (SETORDERS,
// LOCK, ZONE).
func TestRefusalsNameTheCommandAsWritten(t *testing.T) {
	h := newHarness(t)
	_, pl := h.startStandard("rn")
	h.as(pl["england"], "SET ORDERS france\nA Par H\nENDORDERS")
	text := h.reply(h.outbox(), "england@example.test").Text
	mustContain(t, text, "SET ORDERS: only the game's GM can do that")
	h.send("watcher@example.test", "", "OBSERVE rn")
	tok := h.only(h.outbox(), "watcher@example.test").Token
	h.send("watcher@example.test", tok, "LOCK JUNIORS ALWAYS\nDRAW YES\nPACE FAST")
	text = h.only(h.outbox(), "watcher@example.test").Text
	mustContain(t, text, "LOCK JUNIORS: only a player with a power", "DRAW: only a player with a power", "PACE: only a player with a power")
	for verb, want := range map[string]string{"SETORDERS": "SET ORDERS", "LOCK": "LOCK JUNIORS", "ZONE": "SET ZONE", "DRAW": "DRAW", "END": "END", "PREVIEW": "PREVIEW", "RULES": "RULES", "JOIN": "JOIN"} {
		if got := commands[orders.Verb(verb)].name(); got != want {
			t.Errorf("%s is named %q, want %q", verb, got, want)
		}
	}
}
