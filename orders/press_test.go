package orders

import (
	"fmt"
	"testing"
)

// TestPressRecipientsAndClaimedSender: PRESS TO reads powers, GM and
// addresses as recipients and FROM (or AS) <power> as the sender grey
// press claims; the daemon decides who may write to whom.
func TestPressRecipientsAndClaimedSender(t *testing.T) {
	pow, err := NewNames("power", []Name{{ID: "rome", Full: "Rome"}, {ID: "greece", Full: "Greece"}, {ID: "persia", Full: "Persia"}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ line, want string }{
		{"PRESS TO GM", "PRESS powers=[] gm=true to=[] as="},
		{"press to the GM:", "PRESS powers=[] gm=true to=[] as="},
		{"PRESS TO Rome, GM", "PRESS powers=[rome] gm=true to=[] as="},
		{"PRESS TO Greece FROM Persia", "PRESS powers=[greece] gm=false to=[] as=persia"},
		{"PRESS TO Greece, Rome as Persia", "PRESS powers=[greece rome] gm=false to=[] as=persia"},
		{"PRESS TO Greece FROM GM", "PRESS powers=[greece] gm=false to=[] as=GM"},
		{"PRESS TO <Watcher@Example.org>", "PRESS powers=[] gm=false to=[watcher@example.org] as="},
		{"PRESS TO ALL FROM Rome", "BROADCAST powers=[] gm=false to=[] as=rome"},
		{"PRESS TO Greece FROM", "error"},
		{"PRESS TO Greece FROM Sparta", "error"},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			r := Parse(c.line+"\nhello\nENDPRESS", Options{Powers: pow})
			l := r.Lines[0]
			got := "error"
			if l.Kind == CommandLine {
				cmd := l.Command
				got = fmt.Sprintf("%s powers=%v gm=%v to=%v as=%s", cmd.Verb, cmd.Powers, cmd.ToGM, cmd.ToAddresses, cmd.As)
			}
			if got != c.want {
				t.Errorf("%q: %s, want %s (%+v)", c.line, got, c.want, l.Diags)
			}
			if r.Lines[1].Kind != BodyLine {
				t.Errorf("%q: the message line is %v, not the press's body", c.line, r.Lines[1].Kind)
			}
		})
	}
}

// TestWhatIfIsAVerb: WHATIF, WHAT IF and PREVIEW alone are the player's
// preview (PREVIEW alone with Arg "PREVIEW", for the daemon to answer a
// GM); PREVIEW ON stays the GM's; prose beginning with "what" stays prose.
func TestWhatIfIsAVerb(t *testing.T) {
	cases := []struct{ line, want string }{
		{"WHATIF", "WHATIF "},
		{"whatif?", "WHATIF "},
		{"What if?", "WHATIF "},
		{"WHAT IF.", "WHATIF "},
		{"PREVIEW", "WHATIF PREVIEW"},
		{"PREVIEW ON", "PREVIEW ON"},
		{"WHATIF now", "error"},
		{"What if we ally?", "error"},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			l := Parse(c.line, Options{}).Lines[0]
			got := "error"
			if l.Kind == CommandLine {
				got = fmt.Sprintf("%s %s", l.Command.Verb, l.Command.Arg)
			}
			if got != c.want {
				t.Errorf("%q: %s, want %s", c.line, got, c.want)
			}
		})
	}
}
