package orders

// This file is the vocabulary shared by the mail reader, the engines and the
// daemon. Extend it freely; change an existing name only together with every
// user.

// Severity of a diagnostic.
type Severity uint8

const (
	Warning Severity = iota + 1 // understood, but the player should look again
	Error                       // not understood, or not allowed: the line has no effect
)

// Diagnostic is one remark about one line, written for the player.
type Diagnostic struct {
	Severity   Severity
	Message    string // what is wrong, e.g. `"Burgandy" read as Burgundy`
	Suggestion string // a corrected example, when there is one
}

// LineKind classifies a line of a mail body.
type LineKind uint8

const (
	Ignored LineKind = iota // blank, greeting, quoted text, signature, comment
	OrderLine
	CommandLine
	BodyLine  // text inside a PRESS/BROADCAST/PSA/RULES/SET ORDERS block
	ErrorLine // not understood
)

// Line is one line of a mail body and what the parser made of it.
type Line struct {
	No      int    // 1-based line number in the body
	Text    string // the line as written (without the line ending)
	Kind    LineKind
	Value   any      // set for an OrderLine: the game's typed order, as its Grammar returned it
	Command *Command // set for a CommandLine
	Diags   []Diagnostic
}

// Noted reports a line whose diagnostics the player should read beside the
// orders: an order read with a warning, a line not understood, or a note
// on an ignored line ("ignored as a signature"). A command's diagnostics
// are answered with the command.
func (l *Line) Noted() bool {
	return len(l.Diags) > 0 && (l.Kind == OrderLine || l.Kind == ErrorLine || l.Kind == Ignored)
}

// Verb names a mail command shared by all games.
type Verb string

// Player and GM commands. Arguments live in Command fields as noted.
const (
	VerbJoin       Verb = "JOIN"      // Game; Powers = preference ranking; Power with Arg JUNIOR (as junior of) or SEAT (as <power>: an open seat)
	VerbSignon     Verb = "SIGNON"    // Power, Game, Password
	VerbResign     Verb = "RESIGN"    //
	VerbList       Verb = "LIST"      // Game optional
	VerbStatus     Verb = "STATUS"    //
	VerbHistory    Verb = "HISTORY"   // Arg = phase, optional
	VerbMap        Verb = "MAP"       // Arg = phase, optional
	VerbHelp       Verb = "HELP"      //
	VerbRules      Verb = "RULES"     // player: ask; GM: Body = new rules text
	VerbObserve    Verb = "OBSERVE"   // Game
	VerbUnobserve  Verb = "UNOBSERVE" // Game optional
	VerbPress      Verb = "PRESS"     // Powers, ToGM, ToAddresses = recipients; As = claimed sender (grey press); Body
	VerbBroadcast  Verb = "BROADCAST" // Body
	VerbPSA        Verb = "PSA"       // Body (anonymous)
	VerbWhatIf     Verb = "WHATIF"    // a player's preview of their own orders: WHATIF, WHAT IF, or PREVIEW alone (Arg "PREVIEW")
	VerbDraw       Verb = "DRAW"      // Arg = "YES" | "NO", or Powers = who shares the draw
	VerbConcede    Verb = "CONCEDE"   // Power = the power the game is conceded to
	VerbPace       Verb = "PACE"      // Arg = "FAST" | "SLOW"
	VerbReady      Verb = "READY"     //
	VerbLockJunior Verb = "LOCK"      // Arg = "TURN" | "ALWAYS" | "OFF"
	VerbVerify     Verb = "VERIFY"    // Arg = code
	VerbSetZone    Verb = "ZONE"      // Arg = IANA zone name (SET ZONE Europe/Paris)
	VerbPassword   Verb = "PASSWORD"  // Arg = password for mail sent from scratch
	VerbCreate     Verb = "CREATE"    // Game, Arg = variant, Options
	VerbStart      Verb = "START"     // GM
	VerbProcess    Verb = "PROCESS"   // GM
	VerbPause      Verb = "PAUSE"     // GM, Arg = reason
	VerbResume     Verb = "RESUME"    // GM
	VerbDeadline   Verb = "DEADLINE"  // GM, Arg = time
	VerbExtend     Verb = "EXTEND"    // GM, Arg = duration
	VerbRollback   Verb = "ROLLBACK"  // GM
	VerbSetOrders  Verb = "SETORDERS" // GM, Power; Body = order lines
	VerbPreview    Verb = "PREVIEW"   // GM, Arg = "ON" | "OFF"
	VerbPublish    Verb = "PUBLISH"   // GM
	VerbReplace    Verb = "REPLACE"   // GM, Power, Address
	VerbPromote    Verb = "PROMOTE"   // GM, Address (or Power + Arg)
	VerbEject      Verb = "EJECT"     // GM, Power, or Address (one diplomat)
	VerbAutopilot  Verb = "AUTOPILOT" // GM, Power, Arg = "ON" | "OFF"
	VerbRatings    Verb = "RATINGS"   // anyone
	VerbAccept     Verb = "ACCEPT"    // senior (or GM): Address optional in a reply to the request
	VerbRefuse     Verb = "REFUSE"    // senior (or GM): Address optional; Arg = a note for the candidate
	VerbRelease    Verb = "RELEASE"   // senior: Address of a junior
	VerbEnd        Verb = "END"       // GM, Arg = "DRAW" | "SOLO"; Power for SOLO
	VerbSilent     Verb = "SILENT"    // GM: the rest of this mail is not announced
	VerbSet        Verb = "SET"       // GM game option: Arg = key, Options[key] = value
)

// Command is one parsed mail command.
type Command struct {
	Verb     Verb
	Game     string            // game name, when the command names one
	Power    string            // power id, when the command names one
	Powers   []string          // PRESS TO recipients, JOIN preference order
	Password string            // SIGNON
	Address  string            // REPLACE … WITH address
	Arg      string            // the verb's single argument, upper-cased keywords
	Options  map[string]string // CREATE / SET options, lower-case keys
	Body     []string          // PRESS/BROADCAST/PSA/RULES/SET ORDERS block lines
	// PRESS TO recipients beside Powers: ToGM for "GM", ToAddresses for
	// words written as mail addresses (lower case), as written: the
	// daemon decides who may be written to.
	ToGM        bool
	ToAddresses []string
	// As is the sender a PRESS claims with FROM (or AS) <power>: a power
	// id, or "GM". Grey press: the daemon decides whether the game allows it.
	As string
}
