// Package empire is the Empire Boardgame engine of pbemd: a hex world war
// of secret simultaneous orders, supply lines and Galaxy-PBM-style random
// combat, played by mail (seed: the Empire Boardgame seed).
//
// It registers the engines "empire" (4 players), "empire2", "empire3",
// "empire-random" (4 players on a world generated from the game's seed)
// and "empire5" to "empire8" (5 to 8 players on a larger generated world:
// the seed's counters come in eight sheets, and the shipped tiles seat at
// most four).
// Options (New): see optionHelp and the RULES text.
//
// It must never do I/O, read a clock, log, or use a global random source:
// all randomness (combat, the world generator) comes from the seed it is
// given, and the same state, orders and seed give byte-identical results.
//
// # Data
//
// Unit types, tiles and worlds are embedded JSON files (data/), validated on
// load, every table marked with its provenance; DATAFORMAT.md explains the
// format and how to replace them. A game's state carries its own copy of the
// board and the unit table, so a running game never changes with the data.
//
// # Rules
//
// rules.go holds the rules text players get (Info.Rules) with every choice
// made where the seed is silent; each rule's code cites the seed section it
// implements (movement in move.go, supply in supply.go, combat in
// combat.go, the strategic phase in strategic.go, the tactical turn in
// tactical.go).
//
// # Pictures
//
// Draw (adjudicator.Drawer, draw.go) is a power's own view of the board:
// every hex's land wedges and name, the units it sees (per hex and
// power, with factories, bases and headquarters marked and moves drawn),
// its supply groups cut off from supply, and what it may know of the
// other powers. Fog of war is kept as in its text view: nothing out of its
// sight, and no other power's unit pool, is drawn (TestPictureFogOfWar).
//
// # Autopilot
//
// AutopilotOrders (adjudicator.Autopilot, autopilot.go) orders for a power
// whose player sent nothing, in a game with the autopilot on: the largest
// bid, infantry bought onto its factories, every unit kept and held, a
// threatened factory or base guarded from next door, a unit sacrificed
// only where others would be lost for want of supply, and a ceasefire. It
// never attacks (TestAutopilotOrdersAreLegalInRandomGames), and every line
// it writes is one Check accepts unchanged.
//
// # Orders
//
// grammar.go reads orders through the orders package (mail structure,
// commands, the name matcher for unit names and unit types, diagnostics).
// Leniencies: any case; unit names as "RID3", "RID-3", "RID 3" or "Regular
// Infantry Division 3", close misspellings and unique prefixes with a
// warning, but never a different number ("RID5" is never RID3); "->", "to",
// "move" and "/" between hexes; "SAVE FAC1 5" as well as "SAVE 5 FAC1";
// "cease fire". Hex names are never guessed.
package empire
