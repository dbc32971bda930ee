package empire

import (
	"pbemd/adjudicator"
	"pbemd/picture"
)

var _ adjudicator.Painter = (*Engine)(nil)

// PowerColors implements adjudicator.Painter: each power's colour in the
// game's pictures.
func (e *Engine) PowerColors() map[string]picture.Color {
	out := map[string]picture.Color{}
	for _, p := range powerIDs[:e.players] {
		out[p] = powerColors[p]
	}
	return out
}
