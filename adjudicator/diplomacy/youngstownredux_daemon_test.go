package diplomacy_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"pbemd/daemon/daemontest"
)

// A Youngstown Redux game plays by mail through the daemon: CREATE, the
// ten powers JOIN and read their power by its name, they mail orders on
// both ends of the board (the Atlantic next to Box A, the Pacific next to
// Box D, St Petersburg's south coast), and each player and the GM read
// the Spring 1901 results with the picture of the position after it.
func TestYoungstownReduxByMail(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("yr1", "youngstownredux", "")
	names := map[string]string{"austria": "Austria", "britain": "Britain", "china": "China", "france": "France", "germany": "Germany",
		"india": "India", "italy": "Italy", "japan": "Japan", "russia": "Russia", "turkey": "Turkey"}
	powers := []string{"austria", "britain", "china", "france", "germany", "india", "italy", "japan", "russia", "turkey"}
	for _, p := range powers {
		tb.Send(p+"@example.test", "", "JOIN yr1 prefer "+p)
	}
	ps := map[string]daemontest.Player{}
	for _, m := range tb.Outbox() {
		if p, ok := daemontest.PowerOf(m.Subject); ok {
			ps[p] = daemontest.Player{Addr: m.To, Token: m.Token}
			daemontest.Contains(t, m.Subject, "You are "+names[p])
		}
	}
	if len(ps) != 10 {
		t.Fatalf("players: %v", ps)
	}
	orders := map[string]string{
		"austria": "F Sar - Adr\nA Vie - Gal\nA Bud - Ser\nA Tri - Tyr",
		"britain": "F Lon - Nth\nF Edi - Nwg\nF Lvp - Nao\nF Ade - Red\nF Sig - And",
		"china":   "A Pek - Inn\nF Sha - Ecs\nA Wuh - Qin\nA Gua - Yun",
		"france":  "F Bre - Mao\nA Par - Bur\nA Mar - Spa\nF Sai - Scs",
		"germany": "F Kie - Hel\nF Tsi - Yel\nA Ber - Pru\nA Mun - Boh\nA Col - Hol",
		"india":   "F Bom - Ars\nF Mad - Wio\nA Del - Kas\nA Cal - Brm",
		"italy":   "F Nap - Ion\nF Mog - Hor\nA Rom - Apu\nA Mil - Pie",
		"japan":   "F Tok - Npo\nF Osa - Spo\nF Sap - Soj\nA Kyo - Aki",
		"russia":  "F Sev - Bla\nF StP/sc - Bot\nF Vla - Soo\nA Mos - Ukr\nA Oms - Sib\nA War - Lvn",
		"turkey":  "F Ank - Arm\nA Con - Bul\nA Bag - Per\nA Mec - Ara",
	}
	for _, p := range powers {
		tb.As(ps[p], orders[p])
		ack := daemontest.One(t, tb.Outbox(), ps[p].Addr, "Re:").Text
		daemontest.Contains(t, ack, "Orders received for "+names[p]+", Spring 1901 Movement")
		daemontest.Lacks(t, ack, "Please look again", "could not understand")
	}
	tb.Wait(72 * time.Hour)
	ms := tb.Outbox()
	rec := tb.Phase("yr1", 0)
	want := daemontest.Drawn(t, "youngstownredux", rec.StateAfter, rec.Data, "")
	addrs := []string{daemontest.GM}
	for _, p := range powers {
		addrs = append(addrs, ps[p].Addr)
	}
	for _, addr := range addrs {
		m := daemontest.One(t, ms, addr, "Spring 1901 Movement — results")
		daemontest.Contains(t, m.Text,
			fmt.Sprintf("%-26ssucceeded", "F Lvp - Nao"), fmt.Sprintf("%-26ssucceeded", "F Tok - Npo"),
			fmt.Sprintf("%-26ssucceeded", "F StP/sc - Bot"), fmt.Sprintf("%-26ssucceeded", "F Sig - And"),
			"Next phase: Fall 1901 Movement")
		if got := daemontest.OnePicture(t, m, "yr1-S1901M.png"); !bytes.Equal(got, want) {
			t.Errorf("%s's results picture is not the position after S1901M", addr)
		}
	}
}
