package supremacy

import (
	"strings"
	"testing"

	"pbemd/orders"
)

func defaultScenario(t testing.TB) *Scenario {
	t.Helper()
	sc, ok := ScenarioByName("default")
	if !ok {
		t.Fatal("no default scenario")
	}
	return sc
}

// readLine parses one order line the way Check does, returning the
// canonical line or the first error.
func readLine(sc *Scenario, line string) (string, string) {
	res := orders.Parse(line, sc.parseOpts())
	for _, l := range res.Lines {
		for _, d := range l.Diags {
			if d.Severity == orders.Error {
				return "", d.Message
			}
		}
		if o, ok := l.Value.(*Order); ok && l.Kind == orders.OrderLine {
			return sc.format(o), ""
		}
	}
	return "", "no order"
}

// TestGrammar reads the orders players write into their canonical lines.
func TestGrammar(t *testing.T) {
	sc := defaultScenario(t)
	cases := []struct{ in, want string }{
		// anytime
		{"LOAN 5000", "LOAN 5000"},
		{"borrow $5,000 BL", "LOAN 5000"},
		{"loan 5k", "LOAN 5000"},
		{"Repay 1000", "REPAY 1000"},
		{"buy bonds 2000", "BUY BONDS 2000"},
		{"buy 2000 bonds", "BUY BONDS 2000"},
		{"sell bonds $1000", "SELL BONDS 1000"},
		{"seize Texas Oil", "SEIZE texoil"},
		{"seize texoil", "SEIZE texoil"},
		{"SEIZE ALL", "SEIZE ALL"},
		{"seize all in Siberia", "SEIZE ALL IN sib"},
		{"offer to China: $1000 for 2 oil", "OFFER 1 TO china: $1000 FOR 2 OIL"},
		{"OFFER 2 TO russia: 3 grain, Texas Oil FOR $2000", "OFFER 2 TO russia: 3 GRAIN, COMPANY texoil FOR $2000"},
		{"offer to eu: 500 cash", "OFFER 1 TO eu: $500"},
		{"offer to japan: 3 armies in usw, 1 icbm for $2000", "OFFER 1 TO japan: 3 ARMIES IN usw, 1 ICBM FOR $2000"},
		{"accept usa", "ACCEPT usa 1"},
		{"accept offer 2 from Russia", "ACCEPT russia 2"},
		{"accept china 1 place usw, npo", "ACCEPT china 1 PLACE usw, npo"},
		{"if attacked by russia in ukraine: attack ukraine from belarus", "IF ATTACKED BY russia IN ukr: ATTACK ukr FROM blr"},
		{"counterattack ukr from blr", "IF ATTACKED: ATTACK ukr FROM blr"},
		{"counterattack if attacked in Moscow: launch 2 at Berlin", "IF ATTACKED IN mos: LAUNCH 2 AT ger"},
		{"if attacked in ukr: reinforce move mos - ukr", "IF ATTACKED IN ukr: MOVE mos - ukr"},
		{"no reactions", "NO REACTIONS"},
		{"contest North Sea against usa rounds 2", "CONTEST nth AGAINST usa ROUNDS 2"},
		{"contest all", "CONTEST ALL"},
		{"no contest", "NO CONTEST"},
		{"permit usa through suez", "PERMIT usa THROUGH suez"},
		{"allow everyone", "PERMIT ALL THROUGH ALL"},
		{"deny china through Strait of Malacca", "DENY china THROUGH malacca"},
		{"abm defend all", "ABM DEFEND ALL"},
		{"ABM defend usa, eu", "ABM DEFEND eu, usa"},
		{"abm 2 at Moscow, 1 at tokyo", "ABM 2 AT mos, 1 AT tokyo"},
		// set-up and salaries
		{"misdeal", "MISDEAL"},
		{"place 6 armies in Moscow, 3 navies in Baltic Sea", "PLACE 6 ARMIES IN mos, 3 NAVIES IN blt"},
		{"Place three armies in mos and 1 navy in blt", "PLACE 3 ARMIES IN mos, 1 NAVY IN blt"},
		{"close texoil", "CLOSE texoil"},
		{"open all", "OPEN ALL"},
		{"disband 2 armies in Moscow", "DISBAND 2 ARMIES IN mos"},
		{"disband all navies in blt", "DISBAND ALL NAVIES IN blt"},
		{"blockade Paulista Grain", "BLOCKADE paulista"},
		// trade
		{"buy 5 oil", "BUY 5 OIL"},
		{"Sell 2 Minerals.", "SELL 2 MINERALS"},
		{"if oil price <= 600: buy 3 oil", "IF OIL PRICE AT MOST 600: BUY 3 OIL"},
		{"if oil price below 600 then buy 3 oil", "IF OIL PRICE BELOW 600: BUY 3 OIL"},
		{"if grain price > 500: sell 2 grain", "IF GRAIN PRICE ABOVE 500: SELL 2 GRAIN"},
		{"if cash at least 3000: buy bonds 1000", "IF CASH AT LEAST 3000: BUY BONDS 1000"},
		{"if I control ukr: buy 1 grain", "IF CONTROL ukr: BUY 1 GRAIN"},
		{"if china does not control kor: sell 1 oil", "IF china NOT CONTROLS kor: SELL 1 OIL"},
		// attack
		{"attack Ukraine from Moscow, Volgograd and the Caucasus", "ATTACK ukr FROM mos, vol, cau"},
		{"attack ukr from mos blitz 3", "ATTACK ukr FROM mos BLITZ 3"},
		{"attack ukr from mos 3 times", "ATTACK ukr FROM mos BLITZ 3"},
		{"attack ukr from mos for 2 rounds and pol from blr", "ATTACK ukr FROM mos BLITZ 2 AND pol FROM blr"},
		{"attack Baltic States from St Pete. and Poland from Belarus and Ukraine from Volgograd", "ATTACK bal FROM stp AND pol FROM blr AND ukr FROM vol"},
		{"attack kor from jap via soj blitz 2", "ATTACK kor FROM jap VIA soj BLITZ 2"},
		{"attack kor from jap by sea soj to ecs", "ATTACK kor FROM jap VIA soj TO ecs"},
		{"attack china in soj from npo", "ATTACK china IN soj FROM npo"},
		{"attack ukr from mos stay", "ATTACK ukr FROM mos STAY"},
		{"attack ukr from mos, vol leave 1 in mos, 2 armies in Volgograd", "ATTACK ukr FROM mos, vol LEAVE 1 IN mos, 2 IN vol"},
		{"losses afloat, Moscow, soj", "LOSSES AFLOAT, mos, soj"},
		{"losses default", "LOSSES DEFAULT"},
		{"reinforce: move mos - ukr", "REINFORCE MOVE mos - ukr"},
		{"launch 2 at Moscow, 1 at Tokyo", "LAUNCH 2 AT mos, 1 AT tokyo"},
		{"launch icbm at Paris", "LAUNCH 1 AT fra"},
		{"fire 3 icbms at sao paulo", "LAUNCH 3 AT saopaulo"},
		{"pass", "PASS"},
		{"confirm", "CONFIRM"},
		{"call off", "CALL OFF"},
		// move
		{"move 3 mos - ukr, 2 mos - blr", "MOVE 3 mos - ukr, 2 mos - blr"},
		{"move 3 armies from Moscow to Ukraine", "MOVE 3 mos - ukr"},
		{"move mos -> ukr, vol -> ukr", "MOVE mos - ukr, vol - ukr"},
		{"rail 4 sib - mos", "RAIL 4 sib - mos"},
		{"air lift 3 mos - ukr", "AIRLIFT 3 mos - ukr"},
		{"transport 3 jap - kor via soj", "TRANSPORT 3 jap - kor VIA soj"},
		{"transport 3 jap - sha via soj to ecs", "TRANSPORT 3 jap - sha VIA soj TO ecs"},
		// build
		{"build 3 armies in Moscow", "BUILD 3 ARMIES IN mos"},
		{"build 2 armies in mos, 1 navy in blt", "BUILD 2 ARMIES IN mos, 1 NAVY IN blt"},
		{"build 2 icbms", "BUILD 2 ICBM"},
		{"build 1 abm", "BUILD 1 ABM"},
		{"research oil max 4", "RESEARCH OIL MAX 4"},
		{"research icbm up to 6 cards", "RESEARCH ICBM MAX 6"},
		{"research grain", "RESEARCH GRAIN"},
		{"sell 3 armies in mos to Kazakhstan", "SELL 3 ARMIES IN mos TO kaz"},
		{"sell 1 icbm to Mexico", "SELL 1 ICBM TO mex"},
		{"sell 3 navies in blt to Poland", "SELL 3 NAVIES IN blt TO pol"},
		{"buy back 2 navies from pol", "BUY BACK 2 NAVIES FROM pol"},
		{"buy back 1 icbm from mex", "BUY BACK 1 ICBM FROM mex"},
		// leniencies: typos and prefixes, with a warning
		{"attack Ukrane from Moscow", "ATTACK ukr FROM mos"},
		{"move 2 Siberi - Mosc", "MOVE 2 sib - mos"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := readLine(sc, c.in)
			if err != "" {
				t.Fatalf("error %q", err)
			}
			if got != c.want {
				t.Fatalf("read %q, want %q", got, c.want)
			}
			// the canonical line reads back strictly to itself
			o, perr := sc.parseLine(got)
			if perr != nil {
				t.Fatalf("strict read-back: %v", perr)
			}
			if again := sc.format(o); again != got {
				t.Fatalf("read back as %q", again)
			}
		})
	}
}

