// Package orders is the game-neutral language players write: it splits a
// mail body into lines, reads the mail commands every game shares (JOIN,
// SIGNON, PRESS …), and hands each other line to the game's own Grammar
// through a Scanner that offers the tokenizer, the fuzzy name matcher and
// diagnostics. It knows no game: each engine brings its grammar and names
// (Diplomacy's grammar, order types and Format live in adjudicator/diplomacy),
// and whether an order is legal is the engine's business ("invalid" here,
// "illegal" there). A nil Grammar means commands only. It never guesses: a
// line that cannot be read with a single meaning is reported with the reason
// and, where one exists, a corrected example, and has no effect. A typo
// never silently becomes a different name.
//
// # Entry points
//
//	Parse(body, Options) *Result        a whole mail body, line by line
//	ParseLine(line, Options)            one order line, by the game's grammar
//	Grammar, Vocabulary, Scanner        a game's order grammar and what it reads with
//	NewNames                            index a game's names once, reuse for every parse
//
// Parse never fails: whatever it cannot read is an ErrorLine with a
// Diagnostic. Line.Value holds what the grammar returned for an order line.
//
// # Leniencies (all off with Options.Strict)
//
// The name matcher (Scanner.Name), for every grammar that uses it:
//
//  1. Close typos: a name misspelt by one edit (two from nine letters on),
//     including names of several words ("Norht Sea", "Mid-Atlantc Ocean"),
//     is read when exactly one name is that close, with a warning saying
//     what it was read as ("Burgandy" read as Burgundy (Bur)). Two close
//     names: an error listing both.
//  2. Unique prefixes of three letters or more ("Burg", "Bulg"), with a
//     warning; "Sar" on the Ancient Mediterranean map is an error naming
//     Sardinia (Sad) and Sarmatia (Sam).
//  3. Short names the game does not declare: a full name without its
//     generic words ("Adriatic", "Lyon", "Bothnia") or run together
//     ("StPetersburg", "MidAtlantic"), when unique.
//
// The mail reader:
//
//  4. A PRESS, BROADCAST or PSA block without ENDPRESS runs to the end of
//     the mail (or to the signature or quoted original) with a warning;
//     strict refuses the command.
//  5. Power names in commands: typos and prefixes as for names above.
//
// A grammar lists its own leniencies (Diplomacy's: adjudicator/diplomacy's
// Parse).
//
// # Mail structure
//
// Before a line is read, what a player cannot see or did not mean is taken
// out (clean.go): zero-width spaces and joiners, BOM, soft hyphens and
// variation selectors are dropped, every Unicode space is a space, and
// full-width letters are ASCII; every arrow players type ("->", "=>", "→",
// "⇒", "➡", "➡️" …) and every dash is a move. The line is shown to the
// player as written.
//
// Ignored without complaint: blank lines; greetings and closing formulas in
// the languages most used in mail ("Hi GM,", "Thanks", "Viele Grüße",
// "Bonne chance à tous,", "С уважением,", "よろしくお願いします。"), and
// after a closing formula the short lines of the sender's name: three words
// at most, none a name or keyword of the grammar's Vocabulary; such a name
// signed without a closing formula as the mail's last line or above the
// quote, after a blank line, starting with a capital and unreadable by the
// grammar ("Amélie"); quoted reply text ("> " lines, attribution lines such
// as "On … wrote:", "Am … schrieb …:", "Le … a écrit :", "… のメッセージ:",
// also wrapped over two lines or written without a verb ("07.12.2026 14:01
// Ann <ann@example.org>:"), and everything after such a line when the quote
// is not marked with ">"); everything after a signature separator ("-- ",
// "--"), a rule above an original or forwarded message in any of those
// languages ("-----Original Message-----", "-----Ursprüngliche
// Nachricht-----", "---------- Message transféré ---------", "____"), a
// header block above the original ("From: …" / "Sent: …", "Von: …" /
// "Gesendet: …", "De: …" / "Envoyé: …", "Od: …" / "Wysłano: …", "От: …" /
// "Отправлено: …", "差出人: …" / "送信日時: …" …), or njudge's SIGNOFF;
// comments ("# …", "// …", also at the end of a line, and the rest of a long
// comment the client wrapped onto the next line); mail client footers
// ("Sent from my iPhone", "Von meinem iPhone gesendet", "Sent from Yahoo Mail
// on Android", "iPhoneから送信"); lines that only announce orders ("My orders
// for Spring 1901:", "S1901M"); lines without a letter or digit ("-----",
// ":-)"). The tables are in quote.go, each naming the clients it follows.
//
// A block below the orders whose lines the grammar cannot read and none of
// which reads like an order (no place of the game, no move; a name, a
// title, telephone numbers, a disclaimer) is a signature written without
// "-- ": its first line carries one warning, "ignored as a signature", and
// the rest are ignored (tail.go).
//
// A line that is only a power name ("England:", "FRANCE") is a heading: the
// grammar reads the lines below it with Scanner.Heading set to that power.
// Everything else that is not understood is an ErrorLine.
//
// # Commands
//
// A line whose first word is a command verb is a command (keywords in any
// case; see the Verb constants). njudge forms are accepted too: "SIGNON
// Rgame password" (power initial and game run together), "PRESS TO E F"
// (power initials), "SET DRAW" / "SET NODRAW", SIGNOFF. "SIGNON GM <game>
// <password>" signs the game master on (Command.Power "GM"). PRESS TO takes
// GM (Command.ToGM) and mail addresses (Command.ToAddresses) beside powers,
// and FROM (or AS) <power> for the sender grey press claims (Command.As);
// PRESS TO ALL is BROADCAST. WHATIF, WHAT IF and PREVIEW alone are
// VerbWhatIf (PREVIEW alone with Arg "PREVIEW"; PREVIEW ON|OFF is the GM's
// VerbPreview). Block commands take
// the lines below them as Command.Body, never read as orders: PRESS TO
// <powers> … ENDPRESS, BROADCAST … ENDPRESS, PSA … ENDPRESS, RULES … ENDRULES
// (RULES alone asks for the rules), SET ORDERS <power> … ENDORDERS (or to the
// end of the mail). With Options.Powers, power names in commands become
// power ids and unknown ones are errors; without them they are kept as
// written.
//
// # Cost
//
// Names are indexed once (NewNames); a parse looks names up in maps and
// runs the typo matcher only for a word no exact spelling matches. Lines
// over 1000 bytes are reported without being read, and look-ahead for block
// ends is memoised, so the work is linear in the size of the body.
package orders
