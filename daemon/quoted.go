package daemon

import (
	"strings"

	"pbemd/orders"
)

// dropQuotedResults is the last resort against quoted text that no
// client's marks gave away (no ">", no attribution, no header block): a
// line the engine could not read that repeats, word for word, a line of
// the last results mail this player was sent is the player's copy of it,
// not a misorder, and is ignored. Only lines that would be misorders are
// looked at, so nothing that reads as an order changes, and the results
// are read back only when such a line exists.
func (mc *mailCtx) dropQuotedResults(lines []orders.Line) {
	errs := 0
	for i := range lines {
		if lines[i].Kind == orders.ErrorLine {
			errs++
		}
	}
	g := mc.game
	if errs == 0 || g.Phase == 0 {
		return
	}
	rec, err := mc.tx.Phase(g.Name, g.Phase-1)
	if err != nil {
		return // no record of the phase before: nothing to compare with
	}
	sent := map[string]bool{}
	opening := mc.d.resultsBrief(g, mc.player, mc.d.briefs(g, rec)[mc.player.Power]) // its power's lines first (results.go)
	for _, l := range strings.Split(opening+mc.d.resultsText(g, rec, rec.Private[mc.player.Power], mc.player), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			sent[l] = true
		}
	}
	for i := range lines {
		l := &lines[i]
		if l.Kind == orders.ErrorLine && sent[strings.TrimSpace(l.Text)] {
			l.Kind, l.Diags = orders.Ignored, nil
		}
	}
}
