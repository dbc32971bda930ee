// Package orders is the language players write: it turns a mail body into
// typed orders and mail commands, one line at a time, and tells the player
// precisely what it understood and what it could not. It knows no game rules:
// a game hands it a Lexicon of names (or its own Grammar), and whether an
// order is legal is the engine's business. It must never guess: a line it
// cannot read with a single meaning is reported, with the reason and a
// corrected example, and has no effect.
//
// # Entry points
//
//	Parse(body, Options) *Result        a whole mail body, line by line
//	ParseOrder(line, Options)           one order line
//	Format(Order, *Lexicon) string      the canonical short form ("A Par - Bur")
//	NewLexicon / (*Lexicon).Prepare     index a map's names once, reuse for every parse
//
// Parse ⇒ Format ⇒ Parse is stable. Other games plug their order grammar into
// the same tokenizer, name matcher and diagnostics through Grammar and
// Scanner.
//
// # Mail structure
//
// Ignored without complaint: blank lines; greetings and closing formulas
// ("Hi GM,", "Thanks", "Regards", and the short name lines after a closing
// formula); quoted reply text ("> " lines, "On … wrote:" headers, and
// everything after such a header when the quote is not marked with ">");
// everything after a signature separator ("-- ", "--"), an "-----Original
// Message-----" or "____" rule, or njudge's SIGNOFF; comments ("# …", "// …",
// also at the end of a line); mail client footers ("Sent from my iPhone");
// lines that only announce orders ("My orders for Spring 1901:", "S1901M").
// A line "<power>:" ("England:") is a heading: the orders below it get that
// Power. Everything else that is not understood is an ErrorLine with its
// line number.
package orders
