// Package orders is the language players write: it turns a mail body into
// typed orders and mail commands, one line at a time, and tells the player
// precisely what it understood and what it could not. It knows no game rules:
// a game hands it a Lexicon of names (or its own Grammar), and whether an
// order is legal is the engine's business ("invalid" here, "illegal" there).
// It never guesses: a line that cannot be read with a single meaning is
// reported with the reason and, where one exists, a corrected example, and
// has no effect. A typo never silently becomes a different order.
//
// # Entry points
//
//	Parse(body, Options) *Result        a whole mail body, line by line
//	ParseOrder(line, Options)           one Diplomacy order line
//	Format(Order, *Lexicon) string      the canonical short form ("A Par - Bur")
//	NewLexicon / (*Lexicon).Prepare     index a map's names once, reuse for every parse
//	Grammar, Scanner, Names             plug another game's orders into the same machinery
//
// Parse ⇒ Format ⇒ Parse is stable, and Parse never fails: whatever it cannot
// read is an ErrorLine with a Diagnostic.
//
// # Diplomacy orders
//
// Keywords and names are case-insensitive. Every line below reads the same in
// both modes (strict and lenient):
//
//	A Par H          Army "Paris" hold           Fleet London holds
//	A Par - Bur      Army "Paris" move "Burgundy"   A Par -> Bur   A Lon - Nth - Bel
//	A Tun - Smy via convoy
//	F Eng S A Bel    Fleet "English Channel" support Army "Belgium" hold
//	A Tyr S A Ven - Tri    Army Rome support Fleet Adriatic Sea move Venice
//	F Nth C A Lon - Bel    Fleet "Ionian Sea" convoy Army "Tunis" move "Smyrna"
//	A Par R Gas      Army "Paris" retreat "Gascony"
//	A Par D          F Kie disband    Remove F Kie
//	Build F StP/nc   B F Nea    Army "Rome" build    Waive    build waive
//	England: F Nth - Pic       (the power before the order: Order.Power)
//
// Names are a province's id, map abbreviation, full name (spaces and hyphens
// as printed, quoted or not, accents folded: "Sinaï" = "Sinai") or an alias
// the map declares. Coasts: "Spa/nc", "Spa(nc)", "Spa (n.c.)", "Spa/n",
// "Spa nc", "Spain north coast", "Spa (north coast)", "Bul e/c". Judge-style
// paths ("A Lon-Nth-Bel") fill Order.Path. Phase decides one reading: in
// RetreatPhase a move ("A Par - Bur") is the retreat "A Par R Bur".
//
// # Leniencies (all off with Options.Strict)
//
//  1. Close typos: a name misspelt by one edit (two from nine letters on),
//     including names of several words ("Norht Sea", "Mid-Atlantc Ocean"),
//     is read when exactly one name is that close, with a warning saying
//     what it was read as ("Burgandy" read as Burgundy (Bur)). Two close
//     names: an error listing both.
//  2. Unique prefixes of three letters or more ("Burg", "Bulg"), with a
//     warning; "Sar" on the Ancient Mediterranean map is an error naming
//     Sardinia (Sad) and Sarmatia (Sam).
//  3. Short names the lexicon does not declare: a full name without its
//     generic words ("Adriatic", "Lyon", "Bothnia") or run together
//     ("StPetersburg", "MidAtlantic"), when unique.
//  4. An omitted unit type ("Par-Bur", "Rom hold", "F Eng S Bel") is filled
//     in from Options.Position. Without a Position it is left NoUnit for the
//     engine in both modes (Format then prints no letter, and the canonical
//     line reads back strictly); strict with a Position refuses it.
//  5. A wrong unit type corrected from Options.Position ("Army Nth" for the
//     fleet in the North Sea is read as F Nth, with a warning).
//  6. A coast written on a province without separate coasts ("Bre/nc") is
//     dropped with a warning.
//  7. More order words: "=>", ">", "→", "to", "into", "moves to", "m", "mv",
//     "attack(s)", "stand(s)", "sup", "supp", "supporting", "cvy",
//     "convoying", "transport(s)", "by convoy", "flt" (strict keeps the
//     canonical and seed words: H hold holds - -> move moves S support
//     supports C convoy convoys via R retreat retreats D disband disbands
//     remove B build builds waive).
//  8. List bullets and numbering before an order ("1.", "2)", "*", "-", "•").
//  9. Trailing punctuation after an order ("A Par H!", "A Par - Bur;"), and a
//     missing closing bracket at the end of a line ("Spa(nc").
//  10. A PRESS, BROADCAST or PSA block without ENDPRESS runs to the end of
//     the mail (or to the signature or quoted original) with a warning;
//     strict refuses the command.
//  11. Power names in commands: typos and prefixes as for provinces.
//
// # Mail structure
//
// Ignored without complaint: blank lines; greetings and closing formulas
// ("Hi GM,", "Thanks", "Regards", and after a closing formula the short
// lines of the sender's name: three words at most, none a province or an
// order word); quoted reply text ("> " lines, "On … wrote:" headers, and
// everything after such a header when the quote is not marked with ">");
// everything after a signature separator ("-- ", "--"), an "-----Original
// Message-----" or "____" rule, an Outlook "From: …" / "Sent: …" header
// block, or njudge's SIGNOFF; comments ("# …", "// …",
// also at the end of a line); mail client footers ("Sent from my iPhone");
// lines that only announce orders ("My orders for Spring 1901:", "S1901M");
// lines without a letter or digit ("-----", ":-)"). A line that is only a
// power name ("England:", "FRANCE") is a heading: the orders below it get
// that Power. Everything else that is not understood is an ErrorLine.
//
// # Commands
//
// A line whose first word is a command verb is a command (keywords in any
// case; see the Verb constants). njudge forms are accepted too: "SIGNON
// Rgame password" (power initial and game run together), "PRESS TO E F"
// (power initials), "SET DRAW" / "SET NODRAW", SIGNOFF. "SIGNON GM <game>
// <password>" signs the game master on (Command.Power "GM"). Block commands take
// the lines below them as Command.Body, never read as orders: PRESS TO
// <powers> … ENDPRESS, BROADCAST … ENDPRESS, PSA … ENDPRESS, RULES … ENDRULES
// (RULES alone asks for the rules), SET ORDERS <power> … ENDORDERS (or to the
// end of the mail). With a Lexicon, power names in commands become power ids
// and unknown ones are errors; without one they are kept as written.
//
// # Cost
//
// A Lexicon is indexed once (Prepare); a parse looks names up in maps and
// runs the typo matcher only for a word no exact spelling matches. Lines
// over 1000 bytes are reported without being read, and look-ahead for block
// ends is memoised, so the work is linear in the size of the body.
package orders
