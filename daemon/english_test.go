package daemon_test

import (
	"testing"

	"pbemd/daemon/daemontest"
)

// TestAnEnglishSentenceGetsTheOrderItNames: issue 16 item 8. A player who
// writes an order as an English sentence is told the order its unit and
// provinces name, on the map that ships ("did you mean F Lon - Nth?"),
// not that its first word is no order word; when the words name no
// order, the order forms. The line is still not stored: it is a hint.
func TestAnEnglishSentenceGetsTheOrderItNames(t *testing.T) {
	cases := []struct {
		variant, power, line string
		want                 []string
	}{
		{"standard", "england", "my fleet in London moves to the North Sea", []string{"did you mean F Lon - Nth?"}},
		{"standard", "england", "The fleet in London moves to the North Sea.", []string{"did you mean F Lon - Nth?"}},
		{"standard", "france", "Move the army from Paris to Burgundy", []string{"did you mean A Par - Bur?"}},
		{"standard", "germany", "I want my army in Munich to support the army in Berlin", []string{"did you mean A Mun S A Ber?"}},
		{"standard", "germany", "the army in Munich supports the army in Berlin moving to Silesia", []string{"did you mean A Mun S A Ber - Sil?"}},
		{"standard", "england", "Please have the fleet in the North Sea convoy the army in London to Norway", []string{"did you mean F Nth C A Lon - Nwy?"}},
		{"standard", "england", "my fleet in London stays where it is", []string{"did you mean F Lon H?"}},
		{"standard", "france", "move my fleet from Brest to Spain north coast", []string{"did you mean F Bre - Spa/nc?"}},
		{"standard", "england", "I would like to win the game", []string{"not as a sentence: the unit, its province, then the order",
			"A <province> - <province> (move)"}},
		{"ancientmed", "rome", "The army in Rome holds", []string{"did you mean A Rom H?"}},
		{"ancientmed", "egypt", "my fleet in Alexandria moves to the Gulf of Pelusium", []string{"did you mean F Ale - GoP?"}},
		{"ancientmed", "egypt", "my army in The moves to Sinai", []string{"did you mean A The - Sii?"}},
		{"ancientmed", "rome", "my army in Rome should do something clever", []string{"not as a sentence", "A Rom H (hold), A Rom - <province> (move)"}},
	}
	tables := map[string]*daemontest.Table{}
	players := map[string]map[string]daemontest.Player{}
	tables["standard"], _, players["standard"] = standardTable(t, "eng")
	tables["ancientmed"], _, players["ancientmed"] = ancmedTable(t, "eng", "")
	for _, c := range cases {
		t.Run(c.variant+"/"+c.line, func(t *testing.T) {
			tb, p := tables[c.variant], players[c.variant][c.power]
			tb.As(p, c.line)
			m := daemontest.One(t, tb.Outbox(), p.Addr, "Re:")
			daemontest.Contains(t, m.Text, append([]string{"I could not understand these lines", c.line}, c.want...)...)
			daemontest.Lacks(t, m.Text, "is not an order word", "is not a province I know", "Orders received")
		})
	}
}
