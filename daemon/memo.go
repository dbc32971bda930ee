package daemon

import (
	"bytes"
	"maps"
	"slices"

	"pbemd/adjudicator"
	"pbemd/store"
)

// statusMemo is an engine's Status of one game's state, kept for the rest
// of the transaction: every order mail's acknowledgement and its
// early-end check ask for it, one poll batch brings many order mails for
// the same game, and the state does not change with orders (engines are
// pure: the same state has the same status).
type statusMemo struct {
	variant string
	state   []byte
	st      adjudicator.Status
}

// status is mc.engine.Status(mc.state), computed once per game and state
// in a transaction. Each caller gets its own copy of the slices and maps.
func (mc *mailCtx) status() (adjudicator.Status, error) {
	return mc.tx.status(mc.game, mc.engine, mc.state)
}

// status is e.Status(state) of game g, computed once per game and state
// in the transaction tx.
func (tx *txn) status(g *store.Game, e adjudicator.Engine, state []byte) (adjudicator.Status, error) {
	name, variant := g.Name, g.Variant
	if m, ok := tx.statuses[name]; ok && m.variant == variant && bytes.Equal(m.state, state) {
		return copyStatus(m.st), nil
	}
	st, err := e.Status(state)
	if err != nil {
		return st, err
	}
	if tx.statuses == nil {
		tx.statuses = map[string]statusMemo{}
	}
	tx.statuses[name] = statusMemo{variant: variant, state: bytes.Clone(state), st: copyStatus(st)}
	return st, nil
}

func copyStatus(st adjudicator.Status) adjudicator.Status {
	st.Waiting = slices.Clone(st.Waiting)
	st.Alive = slices.Clone(st.Alive)
	st.Scores = maps.Clone(st.Scores)
	if st.Result != nil {
		r := *st.Result
		r.Winners = slices.Clone(r.Winners)
		st.Result = &r
	}
	return st
}
