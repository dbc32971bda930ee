// Package supplychain is the Supply Chain card game engine of pbemd
// (rules: the Supply Chain seed). It plays the game turn by
// turn through the daemon's one adjudicator.Engine interface: each phase
// is one player's turn of up to two actions (Status.Kind PhaseTurn,
// Status.Waiting that one player), or a Buy-Sell-Trade partner answering
// an offer, or the solo game's open placement phase.
//
// It must never do I/O, read a clock, log, or use a global random source:
// the same state, orders and seed give byte-identical results. The only
// randomness is the deal of New, drawn from a PCG seeded with the game's
// seed.
//
// # The deck
//
// No public source lists the printed cards, so the cards are data: an
// embedded JSON deck file (decks/default.json) validated on load — unknown
// fields refused, a provenance ("seed", "invented" or "public: <source>")
// on every table, every street and good resolved, the cards of each kind
// adding up to the seed's composition (6 main offices, 9 offices, 16
// vehicles, 58 contracts, 27 special offices, 8 starters, 6 derelicts, 6
// business plans, 74 properties: 210). The default deck is invented;
// DECKFORMAT.md tells an owner of the physical game how to replace it.
//
// # Rules as implemented (seed sections in brackets)
//
//   - Set-up [Set up]: Player 1 is the first power (red) and the Listing
//     Agent; main offices placed at 0,0; a business plan each; two special
//     offices and a Starter into each hand (leftover Starters into the
//     Deck); one derelict per player into the Deck; $1,500; the link/3VP
//     token 3VP side up; six listed cards. Full Deck for 3–6 players, Short
//     Deck (property codes ending in 2, 3, 4 out) for 1–3.
//   - Turns and rounds: seats in power order; the hand limit (7, raised by
//     special offices) is met at the end of the turn by discarding the
//     cheapest cards (never the dealt Starter).
//   - Listing [Listing Agent]: before Player 1's turn from round 2 on every
//     listed card is tapped; at its fourth tap it goes to the Stale Sale
//     pile (half price) and the Deck's top card takes its place, as it does
//     when a listed card is bought. Prices are rounded up to $50.
//   - Placement [Card placement]: a grid, x east and y south, main office
//     at 0,0. Neighbours link when both facing edges carry a chain link, or
//     the link/3VP token lies on that edge (it then loses its 3 VP). A link
//     counts when it touches an office or joins two cards of one block; a
//     block is a card with requirements and the cards that make them,
//     linked together through its own suppliers (blocks within blocks).
//     Every requirement must be met within the card's block; every placed
//     card must be linked to the main office; a property that supplies no
//     block must be linked to an office; a contract or vehicle must supply
//     a block (law D).
//   - Actions [Actions]: two different actions a turn; purchases from
//     different areas are different actions. Purchase (listing, contracts,
//     vehicles, offices, Stale Sale pile), Buy-Sell-Trade (an offer the
//     partner ACCEPTs or DECLINEs in a phase of its own), Swap, Place (one
//     card or one block; a card laid on a placed contract sends it back to
//     the Contract deck), Revenue (the best route, or the best from a
//     named office), Reorganize, Close, Blind Purchase. Discard and Spin
//     are free and may be sent at any time (in another's turn they are
//     carried out when that turn is resolved); Place with Reorganize is
//     the dual action.
//   - Laws A–F: money capped at $2,000 (the excess goes to the bank, from
//     revenue and from sales); no team owns two more offices than another
//     (checked when offices are acquired); no two contracts or vehicles of
//     one kind in a hand; placed contracts and vehicles only in blocks; ASK
//     answers hand counts; one derelict per player per game.
//   - Special cards: the dealt Starter is never sold nor abandoned; the
//     starting main office is never sold, swapped, discarded or closed;
//     special offices may be swapped for any listed card; derelicts attach
//     by a link to another player's property (not a contract or vehicle),
//     stay for the rest of the game, move with their property, count their
//     (negative) VP to the victim and stop that property from being sold,
//     closed or abandoned; business plans add 1 VP per property on their
//     streets at the end.
//   - End: at the end of the round in which the listing became empty; most
//     VP wins; a tie goes to the best revenue route; still tied: shared.
//   - Variants: the solo game, two solo games side by side from one Short
//     Deck (the seed's aside; each player on his own tableau, one open
//     phase for both, the game over when both have finished; most VP wins,
//     then fewer contracts), the co-op game, Laissez-faire supply, Fire
//     Sale (options, see New).
//
// # Where the seed is silent (choices)
//
// See rulesText (Info.Rules), which players receive with RULES: every
// choice is listed there.
//
// # Through the daemon
//
// Engines are registered per preset (the daemon passes New no options
// yet): "supplychain" (4 players), "supplychain-solo",
// "supplychain-solo2" (two solitaire games side by side), "supplychain-2"
// (Short Deck), "supplychain-3", "supplychain-5", "supplychain-6" and
// "supplychain-coop" (4 players in two partnerships). New's options
// (players, deck, coop, laissez_faire, fire_sale, solo, default, cards)
// refine a preset. A results mail says what changed and what its reader
// must do: the phase's events, the listing and the Stale Sale pile when
// they changed, the tableaux that changed (with the new cards described),
// one standing line per team; the player who acts next gets his hand and
// plan described, the listing and what he can do, the others their money
// and hand on one line. The whole board — every tableau, the piles, every
// card described — is Status.Summary (STATUS, and the start mail), the
// hand is the Viewer (STATUS) and HAND; the mail that ends the game, and
// every solitaire mail, shows everything. (Issue 15: a 3-player game's
// results mails averaged 8.7 KB with the whole board in each; package
// demo's TestDemoSupplyChain plays a whole game by mail and holds them
// to 3 KB.) Questions come back to the daemon answered (Check.Answers) on
// ignored lines, refused turns as error lines, so nothing is stored and
// the turn stays open. Status declares that a turn is taken whole and that
// the waiting player's orders end it. An offer phase waits for the partner
// only; its deadline is the daemon's turn deadline. (*Engine).BotOrders
// (adjudicator.Bot) gives a seeded player's orders for tests and the demo;
// (*Engine).AutopilotOrders (adjudicator.Autopilot, autopilot.go) gives
// the steady play of the daemon's autopilot for a player who sent none;
// CREATE's players= picks the preset with that many seats (Setup).
//
// # Pictures
//
// Draw (adjudicator.Drawer, draw.go) is the table as a picture: the
// listing and the Stale Sale pile, every tableau on its grid with its
// links and best revenue route, each team's standing, and the viewer's
// own hand and plan. It shows what the viewer's text shows: no other
// player's hand or plan, no card of the Deck (TestPictureHiddenHands).
// With results it marks the cards the phase changed (the results' Marks,
// made where the public report names a card; TestPictureMarksChanges),
// and keeps each results mail under 100 KB (TestDemoSupplyChain).
//
// # Orders
//
// Keywords in any case; cards by code (exact) or by name (the deck's name
// matcher: typos and unique prefixes with a warning); players by colour.
// Questions (HAND, ASK) are answered at once in the reply and never
// stored. A turn is checked by carrying it out on a copy: when any order
// line of a mail has an error nothing is stored and the turn stays open,
// so a mistyped turn never ends a player's turn. The copy sees only what
// the player sees: it draws no card from the Deck (a blind purchase or a
// refilled listing slot stays unknown until the turn is carried out) and
// does not look into a trade partner's hand, so no probe by refused mails
// learns a hidden card. Leniencies: "the", "my",
// "a" before a card; "main office" for one's own main office; money as
// $300, 300, $1,500 or 300$; cells as x,y, (x,y), x y or x/y; turns as
// 0–3 or 90/180/270; TURN left out on PLACE or MOVE lets the engine choose
// the turns that make the links work (up to four cards).
package supplychain

