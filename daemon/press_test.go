package daemon_test

import (
	"strings"
	"testing"

	_ "pbemd/adjudicator/diplomacy"
	"pbemd/daemon/daemontest"
)

var ancmedPowers = []string{"carthage", "egypt", "greece", "persia", "rome"}

// ancmedTable is a started game of the seed's own variant, on the map
// that ships, with one player per power (<power>@example.test).
func ancmedTable(t *testing.T, name, options string) (*daemontest.Table, string, map[string]daemontest.Player) {
	t.Helper()
	tb := daemontest.New(t)
	gm := tb.Create(name, "ancientmed", options)
	pl := tb.SignUp(name, ancmedPowers)
	tb.Outbox()
	return tb, gm, pl
}

// observe signs watcher up as an observer of game and returns its token.
func observe(t *testing.T, tb *daemontest.Table, game, watcher string) daemontest.Player {
	t.Helper()
	tb.Send(watcher, "", "OBSERVE "+game)
	m := daemontest.One(t, tb.Outbox(), watcher, "Re:")
	daemontest.Contains(t, m.Text, "You now observe "+game)
	return daemontest.Player{Addr: watcher, Token: m.Token}
}

// codeOf is the verification code printed on a mail.
func codeOf(t *testing.T, m daemontest.Mail) string {
	t.Helper()
	i := strings.Index(m.Text, "Send VERIFY ")
	if i < 0 {
		t.Fatalf("no verification code in:\n%s", m.Text)
	}
	return strings.Fields(m.Text[i+len("Send VERIFY "):])[0]
}

// none fails when any mail of ms goes to addr.
func none(t *testing.T, ms []daemontest.Mail, addr string) {
	t.Helper()
	for _, m := range ms {
		if m.To == addr {
			t.Errorf("%s got a mail: %s\n%s", addr, m.Subject, m.Text)
		}
	}
}

// TestObserversCommentAndWriteToPlayers: the seed (issue 15 item 6):
// "People who are not playing are allowed and encouraged to provide any
// and all sorts of commentary, and are even allowed to PM with the
// players." An observer's BROADCAST is a comment to everyone and its
// PRESS reaches the powers it names; both are signed with its address
// and say it is an observer, not a player; a player answers it with
// PRESS TO <its address>. The GM may turn it off (observer_press=off).
func TestObserversCommentAndWriteToPlayers(t *testing.T) {
	tb, gm, pl := ancmedTable(t, "obs", "")
	w := observe(t, tb, "obs", "watcher@example.test")

	tb.As(w, "BROADCAST\nCarthage has left Sicily wide open.\nENDPRESS")
	ms := tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, w.Addr, "Re:").Text, "Your comment was sent to every player and observer of obs, signed with your address")
	for _, p := range ancmedPowers {
		m := daemontest.One(t, ms, pl[p].Addr, "Comment from observer watcher@example.test")
		daemontest.Contains(t, m.Text, "Comment from watcher@example.test, an observer of obs (not a player)", "Carthage has left Sicily wide open.")
	}
	daemontest.Contains(t, daemontest.One(t, ms, daemontest.GM, "Comment from observer").Text, "Carthage has left Sicily wide open.")

	tb.As(w, "PRESS TO Greece\nPersia is massing in Cilicia.\nENDPRESS")
	ms = tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, w.Addr, "Re:").Text, "Press relayed to Greece (1 reader)")
	m := daemontest.One(t, ms, pl["greece"].Addr, "Press from watcher@example.test (an observer, not a player)")
	daemontest.Contains(t, m.Text, "Press from watcher@example.test (an observer, not a player) to Greece", "Persia is massing in Cilicia.",
		"Reply with PRESS TO watcher@example.test")
	for _, p := range []string{"rome", "persia", "egypt", "carthage"} {
		none(t, ms, pl[p].Addr)
	}
	none(t, ms, daemontest.GM) // private press is not copied to the GM

	tb.As(pl["greece"], "PRESS TO watcher@example.test\nThanks, friend.\nENDPRESS")
	ms = tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, pl["greece"].Addr, "Re:").Text, "Press relayed to watcher@example.test (observer)")
	daemontest.Contains(t, daemontest.One(t, ms, w.Addr, "Press from Greece").Text, "Thanks, friend.")

	// Only observers of the game can be written to by address.
	tb.As(pl["greece"], "PRESS TO stranger@example.test\nHello?\nENDPRESS")
	ms = tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, pl["greece"].Addr, "Re:").Text, "PRESS not sent: stranger@example.test does not observe obs")
	none(t, ms, "stranger@example.test")

	tb.Send(daemontest.GM, gm, "SET observer_press=off")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), daemontest.GM, "Re:").Text, "observers' press off")
	tb.As(w, "PRESS TO Greece\nagain\nENDPRESS")
	ms = tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, w.Addr, "Re:").Text, "PRESS not sent: in obs observers may not write to the players")
	none(t, ms, pl["greece"].Addr)
	tb.As(w, "BROADCAST\nagain\nENDPRESS")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), w.Addr, "Re:").Text, "BROADCAST not sent: in obs observers may not write to the players")
	tb.As(pl["greece"], "PRESS TO watcher@example.test\nagain\nENDPRESS")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["greece"].Addr, "Re:").Text, "PRESS not sent: in obs players and observers do not write to each other")
	// The GM is still within reach, as the refusal says.
	tb.As(w, "PRESS TO GM\nWhy may I not comment?\nENDPRESS")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), daemontest.GM, "Press to the GM from watcher@example.test").Text, "Why may I not comment?")
	// And HELP offers the observer only what it may do.
	tb.As(w, "HELP")
	help := daemontest.One(t, tb.Outbox(), w.Addr, "Re:").Text
	daemontest.Contains(t, help, "PRESS TO GM", "observers do not write to the players")
	for _, refused := range []string{"PRESS TO <power>", "BROADCAST"} {
		if strings.Contains(help, refused) {
			t.Errorf("HELP offers a muted observer %s:\n%s", refused, help)
		}
	}
	tb.As(pl["greece"], "HELP")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["greece"].Addr, "Re:").Text, "PRESS TO <power>", "BROADCAST")
}

