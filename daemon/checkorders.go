package daemon

import (
	"fmt"
	"io"
	"strings"

	"pbemd/adjudicator"
	"pbemd/orders"
)

// CheckOrders reads order text and writes what the variant's engine makes
// of it at the start position, line by line (`pbemd check-orders`).
func CheckOrders(variant, power string, in io.Reader, out io.Writer) error {
	e, ok := adjudicator.Lookup(variant)
	if !ok {
		return fmt.Errorf("unknown variant %q (known: %s)", variant, strings.Join(adjudicator.Names(), ", "))
	}
	if power == "" {
		power = e.Info().Powers[0]
	}
	text, err := io.ReadAll(io.LimitReader(in, 1<<20))
	if err != nil {
		return err
	}
	state, err := e.New(nil, 0)
	if err != nil {
		return err
	}
	c, err := e.Check(state, power, string(text))
	if err != nil {
		return err
	}
	kinds := map[orders.LineKind]string{orders.Ignored: "ignored", orders.OrderLine: "order", orders.CommandLine: "command", orders.BodyLine: "text", orders.ErrorLine: "ERROR"}
	for _, l := range c.Lines {
		if l.Kind == orders.Ignored && strings.TrimSpace(l.Text) == "" {
			continue
		}
		fmt.Fprintf(out, "%3d %-8s %s\n", l.No, kinds[l.Kind], l.Text)
		for _, d := range l.Diags {
			sev := "warning"
			if d.Severity == orders.Error {
				sev = "error"
			}
			fmt.Fprintf(out, "             %s: %s", sev, d.Message)
			if d.Suggestion != "" {
				fmt.Fprintf(out, " (e.g. %s)", d.Suggestion)
			}
			fmt.Fprintln(out)
		}
	}
	fmt.Fprintf(out, "\norders stored for %s:\n", power)
	for _, l := range c.Canonical {
		fmt.Fprintf(out, "  %s\n", l)
	}
	for _, n := range c.Notes {
		fmt.Fprintf(out, "note: %s\n", n)
	}
	return nil
}
