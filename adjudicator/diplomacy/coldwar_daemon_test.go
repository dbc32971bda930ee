package diplomacy_test

import (
	"bytes"
	"testing"
	"time"

	"pbemd/daemon/daemontest"
)

// A Cold War game plays by mail through the daemon: CREATE, both powers
// JOIN and read their power by its name, they mail orders that use the
// Istanbul canal, and each player and the GM read the Spring 1960 results
// with the picture of the position after it.
func TestColdWarByMail(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("cw1", "coldwar", "")
	tb.Send("ussr@example.test", "", "JOIN cw1 prefer ussr")
	tb.Send("nato@example.test", "", "JOIN cw1 prefer nato")
	ps := map[string]daemontest.Player{}
	for _, m := range tb.Outbox() {
		if p, ok := daemontest.PowerOf(m.Subject); ok {
			ps[p] = daemontest.Player{Addr: m.To, Token: m.Token}
			daemontest.Contains(t, m.Subject, map[string]string{"ussr": "You are USSR", "nato": "You are NATO"}[p])
		}
	}
	if len(ps) != 2 {
		t.Fatalf("players: %v", ps)
	}
	orders := map[string]string{
		"nato": "F Ist - Bla\nF Lon - Nts\nA Par - Wge\nF Aus - Ins\nA Nyk - Que\nA Los - Mex",
		"ussr": "F Hav - Car\nF Alb - Ion\nF Len/sc - Bal\nA Mos - Ukr\nA Sha - Nvi\nA Vla - Man",
	}
	for _, p := range []string{"ussr", "nato"} {
		tb.As(ps[p], orders[p])
		ack := daemontest.One(t, tb.Outbox(), ps[p].Addr, "Re:").Text
		daemontest.Contains(t, ack, "Orders received for "+map[string]string{"ussr": "USSR", "nato": "NATO"}[p]+", Spring 1960 Movement")
		daemontest.Lacks(t, ack, "Please look again", "could not understand")
	}
	tb.Wait(72 * time.Hour)
	ms := tb.Outbox()
	rec := tb.Phase("cw1", 0)
	want := daemontest.Drawn(t, "coldwar", rec.StateAfter, rec.Data, "")
	for _, addr := range []string{ps["ussr"].Addr, ps["nato"].Addr, daemontest.GM} {
		m := daemontest.One(t, ms, addr, "Spring 1960 Movement — results")
		daemontest.Contains(t, m.Text,
			"F Ist - Bla               succeeded", "F Len/sc - Bal            succeeded", "A Sha - Nvi               succeeded",
			"Next phase: Fall 1960 Movement",
			"USSR: 6 centres (Alb Hav Len Mos Sha Vla); units: F Bal, F Car, F Ion, A Man, A Nvi, A Ukr",
			"NATO: 6 centres (Aus Ist Lon Los Nyk Par); units: F Bla, F Ins, A Mex, F Nts, A Que, A Wge")
		if got := daemontest.OnePicture(t, m, "cw1-S1960M.png"); !bytes.Equal(got, want) {
			t.Errorf("%s's results picture is not the position after S1960M", addr)
		}
	}
}