// TestPlayersWriteToTheGM: issue 15 item 7 and the seed: "IF YOU HAVE
// ANY QUESTIONS ABOUT THE RULES ... GIVE THE GM A PRIVATE MESSAGE AND YOU
// WILL BE ANSWERED". PRESS TO GM reaches the GM with who sent it (power
// and address), whatever the game's press rules; the GM answers by
// replying PRESS TO <power>, which only that power's diplomats get.
func TestPlayersWriteToTheGM(t *testing.T) {
	tb, gm, pl := ancmedTable(t, "togm", "press=none")
	tb.As(pl["rome"], "PRESS TO GM\nMay a fleet in Rome sail to Neapolis?\nENDPRESS")
	ms := tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, pl["rome"].Addr, "Re:").Text, "Press relayed to the GM")
	m := daemontest.One(t, ms, daemontest.GM, "Press to the GM from Rome")
	daemontest.Contains(t, m.Text, "Press to the GM from Rome, by rome@example.test, the senior diplomat of Rome",
		"May a fleet in Rome sail to Neapolis?", "reply with PRESS TO Rome", "or with any GM command for togm")
	if m.Token != gm {
		t.Errorf("the GM's mail does not take the GM's reply: token %q", m.Token)
	}
	for _, p := range []string{"greece", "persia", "egypt", "carthage"} {
		none(t, ms, pl[p].Addr)
	}

	// The GM answers by reply; only Rome reads it.
	tb.Send(daemontest.GM, m.Token, "PRESS TO Rome\nYes: Rome and Neapolis share a coast.\nENDPRESS")
	ms = tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, daemontest.GM, "Re:").Text, "Press relayed to Rome (1 reader)")
	daemontest.Contains(t, daemontest.One(t, ms, pl["rome"].Addr, "Press from the GM").Text,
		"Press from the GM to Rome", "Yes: Rome and Neapolis share a coast.", "Reply with PRESS TO GM")
	for _, p := range []string{"greece", "persia", "egypt", "carthage"} {
		none(t, ms, pl[p].Addr)
	}

	// The GM's public press reads as it always has.
	tb.Send(daemontest.GM, gm, "BROADCAST\nDeadlines hold.\nENDPRESS")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["greece"].Addr, "Broadcast from GM").Text, "Broadcast from GM (", "Deadlines hold.")

	// press=none still closes press between the powers.
	tb.As(pl["rome"], "PRESS TO Greece, GM\nhello\nENDPRESS")
	ms = tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, pl["rome"].Addr, "Re:").Text, "PRESS not sent: private press is turned off")
	none(t, ms, pl["greece"].Addr)

	// An observer may write to the GM too.
	w := observe(t, tb, "togm", "watcher@example.test")
	tb.As(w, "PRESS TO GM\nMay I join when a seat opens?\nENDPRESS")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), daemontest.GM, "Press to the GM from watcher@example.test").Text,
		"May I join when a seat opens?", "reply with PRESS TO watcher@example.test")
}