// TestGrammarErrors: lines that are not orders say why.
func TestGrammarErrors(t *testing.T) {
	sc := defaultScenario(t)
	cases := []struct{ in, want string }{
		{"attack ukr", "say FROM where"},
		{"attack atlantis from mos", `"atlantis" is not a area I know`},
		{"buy oil", "say how many"},
		{"buy 3 gold", "buy oil, minerals or grain"},
		{"place 3 navies in Moscow", "is a land area: navies go to sea areas"},
		{"build 3 armies in North Sea", "is a sea area: armies go to land areas"},
		{"move mos ukr", "write the move as FROM - TO"},
		{"if oil price 600: buy 3 oil", "compare with BELOW"},
		{"if oil price below 600 buy 3 oil", "end the condition"},
		{"if attacked in ukr: buy 3 oil", "the answer to an attack"},
		{"reinforce buy 3 oil", "a reinforcement is one move"},
		{"attack ukr from mos blitz 12", "a blitz lasts"},
		{"launch 2 at", "is missing"},
		{"frobnicate", "does not start an order"},
		{"research gold", "research oil, minerals, grain, ICBM or ABM"},
		{"offer to china", "say what is traded"},
		{"no thanks please", "NO what?"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := readLine(sc, c.in)
			if err == "" {
				t.Fatalf("read %q, want an error", got)
			}
			if !strings.Contains(err, c.want) {
				t.Fatalf("error %q, want it to contain %q", err, c.want)
			}
		})
	}
}

