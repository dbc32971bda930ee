package diplomacy

import (
	"fmt"
	"strings"

	"pbemd/orders"
)

// parseCaseOrder reads one canonical order line (the form orders.Format
// prints). It is a test-only reader used until the orders parser lands.
func parseCaseOrder(m *Map, s string) (orders.Order, error) {
	f := strings.Fields(s)
	var o orders.Order
	bad := func() (orders.Order, error) { return orders.Order{}, fmt.Errorf("cannot read order %q", s) }
	unit := func(i int) (orders.UnitType, orders.Location, bool) {
		if i+1 >= len(f) {
			return 0, orders.Location{}, false
		}
		t := map[string]orders.UnitType{"A": orders.Army, "F": orders.Fleet}[f[i]]
		l, err := readLoc(m, f[i+1])
		return t, l, t != orders.NoUnit && err == nil
	}
	loc := func(i int) (orders.Location, bool) {
		if i >= len(f) {
			return orders.Location{}, false
		}
		l, err := readLoc(m, f[i])
		return l, err == nil
	}
	if len(f) == 1 && f[0] == "Waive" {
		return orders.Order{Kind: orders.Waive}, nil
	}
	if len(f) == 3 && f[0] == "Build" {
		t, l, ok := unit(1)
		if !ok {
			return bad()
		}
		return orders.Order{Kind: orders.Build, Unit: t, Loc: l}, nil
	}
	t, l, ok := unit(0)
	if !ok || len(f) < 3 {
		return bad()
	}
	o.Unit, o.Loc = t, l
	switch f[2] {
	case "H":
		o.Kind = orders.Hold
	case "D":
		o.Kind = orders.Disband
	case "R":
		o.Kind = orders.Retreat
		if o.Target, ok = loc(3); !ok || len(f) != 4 {
			return bad()
		}
	case "-":
		o.Kind = orders.Move
		rest := f[3:]
		if len(rest) >= 3 && rest[len(rest)-2] == "via" && rest[len(rest)-1] == "convoy" {
			o.ViaConvoy = true
			rest = rest[:len(rest)-2]
		}
		for len(rest) >= 3 && rest[1] == "-" {
			p, ok := loc(len(f) - len(rest))
			if !ok {
				return bad()
			}
			o.Path = append(o.Path, p.Province)
			rest = rest[2:]
		}
		if len(rest) != 1 {
			return bad()
		}
		if o.Target, ok = loc(len(f) - len(rest) - map[bool]int{true: 2, false: 0}[o.ViaConvoy]); !ok {
			return bad()
		}
	case "S", "C":
		at, al, ok := unit(3)
		if !ok {
			return bad()
		}
		o.AuxUnit, o.Aux = at, al
		switch {
		case len(f) == 5 && f[2] == "S":
			o.Kind = orders.SupportHold
		case len(f) == 7 && f[5] == "-":
			o.Kind = orders.SupportMove
			if f[2] == "C" {
				o.Kind = orders.Convoy
			}
			if o.Target, ok = loc(6); !ok {
				return bad()
			}
		default:
			return bad()
		}
	default:
		return bad()
	}
	return o, nil
}