const rulesText = `Supply Chain by mail (rules: the Supply Chain card game; see the GM's house rules).

A turn: up to two DIFFERENT actions (two purchases from different areas are different):
  BUY <card> FROM LISTING|CONTRACTS|VEHICLES|OFFICES|STALE   (stale pile: half price)
  BLIND                                  the Deck's top card, $50 off; unpaid it waits and
                                         every later turn must include REVENUE until paid
  SELL <card> TO <player> FOR $n         Buy-Sell-Trade: one card for money, one for one,
  BUY <card> FROM <player> FOR $n        one for two, one for one plus money; the other
  TRADE <card> FOR <card> WITH <player>  player ACCEPTs or DECLINEs before the turn goes on
  SWAP <hand card> FOR <listed card>     the listed card must be cheaper (special offices:
                                         any listed card); not a card bought stale (the
                                         mark stays while it is placed and closed back)
  PLACE <card> AT x,y [TURN n]           all PLACE lines of a turn are one Place action:
  PLACE <card> EAST OF <placed card>     one card or one block
  PLACE <derelict> AT <player> x,y       attach a derelict to another player's property
  MOVE <card> TO x,y [TURN n], REMOVE <card>   Reorganize (removed cards: stale pile/decks)
  REVENUE [FROM <office>]                the best revenue route (from that office)
  CLOSE <card>[, <card>]                 placed cards back into your hand
  TOKEN AT x,y E|S|N|W, TOKEN OFF        the link/3VP token as a link (or back to 3VP):
                                         part of the Place action, alone a Reorganize
Free: DISCARD <card>[, <card>] (consecutive discards count as one), SPIN <card> [n], PASS
  (no action). DISCARD and SPIN may also be sent in another player's turn: they are
  carried out when that turn is resolved, after its player's orders.
Questions, answered at once and never stored: HAND, ASK <player> OFFICES|CONTRACTS|VEHICLES.
Answering an offer: ACCEPT or DECLINE.  Solo game: PLACE, MOVE, CLOSE, SPIN, TOKEN,
  PICK <contract or vehicle>, RETURN <card>, FINISH.

The grid: x grows east, y south; your main office starts at 0,0. TURN n turns a card n
quarter turns clockwise from its printed orientation. Cards link when both facing edges
have a chain link (or the token lies there). Links count between an office and a card, or
inside a block (a card and the cards that make what it needs, through its own suppliers).

Choices where the rules are silent:
- Player 1 (Listing Agent) is the first power; turns follow the power order.
- A mail whose order lines have any error is refused whole: nothing is stored, the turn
  stays open. Send the whole turn again. Orders end your turn when they arrive, so a mail
  with free orders only is refused too: add your actions, or PASS.
- A turn without orders by the deadline takes Revenue (GM option default=pass: nothing);
  with the autopilot on, the autopilot gives the turn's orders instead.
- An offer not answered by its deadline is declined; the rest of the actor's orders are
  carried out after the answer. A made offer uses the Buy-Sell-Trade action, accepted or
  not. Ask for a card in another player's hand by name (its code is secret); if that
  player cannot make the trade, everyone hears only that the trade fails.
- The hand limit is met by discarding the cheapest cards (the dealt Starter never).
- Contract and Vehicle decks, the Offices area and the Stale Sale pile are open: any card
  may be bought from them. Contracts and vehicles are not swapped into the listing.
- A swapped-in card starts fresh in the listing (no taps).
- Cards may be sold from the tableau if no block is ruined; they go to the buyer's hand.
- Law A applies to all income; law B is checked when offices are acquired.
- A Blind Purchase of a card the player may not own (a second derelict, law B) goes to the
  Stale Sale pile; nothing is paid. It is paid for as soon as the player can afford it.
- Revenue: the route does not collect the office where it ends. The street bonus counts
  each requirement once, for a property of the business's block on its street.
- The token returns to its 3VP side when it no longer lies between two placed cards.
- A derelict attachment is a Place action of its own.
- Ties: the best revenue route at the end decides; still tied, the winners share.
- A results mail shows what changed (the turn's events, the listing and piles when they
  changed, the tableaux that changed, a standing line per team); the player who acts next
  also gets his hand, plan and options. STATUS shows the whole board; HAND your hand.
- The picture with results shows what the turn changed: a line per player under the title
  ("Red: bought AD1 · placed AD1"), yours large, and each changed card ringed in the
  player's colour with a word (BOUGHT, PLACED, DISCARDED, SPUN, REVENUE, ...). A phone
  shows the picture at about a third of its size: your own line is large enough to read
  there without zooming, and the rings show where on the table it happened. To keep each
  results mail under 100 KB to the end of a game, that picture shows your tableau's cards
  by strip and name, the other tableaux as chips of codes, your hand and the Stale Sale
  pile's changed cards as chips; the STATUS and MAP picture shows the whole table.
- Solo: a main office is dealt (placement needs one); each mail is one batch of orders
  checked as a whole; FINISH (or no orders by the deadline) ends it; FINISH needs the
  Starter placed. Score: VP, then fewer contracts.
- Two solitaire games side by side (supplychain-solo2): one Short Deck deals fifteen
  properties to each; both play at once, each on his own tableau, taking contracts and
  vehicles from the same decks; a player's FINISH ends his game only; the game is over
  when both have finished; the winner has more VP, then fewer contracts.
- Co-op: partners share main office, tableau, plan and token; law B counts partnerships;
  a card is never sold for money below its price.
- Laissez-faire: any placed card supplies every card; links still join all cards.`
