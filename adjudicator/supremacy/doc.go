// Package supremacy plays Supremacy 2020 (its seed rulebook) by mail, as an
// adjudicator.Engine.
//
// The rules core is pure and deterministic: no clock, no I/O, no global
// random source, no map-order dependence. Every die, shuffle and drawn
// order of play comes from a PCG generator seeded with the phase's seed, so
// a phase replays byte for byte. It must never import anything but
// adjudicator, orders and the standard library.
//
// # Scenario
//
// The board, the company deck, the price track, the interest tables and the
// Strategic Reserve columns come from an embedded scenario file
// (scenarios/*.json), validated on load: unknown fields are refused, every
// reference must resolve, and every table says where its numbers come from
// ("seed", "invented" or "public: <source>"). SCENARIO.md tells an owner of
// the physical game how to drop in the real board.
//
// # Pictures and the text map
//
// Draw (adjudicator.Drawer, draw.go) pictures a position on the scenario's
// world map when it ships one (scenarios/NAME.geo, geometry.go: each area
// its region of the real world, from Natural Earth's coastlines, named in
// full), else on its layout section (a schematic of grid cells); either
// shows exactly the scenario's borders (TestLayoutTruthful): land coloured by
// controller, forces, cities, companies, impassable borders and
// chokepoints, a legend, and what the phase did (drawphase.go: the marks
// its Report.Data carries: moves, attacks on land and at sea, ICBM strikes,
// blockades, seizures, each with its outcome). TextMap
// (adjudicator.TextMapper, textmap.go) is the map as text for MAP: every
// area's id, name, borders and holder. Both show only public facts; a
// player's picture of a phase also draws that player's own events larger
// and lists them under the legend, so it is drawn per player
// (Info.PublicPicture is false).
//
// # Mapping onto the daemon
//
// Engines are registered per player count (Presets: supremacy,
// supremacy-3, -4, -5, -8), because the daemon passes no engine options to
// New yet. Info.Simultaneous is false: the daemon processes a phase as soon
// as every Status.Waiting power has sent orders.
//
//   - steps=none (default): every phase is one mail round; Waiting is every
//     player still in the game; Resolve runs the orders in the phase's drawn
//     order. Kind is PhaseOrders.
//   - steps=attack: the attack phase is played step by step: Waiting is the
//     one power to act (the attacker, a defender who may counterattack, or
//     the attacker confirming a declared launch); Kind is PhaseTurn; each
//     Resolve carries out that power's step and moves to the next.
//   - steps=all: trade, attack, move and build (unless build=together) are
//     one player's step at a time; salaries stays one round (the seed lets
//     every player do it at once).
//
// Orders of players who are not in Waiting still reach Resolve (the daemon
// stores every player's mail for the phase): their anytime orders (loans,
// bonds, seizure, offers, acceptances) and standing orders (reactions,
// contests, choke point permits, ABM policy) take effect in that step.
//
// Private trades and personal loans (OFFER, ACCEPT, REFUSE; offers.go)
// are carried out at the end of the phase, after every market trade, if
// both sides can deliver. Offers (adjudicator.Offerer) declares the offers
// standing in the open phase with each receiver's answer, so the daemon
// mails the receiver an offer when it is sent (and when it is changed or
// withdrawn), tells the offerer of each answer, and ends a phase (or a
// step) early only when every offer has an answer. An ACCEPT that quotes
// the terms, as the offer mail writes it, accepts those terms only: an
// offer changed since needs a new answer; a bare ACCEPT (a deal arranged
// in press) accepts what the offer reads at the end of the phase.
//
// Phase ids are T<turn>-<phase>[-<step>] (T00-0 is the set-up, T03-4 the
// move phase of turn 3, T03-3-012 the twelfth step of its attack phase);
// they sort in play order.
//
// # Reports
//
// Report.Public is the phase's events (every die roll with its purpose) and
// the public board: forces, companies (never hidden, seed: Company Cards),
// contamination, market prices. Report.Private gives each player his cash,
// loans, bonds, Strategic Reserve, technologies and standing orders, and the
// private side of his trades; View (adjudicator.Viewer) gives the same
// position for STATUS. Status.Summary is the public board only.
// Status.Scores are public: the board's part of net worth (companies and
// forces) while the game runs, the whole net worth at the end. Report.Data
// is JSON of the public events.
//
// # Orders ahead
//
// The seed's turn is played at one table; by mail its five phases would
// be five rounds. The engine is an adjudicator.Aheader: a mail may carry
// the orders of the turn's later phases under section lines (PHASE
// attack), which Check returns in Check.Held for the daemon to hold until
// the phase opens (ahead.go; RULES: ORDERS AHEAD).
//
// # Autopilot
//
// The engine is an adjudicator.Autopilot (autopilot.go): for a player who
// sent no orders by the deadline, in a game with autopilot=on or after the
// GM's AUTOPILOT <power> ON, it gives steady, defensive orders: forces
// placed as armies at home, companies opened while their output has room,
// surplus resources sold, armies moved to and built in outnumbered home
// areas; never an attack, a launch, a loan or an answer to an offer.
//
// # Choices where the seed is silent
//
// RulesText lists them for the players; in short: interest is owed on the
// highest loan since the last salaries; the bank lends (and bonds are sold)
// before a default; unpaid forces are disbanded from the largest stacks;
// blockaded production goes to the first declarer in the drawn order with
// room; counterattacks draw no counterattacks; a defender's reinforcement is
// a standing reaction; the attacker's losses follow his standing LOSSES
// order (the seed lets players choose; a mail cannot be asked mid-combat,
// so the choice is a preference order given beforehand), then fixed rules
// (largest group first); in naval combat navies not carrying armies are
// lost first; a minor area held by a player raises no armies; minors buy
// armies, navies, ICBMs and ABMs, keep their navies off their coast (not in
// a sea of the board: minors are not players and do not sail) where they
// fire in the minor's defence, lose raised armies, then navies, then bought
// armies, and fire all their ICBMs at the attacker's home cities — also
// when a strike hits them; navies sailing before an attack pay one oil per
// sea they end in (one group move); reinforcing moves follow conventional
// attacks only; a blockade's sea counts with a blockader's navy and none of
// the blockaded player's (other players' navies neither help nor hinder);
// bought-back weapons are disarmed; armies bought from another player are
// placed like builds; conquered and bankrupt players' home areas become
// plain neutral areas (no minor armies); the high tech edge is strictly the
// most ABMs among players and gives three re-rolls per attack, contest
// rounds at sea included; in step play a counterattack launch needs no
// confirmation.
package supremacy
