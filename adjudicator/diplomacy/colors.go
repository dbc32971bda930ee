package diplomacy

import (
	"pbemd/adjudicator"
	"pbemd/picture"
)

var _ adjudicator.Painter = (*Engine)(nil)

// PowerColors implements adjudicator.Painter: the map's colour of each
// power, as its pictures fill its centres (nil when the map cannot be drawn).
func (e *Engine) PowerColors() map[string]picture.Color {
	b, err := e.m.board()
	if err != nil {
		return nil
	}
	out := make(map[string]picture.Color, len(e.m.Powers))
	for i, p := range e.m.Powers {
		out[p.ID] = b.colors[i]
	}
	return out
}
