package daemon

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"pbemd/store"
)

// The seed, on press and diplomats: "Players who have lost their Great
// Power may become diplomats for a different Great Power that is still
// alive (they will be given the lowest seniority however, and will still
// count as having "lost" the game at the end)."
func TestAPlayerWhoLostStillCountsAsHavingLost(t *testing.T) {
	h := newHarness(t)
	gm, pl := h.startAncient("lost", "prize=on")
	// Greece's last units and centres go: the position is the shipped
	// map's opening with Greece taken off the board, so its power is
	// eliminated when Spring is played.
	err := h.db.Update(func(tx *store.Tx) error {
		raw, err := tx.State("lost")
		if err != nil {
			return err
		}
		var st map[string]any
		if err := json.Unmarshal(raw, &st); err != nil {
			return err
		}
		var units []any
		for _, u := range st["units"].([]any) {
			if u.(map[string]any)["power"] != "greece" {
				units = append(units, u)
			}
		}
		st["units"] = units
		for sc, p := range st["supply_centers"].(map[string]any) {
			if p == "greece" {
				st["supply_centers"].(map[string]any)[sc] = "rome"
			}
		}
		raw, err = json.Marshal(st)
		if err != nil {
			return err
		}
		return tx.PutState("lost", raw)
	})
	if err != nil {
		t.Fatal(err)
	}
	h.as(pl["greece"], "RULES")
	mustContain(t, h.reply(h.outbox(), pl["greece"].addr).Text, "still counts as having\n  lost: the game-over mail says so, and they share no prize and no first pick.")
	h.until(h.game("lost").Deadline)
	if g := h.game("lost"); isAlive(g, "greece") {
		t.Fatalf("Greece is still alive: %v", g.Alive)
	}
	// Greece's player serves Rome, then becomes its senior and serves
	// longer as senior than Rome's first player did.
	greece := h.addJunior("lost", "rome", pl["rome"], pl["greece"].addr)
	h.as(pl["rome"], "RESIGN")
	h.outbox()
	h.send(harnessGM, gm, "PROMOTE "+greece.addr)
	h.outbox()
	h.clock.Add(30 * 24 * time.Hour)
	h.send(harnessGM, gm, "END SOLO rome")
	over := h.subject(h.outbox(), pl["carthage"].addr, "Game over").Text
	mustContain(t, over,
		"Counted as having lost, as the rules say of a player who lost a power and then served another: greece@example.test (a diplomat of Rome, who lost Greece earlier).",
		"The game's prize goes to rome@example.test, senior diplomat of Rome. Not counted, having lost a power earlier: greece@example.test.")

	// Nor does their seniority win them the first pick of the next game.
	h.send(harnessGM, "", "SIGNON GM - sesame\nCREATE next ancientmed first_pick=previous")
	h.outbox()
	h.send(pl["greece"].addr, "", "JOIN next prefer carthage")
	for _, p := range ancientPowers[1:] {
		h.send(p+"@example.test", "", "JOIN next prefer "+p)
	}
	h.send("newcomer@example.test", "", "JOIN next prefer carthage")
	started := h.subject(h.outbox(), "egypt@example.test", "has started").Text
	if strings.Contains(started, "greece@example.test chose") {
		t.Errorf("a player who counts as having lost picked first:\n%s", started)
	}
}
