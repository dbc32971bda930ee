package supplychain_test

import (
	"testing"

	"pbemd/daemon/daemontest"
)

// Grey press (press in another power's name) is the engine's to declare:
// the Diplomacy seed allows forging ("Players are encouraged and allowed
// to forge private messages"), the Supply Chain seed says nothing of it, so
// a Supply Chain game has it off unless its GM turns it on.
func TestGreyPressIsOffUnlessTheGameDeclaresIt(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("sc1", "supplychain-3", "")
	pl := tb.SignUp("sc1", []string{"red", "blue", "green"})
	tb.As(pl["red"], "PRESS TO Blue FROM Green\nGreen will buy the crates.\nENDPRESS")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), pl["red"].Addr, "Re:").Text, "grey press, in another power's name, is turned off in sc1")

	tb.Create("sc2", "supplychain-3", "grey=on")
	pl = tb.SignUp("sc2", []string{"red", "blue", "green"})
	tb.As(pl["red"], "PRESS TO Blue FROM Green\nGreen will buy the crates.\nENDPRESS")
	ms := tb.Outbox()
	daemontest.One(t, ms, pl["blue"].Addr, "Grey press, said to be from Green (unverified)")
}
