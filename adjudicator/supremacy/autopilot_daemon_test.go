package supremacy_test

import (
	"strings"
	"testing"
	"time"

	"pbemd/daemon/daemontest"
)

// pastDeadline moves the table's clock past the game's deadline.
func pastDeadline(tb *daemontest.Table, game string) {
	tb.Wait(tb.Game(game).Deadline.Sub(tb.Now()) + time.Minute)
}

// chinaSteadySetUp is the report's line of the autopilot's set-up for
// China: every force an army at home, the frontier areas first.
const chinaSteadySetUp = "China places 2 armies in Beijing, 2 armies in Shanghai, 3 armies in Manchuria, 2 armies in Western China."

// Issue 34 item 1 for Supremacy 2020: in a game created with
// autopilot=on, a power that sends no orders by the deadline is ordered by
// the autopilot; every player's results name it and show what it did; the
// power's player orders again by mailing orders; RULES says what the
// autopilot does.
func TestAutopilotByMail(t *testing.T) {
	tb := daemontest.New(t)
	tb.Create("ap1", "supremacy-3", "autopilot=on turns=1")
	ps := tb.SignUp("ap1", []string{"usa", "russia", "china"})
	tb.As(ps["usa"], "PLACE 9 ARMIES IN tex")
	tb.As(ps["russia"], "PLACE 9 ARMIES IN sib")
	tb.Outbox()
	pastDeadline(tb, "ap1")
	ms := tb.Outbox()
	for _, p := range []string{"usa", "russia", "china"} {
		res := daemontest.One(t, ms, ps[p].Addr, "Set-up — results").Text
		daemontest.Contains(t, res, "Autopilot: China sent no orders by the deadline; the autopilot gave its orders", chinaSteadySetUp)
		daemontest.Lacks(t, res, "(by default)")
	}
	if g := tb.Game("ap1"); g.PhaseID != "T01-1" {
		t.Fatalf("after set-up: %s", g.PhaseID)
	}

	tb.As(ps["usa"], "RULES")
	rules := strings.Join(strings.Fields(daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "Re:").Text), " ")
	daemontest.Contains(t, rules, "Autopilot: a power that sends no orders by a deadline is ordered by the autopilot: it places its forces as armies at home, "+
		"opens the companies whose output has room on its Strategic Reserve, sells what it holds beyond two of a resource, moves armies to its outnumbered home areas "+
		"and builds three armies there when it can spare the cost; it never attacks (a standing counterattack of its player's still stands), "+
		"calls off a declared launch, answers no offer and takes no loan.")

	// Salaries: China's player orders again; Russia's is away.
	tb.As(ps["china"], "OPEN ALL")
	tb.As(ps["usa"], "OPEN ALL")
	tb.Outbox()
	pastDeadline(tb, "ap1")
	ms = tb.Outbox()
	for _, p := range []string{"usa", "russia", "china"} {
		res := daemontest.One(t, ms, ps[p].Addr, "Turn 1 Salaries — results").Text
		daemontest.Contains(t, res, "Autopilot: Russian Federation sent no orders by the deadline; the autopilot gave its orders", "Russian Federation opens ")
		daemontest.Lacks(t, res, "China sent no orders")
	}
}

// The GM's AUTOPILOT <power> ON in a game without the option: the
// power's player is told what the autopilot will do; at the deadline only
// that power is ordered by it, another power without orders takes the
// game's defaults; its player's next mail of orders takes back control.
func TestAutopilotByTheGMByMail(t *testing.T) {
	tb := daemontest.New(t)
	gm := tb.Create("ap2", "supremacy-3", "turns=1")
	ps := tb.SignUp("ap2", []string{"usa", "russia", "china"})
	tb.Send(daemontest.GM, gm, "AUTOPILOT China ON")
	ms := tb.Outbox()
	daemontest.Contains(t, daemontest.One(t, ms, daemontest.GM, "Re:").Text, "AUTOPILOT China ON: when China sends no orders by a deadline, the autopilot gives them")
	daemontest.Contains(t, strings.Join(strings.Fields(daemontest.One(t, ms, ps["china"].Addr, "The autopilot plays for you").Text), " "),
		"the autopilot orders for you: it places its forces as armies at home, opens the companies whose output has room")
	tb.As(ps["usa"], "RULES")
	daemontest.Contains(t, strings.Join(strings.Fields(daemontest.One(t, tb.Outbox(), ps["usa"].Addr, "Re:").Text), " "),
		"Autopilot: the GM has put the autopilot on for China: when it sends no orders by a deadline, the autopilot orders for it: it places its forces as armies at home")

	tb.As(ps["usa"], "PLACE 9 ARMIES IN tex")
	tb.Outbox()
	pastDeadline(tb, "ap2")
	ms = tb.Outbox()
	for _, p := range []string{"usa", "russia", "china"} {
		res := daemontest.One(t, ms, ps[p].Addr, "Set-up — results").Text
		daemontest.Contains(t, res, "Autopilot: China sent no orders by the deadline; the autopilot gave its orders", chinaSteadySetUp,
			"Russian Federation places 3 armies in Moscow (by default)")
		daemontest.Lacks(t, res, "Russian Federation sent no orders by the deadline; the autopilot")
	}
	if g := tb.Game("ap2"); !g.Autopilot["china"] {
		t.Fatalf("autopilot after a phase: %v", g.Autopilot)
	}

	tb.As(ps["china"], "OPEN ALL")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), ps["china"].Addr, "Re:").Text, "You have taken back control of China: the autopilot the GM put on for it is off.")
	if g := tb.Game("ap2"); g.Autopilot["china"] {
		t.Errorf("autopilot after China's orders: %v", g.Autopilot)
	}
}
