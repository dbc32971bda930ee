// Package diplomacy is the Diplomacy rules engine of pbemd: it turns a
// position and everyone's orders into the next position and an exact,
// plain-data account of what happened, for the standard map, the Ancient
// Mediterranean, Cold War, Hundred, Pure and Youngstown Redux, and for the
// rule variants played on the standard board. It registers one
// adjudicator.Engine per embedded map ("standard", "ancientmed", "coldwar",
// "hundred", "pure", "youngstownredux") and per rule variant
// ("buildanywhere", "chaos", "evt", "fleetrome", "fva", "gvi", "fog") and
// offers the offline JSON contract of `pbemd adjudicate` (AdjudicateJSON).
//
// It must never do I/O, read a clock, log, or use a global random source:
// the same state and orders give byte-identical results.
//
// # Maps
//
// Maps are text files embedded from maps/ and validated on load; their
// format is described in MAPFORMAT.md. Code holds no map facts. A map is
// parsed when it is first used, never by the package's init: the engines
// are registered by name (TestMapsParsedOnFirstUse).
//
// # Rules
//
// Movement follows DATC v3.0 with the 2023 rulebook and the DATC's preferred
// rulings; all 164 chapter 6 cases are in testdata/datc, one subtest each:
//
//   - Convoy paradoxes: the Szykman rule (4.A.2); multi-route convoys are
//     disrupted only when every route is (4.A.1).
//   - Convoy to an adjacent province (4.A.3, 2023): by convoy when ordered
//     "via convoy" or when a fleet of the army's own power is legally
//     ordered to convoy it; no fallback to the land route. A move by convoy
//     is never a head-to-head battle and a unit dislodged by it may still
//     bounce a third unit (4.A.7) and may retreat to the attacker's
//     province (4.A.5). An army convoyed from X does not cut a support into
//     X (4.A.4). Judge-style paths ("A Lon - Nth - Bel") are read as "via
//     convoy" and the path itself is ignored (4.A.6).
//   - Coasts: a missing coast is filled in when only one is reachable
//     (4.B.2), an unreachable coast makes the move illegal (4.B.3), a
//     support may omit the coast, and a coast it names must match (4.B.4);
//     a wrong coast or unit type of the ordered unit is ignored (4.B.5,
//     4.C.2), as is a coast where none matters (4.B.6).
//   - Legality (4.E.1): an illegal order is ignored and the unit holds (it
//     can receive hold support). Illegal: a foreign or missing unit, a move
//     no unit of that kind could make, an army move no fleets on the board
//     could convoy (6.D.32), a support into a province the supporter cannot
//     reach or into its own province (6.D.34), a support of a move that the
//     supported unit could not make without the supporter's own convoy
//     (6.D.31), a convoy order of a fleet that is on no minimal convoy
//     route (6.G.19, 6.F.12). Two differing orders to one unit: both are
//     illegal and the unit holds (4.D.3).
//   - Outcomes: succeeded; failed (a standoff with a move of equal
//     strength, beaten by a stronger one, could not dislodge the unit
//     there — each with the two strengths, "1 against 2" —; cut,
//     dislodged, no convoy route); invalid (a support or convoy that matches no order: it is
//     void, DATC's "invalid"); illegal (see above). A hold succeeds when the
//     unit is not dislodged, a support when it is given (not cut), a convoy
//     when its fleet is neither dislodged nor held by the Szykman rule —
//     whether or not the army arrives.
//   - Retreats: not to the attacker's province (unless it came by convoy),
//     not to an occupied province or one left vacant by a standoff; two
//     retreats to one province both disband; a unit without a retreat order
//     disbands.
//   - Adjustments: builds on vacant, owned home centres (any owned supply
//     centre where the variant builds anywhere); the first legal
//     build and disband orders count (4.D.4, 4.D.6); builds not ordered are
//     waived; disbands not ordered follow the 2023 civil disorder rule
//     (6.J): greatest distance to an owned centre (moves over land and sea
//     for both unit types), fleets before armies, then alphabetical by
//     English province name. A build without a unit type builds an army
//     inland and a fleet when a coast is named, and fails otherwise
//     (4.C.3).
//   - Phases: a retreat phase only when a unit was dislodged; supply
//     centres change hands after Fall (after its retreats); an adjustment
//     phase only when some power must build (and has a free home centre) or
//     disband; a solo victory at the map's victory count ends the game; a
//     power with no units and no centres is eliminated.
//
// Deviation from the DATC text, documented: none in outcome. Where the DATC
// calls an order "not possible" without saying illegal or void (6.F.1,
// 6.G.7), this engine reports it illegal, which has the same effect.
//
// # Rule variants
//
// rulevariants.go plays other games on an embedded map's board, each a
// value of its table with its published source: Build Anywhere (builds in
// any owned centre), Chaos (34 powers, one home centre each, named for
// it; the game opens with the Winter 1900 builds on an empty board;
// builds anywhere; 18 to win), France vs Austria and Germany vs Italy
// (two players with their usual units; the other home centres start
// neutral and empty; 18 to win), England vs Turkey (the same, but
// England's fleets start in the North Sea and the Channel and its army in
// London), Fleet Rome (Italy's Rome unit is a fleet), Fog of War (fog.go:
// each power sees what its units and centres border; the engine, a
// Viewer, says what each may see). Their special rules are cases in
// testdata/variants and fog_test.go, as the DATC's are; RULES in a game
// shows them.
//
// # Orders
//
// The Diplomacy order language lives here: Order and its kinds (order.go),
// the grammar (grammar.go, an orders.Grammar over a map's Lexicon), Parse
// and ParseOrder, and Format, the canonical short form stored and shown
// ("A Par - Bur"). Package orders lends the mail structure, the shared
// commands, the tokenizer and the name matcher; Parse's comment lists what
// the grammar accepts.
//
// # Pictures
//
// The engine is an adjudicator.Drawer: Draw shows a position (after a phase,
// with that phase's orders drawn from its Report.Data) as a picture of the
// board, built from each map's geometry section (MAPFORMAT.md) with the
// picture package; DrawJSON is `pbemd map`. What never changes for a map
// (shapes, borders, the places each name may stand, the legend's key) is
// built at the first picture and shared; each picture writes the names
// where its units and arrows leave them clear. The file draw.go lists what
// a picture shows.
//
// # Engine adapter
//
// Powers are named by their map ids ("england", "rome"). Check reads a
// power's mail text with Parse, marks orders that cannot apply
// as diagnostics (a later order for a unit replaces an earlier one in the
// same text), and returns canonical lines; Resolve reads those lines back
// (a power without lines is in civil disorder). State is versioned JSON
// (see state.go); add fields, never rename them.
package diplomacy
