package diplomacy

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
)

// ErrBadInput is wrapped by every AdjudicateJSON error caused by the input
// (bad JSON, unknown variant, impossible position). `pbemd adjudicate` maps
// it to exit status 2.
var ErrBadInput = errors.New("bad adjudicate input")

// offlineIn is the input of AdjudicateJSON: a position (omitted phase, units
// or supply_centers mean the variant's start) and free-text orders per power.
type offlineIn struct {
	jsonPosition
	Orders map[string][]string `json:"orders"`
}

type offlineResult struct {
	Power   string  `json:"power"`
	Order   string  `json:"order"`
	Outcome Outcome `json:"outcome"`
	Reason  string  `json:"reason,omitempty"`
}

type offlineOut struct {
	// Phase is the phase adjudicated; Standoffs its vacant provinces a
	// move bounced from (`pbemd map` draws both).
	Phase     *jsonPhase      `json:"phase,omitempty"`
	Results   []offlineResult `json:"results"`
	Standoffs []string        `json:"standoffs,omitempty"`
	Next      *jsonPosition   `json:"next"`
	Winner    string          `json:"winner"`
}

// AdjudicateJSON is the offline contract of `pbemd adjudicate`: it reads one
// JSON object from r, adjudicates the phase and writes one JSON object to w.
//
//	in:  {"variant": "standard" or any other variant of MapNames or RuleVariantNames,
//	      "phase": {"season": "spring"|"fall"|"winter", "year": 1901, "type": "movement"|"retreat"|"adjustment"},
//	      "units": [{"power": "England", "type": "army"|"fleet", "province": "lon", "coast": ""}],
//	      "dislodged": [{"power": …, "type": …, "province": …, "attacker_from": "…"}],
//	      "standoffs": ["bur"], "supply_centers": {"lon": "England"},
//	      "orders": {"England": ["F London - North Sea", "A lvp - yor"]}}
//	out: {"phase": {the phase adjudicated},
//	      "results": [{"power": "England", "order": "F Lon - Nth", "outcome": "succeeded"|"failed"|"invalid"|"illegal", "reason": "…"}],
//	      "standoffs": ["bur"], "next": {same shape as the input without "orders"}, "winner": ""}
//
// Orders are free text in any syntax the orders package reads; a line it
// cannot read is reported "invalid" with the parser's reason. Unknown JSON
// fields are refused. Errors caused by the input wrap ErrBadInput.
func AdjudicateJSON(r io.Reader, w io.Writer) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var in offlineIn
	if err := dec.Decode(&in); err != nil {
		return fmt.Errorf("%w: reading JSON: %v", ErrBadInput, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: more than one JSON value", ErrBadInput)
	}
	out, err := in.adjudicate()
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// adjudicate is AdjudicateJSON on its decoded input.
func (in *offlineIn) adjudicate() (*offlineOut, error) {
	if in.Variant == "" {
		return nil, fmt.Errorf("%w: \"variant\" is required (one of: %v)", ErrBadInput, append(MapNames(), RuleVariantNames()...))
	}
	pos, err := decodePosition(&in.jsonPosition)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadInput, err)
	}
	m := pos.Map
	e := &Engine{m: m}
	opts := e.parseOptions(pos)
	names := make([]string, 0, len(in.Orders))
	for p := range in.Orders {
		names = append(names, p)
	}
	sort.Strings(names)
	var ords []PowerOrder
	var out offlineOut
	var unread []offlineResult
	for _, p := range names {
		pw, ok := m.PowerID(p)
		if !ok {
			return nil, fmt.Errorf("%w: orders for unknown power %q", ErrBadInput, p)
		}
		for _, line := range in.Orders[p] {
			o, _, err := ParseOrder(line, opts)
			if err != nil {
				unread = append(unread, offlineResult{Power: m.PowerName(pw), Order: line, Outcome: Invalid, Reason: err.Error()})
				continue
			}
			if o.Power != "" && o.Power != pw {
				unread = append(unread, offlineResult{Power: m.PowerName(pw), Order: line, Outcome: Illegal, Reason: fmt.Sprintf("an order of %s in the orders of %s", m.PowerName(o.Power), m.PowerName(pw))})
				continue
			}
			o.Power = ""
			ords = append(ords, PowerOrder{Power: pw, Order: o})
		}
	}
	res, err := Adjudicate(pos, ords)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadInput, err)
	}
	out.Results = []offlineResult{}
	for _, r := range res.Orders {
		out.Results = append(out.Results, offlineResult{Power: m.PowerName(r.Power), Order: r.Text, Outcome: r.Outcome, Reason: r.Reason})
	}
	out.Results = append(out.Results, unread...)
	out.Phase, out.Standoffs = phaseJSON(pos.Phase), res.Standoffs
	out.Next = encodePosition(res.Next, m.PowerName)
	if res.Winner != "" {
		out.Winner = m.PowerName(res.Winner)
	}
	return &out, nil
}