// TestStrictCanonical: strict mode refuses typos that lenient mode reads.
func TestStrictCanonical(t *testing.T) {
	sc := defaultScenario(t)
	if _, err := sc.parseLine("ATTACK Ukrane FROM mos"); err == nil {
		t.Error("a typo read in strict mode")
	}
	if _, err := sc.parseLine("ATTACK ukr FROM mos"); err != nil {
		t.Error(err)
	}
}

// FuzzGrammar: no input panics, and whatever is read formats to a line
// that reads back strictly to the same line.
func FuzzGrammar(f *testing.F) {
	sc := defaultScenario(f)
	for _, s := range []string{
		"ATTACK ukr FROM mos, vol, cau", "attack kor from jap via soj blitz 2", "LAUNCH 2 AT mos, 1 AT tokyo",
		"IF ATTACKED BY russia IN ukr: ATTACK ukr FROM blr", "OFFER 2 TO russia: 3 GRAIN, COMPANY texoil FOR $2000",
		"if oil price <= 600: buy 3 oil", "move 3 mos - ukr, 2 mos - blr", "BUILD 2 ARMIES IN mos, 1 NAVY IN blt",
		"transport 3 jap - sha via soj to ecs", "sell 3 armies in mos to kaz", "loan $5,000", "accept china 1 place usw, npo",
		"contest nth against usa rounds 2", "permit all through suez", "abm defend usa, eu", "if china does not control kor: sell 1 oil",
		"attack ukr from mos, vol leave 1 in mos, 2 in vol", "losses afloat, mos, soj", "sell 3 navies in blt to pol", "buy back 1 navy from pol",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		res := orders.Parse(line, sc.parseOpts())
		for _, l := range res.Lines {
			o, ok := l.Value.(*Order)
			if !ok || l.Kind != orders.OrderLine {
				continue
			}
			canon := sc.format(o)
			back, err := sc.parseLine(canon)
			if err != nil {
				t.Fatalf("%q ⇒ %q does not read back: %v", line, canon, err)
			}
			if again := sc.format(back); again != canon {
				t.Fatalf("%q ⇒ %q ⇒ %q", line, canon, again)
			}
		}
	})
}