// TestGreyPressIsMarkedAndVerifyTellsIt: issue 15 item 8 and the seed:
// "Players are encouraged and allowed to forge private messages from each
// other." PRESS TO <power> FROM <power> reaches its readers in the
// claimed power's name, marked as unverified, and nothing in it names its
// writer; VERIFY of its code says the game master sent it but does not
// vouch for its sender, while a real press's code verifies plainly and a
// forged code not at all. It is on by default and the GM may turn it off.
func TestGreyPressIsMarkedAndVerifyTellsIt(t *testing.T) {
	tb, gm, pl := ancmedTable(t, "grey", "")
	tb.As(pl["rome"], "STATUS")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["rome"].Addr, "Re:").Text, "grey press on")

	tb.As(pl["rome"], "PRESS TO Greece FROM Persia\nOur fleets will meet at Crete.\nENDPRESS")
	ms := tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, pl["rome"].Addr, "Re:").Text,
		"Grey press relayed to Greece (1 reader), said to be from Persia and marked as unverified")
	grey := daemontest.One(t, ms, pl["greece"].Addr, "Grey press, said to be from Persia (unverified)")
	daemontest.Contains(t, grey.Text, "It says it comes from Persia, but I do not vouch for that", "Our fleets will meet at Crete.",
		`Press that Persia really sent has the subject "Press from Persia"`)
	daemontest.Lacks(t, grey.Text, "Rome", "rome@")
	if refs := strings.Join(grey.Parsed.References, " "); strings.Contains(refs, "rome") {
		t.Errorf("the grey press's thread names its writer: %s", refs)
	}
	for _, p := range []string{"persia", "egypt", "carthage"} {
		none(t, ms, pl[p].Addr)
	}

	tb.As(pl["persia"], "PRESS TO Greece\nI never wrote that.\nENDPRESS")
	real := daemontest.One(t, tb.Outbox(), pl["greece"].Addr, "Press from Persia")

	tb.As(pl["greece"], "VERIFY "+codeOf(t, grey))
	v := daemontest.One(t, tb.Outbox(), pl["greece"].Addr, "Re:").Text
	daemontest.Contains(t, v, "yes, I sent that mail", "It is grey press: I relayed it, but I do not vouch for its sender. It says it comes from Persia")
	daemontest.Lacks(t, v, "Rome")
	tb.As(pl["greece"], "VERIFY "+codeOf(t, real))
	v = daemontest.One(t, tb.Outbox(), pl["greece"].Addr, "Re:").Text
	daemontest.Contains(t, v, "yes, I sent that mail", "Subject: [grey] Press from Persia")
	daemontest.Lacks(t, v, "grey press")
	tb.As(pl["greece"], "VERIFY 2345-6789")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["greece"].Addr, "Re:").Text, "never sent a mail with that code")

	// In public too: PRESS TO ALL FROM <power>; HISTORY keeps the claim,
	// never the writer.
	tb.As(pl["egypt"], "PRESS TO ALL FROM Carthage\nCarthage yields Sicily to Rome.\nENDPRESS")
	ms = tb.Outbox()
	b := daemontest.One(t, ms, pl["greece"].Addr, "Grey broadcast, said to be from Carthage (unverified)")
	daemontest.Contains(t, b.Text, "Carthage yields Sicily to Rome.")
	daemontest.Lacks(t, b.Text, "Egypt", "egypt@")
	daemontest.Lacks(t, daemontest.One(t, ms, daemontest.GM, "Grey broadcast").Text, "Egypt", "egypt@")
	waitDeadline(tb, "grey")
	tb.Outbox()
	tb.As(pl["greece"], "HISTORY S450M")
	h := daemontest.One(t, tb.Outbox(), pl["greece"].Addr, "Re:").Text
	daemontest.Contains(t, h, "--- press (broadcast) from Carthage (grey press: unverified) ---", "Carthage yields Sicily to Rome.")
	daemontest.Lacks(t, h, "from Egypt", "egypt@", "Our fleets will meet")

	tb.Send(daemontest.GM, gm, "SET grey=off")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), daemontest.GM, "Re:").Text, "grey press off")
	tb.As(pl["rome"], "PRESS TO Greece FROM Persia\nagain\nENDPRESS")
	ms = tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, pl["rome"].Addr, "Re:").Text, "PRESS not sent: grey press, in another power's name, is turned off in grey")
	none(t, ms, pl["greece"].Addr)
	// Press in one's own name is no grey press.
	tb.As(pl["rome"], "PRESS TO Greece FROM Rome\nsigned\nENDPRESS")
	daemontest.One(t, tb.Outbox(), pl["greece"].Addr, "Press from Rome")
}

// TestRulesSayWhatPressTheGameAllows: RULES states the game's press as
// its options stand (the seed's defaults: observers may write to the
// players, grey press is on), and follows the GM's SET.
func TestRulesSayWhatPressTheGameAllows(t *testing.T) {
	tb, gm, pl := ancmedTable(t, "rules", "")
	tb.As(pl["rome"], "RULES")
	r := daemontest.One(t, tb.Outbox(), pl["rome"].Addr, "Re:").Text
	daemontest.Contains(t, r, "Press in this game", "PRESS TO GM … ENDPRESS reaches the GM", "Observers may comment (BROADCAST) and write to powers",
		"Grey press is on: PRESS TO <powers> FROM <power>")
	tb.Send(daemontest.GM, gm, "SET grey=off\nSET observer_press=off")
	tb.Outbox()
	tb.As(pl["rome"], "RULES")
	r = daemontest.One(t, tb.Outbox(), pl["rome"].Addr, "Re:").Text
	daemontest.Contains(t, r, "Grey press (in another power's name) is off.", "Observers do not write to the players")
	daemontest.Lacks(t, r, "Grey press is on")
}
