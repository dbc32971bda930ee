package daemon

import (
	"crypto/sha256"
	"encoding/binary"
	"time"

	"pbemd/adjudicator"
	"pbemd/store"
)

// The second step of a deadline's way (due.go): a due game's phase
// resolved by its engine, outside the store, with its record made.

// phaseJob is one game's phase on its way through processBatch: read in
// the transaction, resolved outside it (in parallel, the engines are
// pure), written back in the transaction.
type phaseJob struct {
	g      *store.Game
	e      adjudicator.Engine
	state  []byte
	open   store.OpenPhase // the phase as it stands when processed (for ROLLBACK)
	orders *standing       // the folded orders of the phase (standing.go)

	ords map[string][]string
	// botted are the powers whose orders the autopilot gave (autopilot.go).
	botted []string
	seed   int64
	out    adjudicator.Outcome
	st     adjudicator.Status
	err    error
	dur    time.Duration
	// position is the position after the phase for its results
	// (positionText), made here rather than in the transaction.
	position string
	// rec is the phase's record, made and encoded (enc) where it is
	// resolved, processed at now (the batch's time) and late or not.
	rec  store.PhaseRecord
	enc  store.EncodedPhase
	now  time.Time
	late bool
	// resolved is closed once out, st, err, dur and the record (rec, enc)
	// are set (processBatch).
	resolved chan struct{}
}

// resolve runs the engine: no store; the clock only to time it for the
// metrics (time.Now's readings subtract on the monotonic clock).
func (j *phaseJob) resolve(now func() time.Time) {
	t0 := now()
	defer func() { j.dur = now().Sub(t0) }()
	merge := mergeFor(j.e, j.state)
	j.orders.fold(merge) // only what no mail folded yet (GM SET ORDERS, an old store)
	j.ords = j.orders.orders(merge)
	if j.botted, j.err = j.autopilot(); j.err != nil { // autopilot.go
		return
	}
	j.out, j.err = j.e.Resolve(j.state, j.ords, j.seed)
	if j.err == nil {
		j.st, j.err = j.e.Status(j.out.Next)
	}
	if j.err != nil {
		return
	}
	j.position = positionText(j.e, j.st)
	g := j.g
	j.rec = store.PhaseRecord{
		Phase: g.Phase, PhaseID: g.PhaseID, Title: g.PhaseTitle, Seed: j.seed, Deadline: g.Deadline,
		Processed: j.now.UTC(), Late: j.late, StateBefore: j.state, StateAfter: j.out.Next, Orders: j.ords,
		Public: j.out.Report.Public, Position: j.position, Private: j.out.Report.Private, Data: j.out.Report.Data, Open: &j.open,
		Autopilot: j.botted,
	}
	j.enc, j.err = store.EncodePhase(j.rec)
}

// seedOf is the seed of g's open phase: the one it was opened with or, for
// a phase opened by an older release, the one derived the same way.
func seedOf(g *store.Game) int64 {
	if g.PhaseSeed != 0 {
		return g.PhaseSeed
	}
	return phaseSeed(g.Seed, g.Phase)
}

// phaseSeed derives the seed of one phase from the game's master seed.
func phaseSeed(master int64, phase int) int64 {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(master))
	binary.BigEndian.PutUint64(b[8:], uint64(phase))
	sum := sha256.Sum256(b[:])
	return int64(binary.BigEndian.Uint64(sum[:8]) >> 1)
}
