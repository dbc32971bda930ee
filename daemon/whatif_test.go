package daemon_test

import (
	"testing"

	"pbemd/daemon/daemontest"
)

// TestBarePreviewIsThePlayersWhatIfOnly: PREVIEW alone (an orders verb,
// not a line the daemon reads itself) previews a player's orders; from
// the GM it is the GM's PREVIEW without its ON or OFF, and from an
// observer nothing it may use: both are told how to write it.
func TestBarePreviewIsThePlayersWhatIfOnly(t *testing.T) {
	tb, gm, pl := ancmedTable(t, "bare", "")
	tb.As(pl["rome"], "A Rom - Apu\nPreview")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["rome"].Addr, "Re:").Text, "Orders received for Rome", "WHATIF for Rome", "A Rom - Apu")
	tb.Send(daemontest.GM, gm, "PREVIEW")
	m := daemontest.One(t, tb.Outbox(), daemontest.GM, "Re:").Text
	daemontest.Contains(t, m, "line 1: PREVIEW", "write PREVIEW ON or PREVIEW OFF")
	daemontest.Lacks(t, m, "WHATIF")
	w := observe(t, tb, "bare", "watcher@example.test")
	tb.As(w, "PREVIEW")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), w.Addr, "Re:").Text, "write PREVIEW ON or PREVIEW OFF")
	tb.As(w, "WHAT IF")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), w.Addr, "Re:").Text, "WHATIF: only a player with a power can do that")
}
