package server

import (
	"strings"
	"testing"
)

// TestE2EPressToTheGMGreyPressObserversAndSentences: over the embedded
// mail server, issue 15 items 6-8 and issue 16 item 8 as a player meets
// them: PRESS TO GM reaches the GM, who answers by reply; grey press
// arrives marked unverified and VERIFY says so; an observer's comment is
// signed as an observer's; an order written as a sentence is answered
// with the order it names.
func TestE2EPressToTheGMGreyPressObserversAndSentences(t *testing.T) {
	e := newE2E(t)
	_, pl := e.standardGame("p1")
	eng, fra, ger := pl["england"], pl["france"], pl["germany"]

	e.send(eng.addr, tokenAddr(eng.token), "my fleet in London moves to the North Sea")
	mustContain(t, e.next(eng.addr, "Re:").Text, "did you mean F Lon - Nth?")

	e.send(eng.addr, tokenAddr(eng.token), "PRESS TO GM\nIs Kiel one coast?\nENDPRESS")
	mustContain(t, e.next(eng.addr, "Re:").Text, "Press relayed to the GM")
	q := e.next(e2eGM, "Press to the GM from England")
	mustContain(t, q.Text, "Is Kiel one coast?", eng.addr)
	e.send(e2eGM, tokenAddr(q.Token), "PRESS TO England\nYes.\nENDPRESS")
	e.next(e2eGM, "Re:")
	mustContain(t, e.next(eng.addr, "Press from the GM").Text, "Yes.")
	e.quiet(fra.addr, "Press from the GM")

	e.send(fra.addr, tokenAddr(fra.token), "PRESS TO Germany FROM England\nI will take Holland.\nENDPRESS")
	e.next(fra.addr, "Re:")
	grey := e.next(ger.addr, "Grey press, said to be from England (unverified)")
	mustContain(t, grey.Text, "I will take Holland.")
	if strings.Contains(grey.Text, "France") || strings.Contains(grey.Text, fra.addr) {
		t.Errorf("grey press names its writer:\n%s", grey.Text)
	}
	i := strings.Index(grey.Text, "Send VERIFY ")
	code := strings.Fields(grey.Text[i+len("Send VERIFY "):])[0]
	e.send(ger.addr, "gm@pbemd.localhost", "VERIFY "+code)
	mustContain(t, e.next(ger.addr, "Re:").Text, "yes, I sent that mail", "It is grey press", "says it comes from England")

	e.send("watcher@pbemd.localhost", "gm@pbemd.localhost", "OBSERVE p1")
	obs := e.next("watcher@pbemd.localhost", "Re:")
	e.send("watcher@pbemd.localhost", tokenAddr(obs.Token), "BROADCAST\nWhat a stab.\nENDPRESS")
	e.next("watcher@pbemd.localhost", "Re:")
	mustContain(t, e.next(ger.addr, "Comment from observer watcher@pbemd.localhost").Text, "What a stab.", "not a player")
}
