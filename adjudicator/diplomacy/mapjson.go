package diplomacy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"pbemd/picture"
)

// maxMapInput bounds what DrawJSON reads.
const maxMapInput = 8 << 20

// mapIn is either shape DrawJSON reads: the input of AdjudicateJSON (a
// position, perhaps with orders) or its output (results and the next
// position).
type mapIn struct {
	jsonPosition
	Orders    map[string][]string `json:"orders"`
	Results   []offlineResult     `json:"results"`
	Standoffs []string            `json:"standoffs"`
	Next      *jsonPosition       `json:"next"`
	Winner    string              `json:"winner"`
}

// DrawJSON is `pbemd map`: it reads the JSON of `pbemd adjudicate` — a
// position (its input: drawn as it stands, or, when it carries orders,
// adjudicated first and drawn with their results) or adjudicate's output
// (the next position drawn with the results) — and returns the picture.
// Errors caused by the input wrap ErrBadInput.
func DrawJSON(r io.Reader) (*picture.Picture, error) {
	raw, err := io.ReadAll(io.LimitReader(r, maxMapInput+1))
	if err != nil {
		return nil, fmt.Errorf("%w: reading: %v", ErrBadInput, err)
	}
	if len(raw) > maxMapInput {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrBadInput, maxMapInput)
	}
	in, err := decodeMapIn(raw)
	if err != nil {
		return nil, err
	}
	if in.Next == nil && len(in.Orders) > 0 {
		var out bytes.Buffer
		if err := AdjudicateJSON(bytes.NewReader(raw), &out); err != nil {
			return nil, err
		}
		if in, err = decodeMapIn(out.Bytes()); err != nil {
			return nil, err
		}
	}
	if in.Next == nil {
		if in.Variant == "" {
			return nil, fmt.Errorf("%w: \"variant\" is required (one of: %v)", ErrBadInput, append(MapNames(), RuleVariantNames()...))
		}
		in.jsonPosition.Standoffs = in.Standoffs // the outer field took them
		pos, err := decodePosition(&in.jsonPosition)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadInput, err)
		}
		return pos.Map.drawPosition(pos, nil)
	}
	pos, err := decodePosition(in.Next)
	if err != nil {
		return nil, fmt.Errorf("%w: next: %v", ErrBadInput, err)
	}
	m := pos.Map
	dr := &drawnResults{phase: "Results", standoffs: in.Standoffs}
	pt := Movement
	if in.Phase != nil {
		ph, err := in.Phase.phase()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadInput, err)
		}
		dr.phase, pt = m.PhaseTitle(ph), ph.Type
	}
	var rows []resultRow
	for _, r := range in.Results {
		rows = append(rows, resultRow{r.Power, r.Order, r.Outcome})
	}
	dr.orders = m.readOrders(pt, rows)
	return m.drawPosition(pos, dr)
}

func decodeMapIn(raw []byte) (*mapIn, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var in mapIn
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("%w: reading JSON: %v", ErrBadInput, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: more than one JSON value", ErrBadInput)
	}
	if in.Next != nil && in.Orders != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadInput, errors.New(`"orders" and "next" together: give adjudicate's input or its output`))
	}
	return &in, nil
}
