package adjudicator

// TurnPhase is one phase of the turn that is open, as an Aheader declares
// it.
type TurnPhase struct {
	// Key is the word a player writes to name the phase in a mail
	// ("attack" in PHASE attack).
	Key string
	// Title is the phase as players read it ("Turn 3 Attack").
	Title string
	// ID is the Status.ID the phase has when it opens ("T03-3"): orders
	// held for it are applied when a phase with this ID opens.
	ID string
	// Open is true for the phase open now.
	Open bool
	// Ahead is true when the phase comes later in the turn and may be
	// ordered now, before it opens.
	Ahead bool
}

// Held is the orders a mail gave for one later phase of the turn: the
// canonical lines that passed every check that can be made before the
// phase opens (Check gives the rest, against the position, when it does).
type Held struct {
	Phase TurnPhase
	Lines []string
}

// Aheader is implemented by engines whose turn is several phases that
// each wait for every player, where a player may send the orders of
// later phases of the turn in the same mail as the open one's (Supremacy:
// a section line such as PHASE attack before them). Turn declares the
// phases of the turn open in state, in order of play, and which of them
// may be ordered ahead now (none: nil). Check puts the orders of each
// later section of a mail in Check.Held, checked as far as they can be
// before their phase opens; the daemon keeps them and, when the phase
// opens, hands them to Check again as if the player had mailed them then.
type Aheader interface {
	Turn(state []byte) ([]TurnPhase, error)
}
