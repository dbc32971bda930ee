package daemon

import (
	"errors"
	"fmt"
	"strings"

	"pbemd/adjudicator"
	"pbemd/orders"
	"pbemd/store"
)

// maxReplyPictures caps the pictures one reply carries (a mail of many MAP
// lines): drawing is the costliest thing a mail can ask for.
const maxReplyPictures = 4

// cmdMap answers MAP (the board now) and MAP <phase> (the position after a
// phase of HISTORY, with its orders drawn): a picture of what the reader
// may see, and the board in text for engines whose places a player must
// learn (adjudicator.TextMapper: Supremacy's areas, names, borders and
// controllers).
func cmdMap(mc *mailCtx, cmd *orders.Command) error {
	g := mc.game
	want := strings.ToUpper(strings.TrimSpace(cmd.Arg))
	if want == "" {
		return mc.mapNow()
	}
	rec, err := mc.publishedPhase(want)
	if err != nil {
		return err
	}
	if rec == nil {
		mc.say("MAP %s: %s has no such phase in its history; send HISTORY for the list of phases, or MAP for the board now.", shownText(want), g.Name)
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Map of %s after %s (%s).", g.Name, rec.Title, rec.PhaseID)
	if err := mc.writeTextMap(&b, rec.StateAfter); err != nil {
		return err
	}
	return mc.sayWithPicture(b.String(), mc.tx.picture(g, rec.PhaseID, rec.Phase, rec.StateAfter, rec.Data, mc.readerPower()))
}

// mapNow answers MAP without a phase: the position the players order from.
func (mc *mailCtx) mapNow() error {
	g := mc.game
	phase, title, state, err := mc.boardNow()
	if err != nil {
		return err
	}
	if state == nil {
		mc.say("MAP: %s has not started yet, so there is no board to show.", g.Name)
		return nil
	}
	var b strings.Builder
	if g.Status == store.Finished {
		fmt.Fprintf(&b, "Map of %s: the final position.", g.Name)
	} else {
		fmt.Fprintf(&b, "Map of %s: the position for %s.", g.Name, title)
	}
	if st, err := mc.engine.Status(state); err == nil && st.Summary != "" {
		b.WriteString("\n\n" + strings.TrimRight(st.Summary, "\n"))
	}
	if err := mc.writeTextMap(&b, state); err != nil {
		return err
	}
	return mc.sayWithPicture(b.String(), mc.tx.picture(g, phase, -1, state, nil, mc.readerPower()))
}

// boardNow is the position a reader may see now: the current one, or,
// while results wait for the GM's PUBLISH, the one before them (for all
// but the GM). state is nil before the game starts.
func (mc *mailCtx) boardNow() (phase, title string, state []byte, err error) {
	g := mc.game
	if g.Status == store.Forming || mc.engine == nil {
		return "", "", nil, nil
	}
	if g.Pending != nil && !mc.gm {
		rec, err := mc.tx.Phase(g.Name, g.Pending.Phase)
		if err != nil {
			return "", "", nil, err
		}
		return rec.PhaseID, rec.Title, rec.StateBefore, nil
	}
	state = mc.state
	if state == nil {
		if state, err = mc.tx.State(g.Name); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return "", "", nil, nil
			}
			return "", "", nil, err
		}
	}
	return g.PhaseID, g.PhaseTitle, state, nil
}

// statusPicture adds the picture of the board now to a STATUS reply.
func (mc *mailCtx) statusPicture() error {
	phase, _, state, err := mc.boardNow()
	if err != nil || state == nil {
		return err
	}
	mc.attach(mc.tx.picture(mc.game, phase, -1, state, nil, mc.readerPower()))
	return nil
}

// publishedPhase finds a processed phase the players have seen, by id or
// title (as HISTORY does); nil when there is none.
func (mc *mailCtx) publishedPhase(want string) (*store.PhaseRecord, error) {
	g := mc.game
	limit := g.Phase
	if g.Pending != nil && !mc.gm {
		limit = g.Pending.Phase // unpublished results stay with the GM
	}
	for i := limit - 1; i >= 0; i-- {
		rec, err := mc.tx.Phase(g.Name, i)
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(rec.PhaseID, want) || strings.EqualFold(rec.Title, want) {
			return rec, nil
		}
	}
	return nil, nil
}

// readerPower is the power whose picture the reader gets: their own for a
// diplomat, "" (the public view) for observers and the GM.
func (mc *mailCtx) readerPower() string {
	if mc.player != nil && !mc.gm {
		return mc.player.Power
	}
	return ""
}

// writeTextMap adds the engine's text map of state, when it has one.
func (mc *mailCtx) writeTextMap(b *strings.Builder, state []byte) error {
	tm, ok := mc.engine.(adjudicator.TextMapper)
	if !ok {
		return nil
	}
	text, err := tm.TextMap(state, textViewer(mc.engine, mc.readerPower()))
	if err != nil {
		return err
	}
	b.WriteString("\n\n" + strings.TrimRight(text, "\n"))
	return nil
}

// sayWithPicture adds a section to the reply and a picture to its mail.
func (mc *mailCtx) sayWithPicture(text string, p *mailPicture) error {
	switch {
	case p == nil:
	case mc.attach(p):
		text += "\n(The picture is attached: " + p.filename + ".)"
	default:
		text += fmt.Sprintf("\n(No picture of it: one reply carries at most %d.)", maxReplyPictures)
	}
	mc.say("%s", text)
	return nil
}

// attach adds p to the reply's pictures (once), unless the reply has its
// fill of them; it tells whether p is in.
func (mc *mailCtx) attach(p *mailPicture) bool {
	if p == nil {
		return false
	}
	for _, q := range mc.pictures {
		if q == p {
			return true
		}
	}
	if len(mc.pictures) >= maxReplyPictures {
		return false
	}
	mc.pictures = append(mc.pictures, p)
	return true
}
