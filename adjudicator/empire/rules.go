package empire

import (
	"fmt"
	"strings"
)

// rulesText is the game's rules as players get them with RULES: the seed's
// rules in short, every choice made where the seed is silent (marked
// "House choice"), and the order reference.
func rulesText(players int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Empire Boardgame by mail, %d players (%s in that order).\n", players, strings.Join(powerIDs[:min(players, len(powerIDs))], ", "))
	b.WriteString(`
THE WORLD. A board of hexes named by column letter and row number (A1 top
left; the even-numbered rows 2, 4, 6, ... are shifted half a hex right, as
the map shows: B2 touches B1 and C1 above it, B3 touches A2 and B2). A hex has six land fragments
when all land, 1 to 5 on a shoreline, 0 when open water. Land units cross
only between neighbouring hexes that share land (the two wedges facing each
other across their edge are both land). The world is the default one (four
tiles), or with option world=generated a new board made from the game's
seed. The powers are named after the seed's counter sheets (red, blue,
green, yellow, white, black, khaki, olive: eight at most); the shipped
worlds seat 2 to 4, five to eight play on a generated world, larger for
more players (House choice: 18x14 hexes for 5, 20x16 for 6, 24x16 for 7,
26x18 for 8; 26 columns is the most the column letters name).

UNITS (codes are how units are named: RID3 is your regular infantry
division number 3). Speed in hexes per tactical turn; "perish"/"disable" is
what happens without supply; C = controls its hex.
  FAC factory     stationary, supply full/full, C, produces units
  AB  army base   stationary, supply full/full, C
  FB  field base  stationary, supply full/own hex only, C
  AGHQ army group HQ  0.5, supply full/full, C, becomes a factory
  AHQ army HQ     0.5, supply full/own hex only, C, becomes an army base
  CHQ corps HQ    0.5, supply full/none (disable strategically), C, becomes a field base
  DHQ division HQ 0.5, supply full/none (perish strategically), C
  TD  transport division 0.5, WEAK; perish without supply (both phases)
  EAC/EAD expeditionary armored corps/division 1; no tactical need;
          strategically disable/perish
  EIC/EID expeditionary infantry corps/division 0.5, C; as EAC/EAD
  RAC/RAD regular armored corps/division 1; tactically disable/perish;
          strategically perish
  RIC/RID regular infantry corps/division 0.5, C; as RAC/RAD
All combat capable units fight alike. Disabled units are weak and cannot
move. Option units=reduced plays with FAC AB AGHQ AHQ TD RID RAD EAC only.
Prices (production points): see the production report. House choice: the
prices, codes and the reduced set are invented; the seed gives none.

A ROUND is a strategic phase (three mail rounds) then a tactical phase
(turns). The game starts at round 1's bids with each power's start force on
the board: a factory on its home hex, three regular infantry divisions, a
regular armored division and a transport division around it (House choice).

STRATEGIC PHASE.
 1. Deployment: each mobile unit stays on the board (KEEP, the default) or
    goes to the unit pool of the territory it is in (POOL). A territory is
    a group of your units on the board joined through shared or
    neighbouring land hexes. House choice: a unit may join the pool of a
    territory that holds its hex or a hex next to it; otherwise it stays.
    Units still on the move settle in the first hex of their position
    (KEEP RAD2 D4 picks the other). Headquarters may TRANSFORM into their
    stationary unit (AGHQ -> factory, AHQ -> army base, CHQ -> field
    base). Then the strategic supply check: a territory with a factory,
    army base or army group HQ supplies all its units and its pool; a field
    base or army HQ supplies the units in its own hex. Units that need
    strategic supply and lack it perish or are disabled; one unit
    SACRIFICEd supplies its whole territory for the phase. The
    acknowledgement of your deployment orders says which of your units
    the check will remove or disable if the orders stand (it depends on
    your own units only).
 2. Bids: each power secretly bids a number of strategic turns (BID n, 1 to
    max_bid, default 6; no bid counts as the maximum). The lowest bid is
    the number of turns; only it and who bid it are announced.
 3. Production: a territory with a factory produces, per turn, the land
    fragments of its hexes that one of its units controls (HQs, bases,
    factories, infantry; armor and transports only occupy). Points = turns
    x that + points saved in its factories. BUY units into hexes of that
    territory (hexes holding your units); PLACE pooled units in their
    territory (House choice: by default they come back to the hex they
    left, or the territory hex next to it they pooled through);
    points not spent are saved, in the territory's first factory unless
    you SAVE them in another. Saved points are lost with their factory.
 Then all is revealed and the tactical phase starts.

TACTICAL TURN. All powers order at once; the positions are revealed; then
combat, then the supply check.
 Movement: a standing unit occupies one hex. A unit on the move covers two
 hexes: armor both fully, slower units the first fully and the second
 half. Each turn armor may take any position that includes one of the
 hexes it covers; a slower unit may stand in the hex it fully occupies (or
 the one it half occupies), move from the hex it fully occupies towards
 any neighbour, or cross into the hex it half occupies (RID3 D4-C4 after
 RID3 C4-D4). Units without orders keep their position (on the move too).
 Combat: in each hex holding units of two powers (a moving unit is in both
 its hexes) units fight until no hex is shared. Per separate conflict: a
 random combat capable unit in contact with an enemy fires at a random
 enemy in contact and destroys it; if that was a weak unit it fires again
 for free, until it destroys a capable unit or has no target. Repeat until
 no capable unit has a target; then weak units fire in the same way (one
 target each, no free shots). The report lists every shot.
 Supply: your units in the same or neighbouring land hexes form a supply
 group; a group with a supply generator (base, factory or HQ not
 disabled) supplies them all and restores its disabled units. A group
 without one may use up one unit you ordered SACRIFICEd to stay supplied
 this turn; otherwise its regular divisions and transports perish and its
 regular corps are disabled. Expeditionary units need no tactical supply.
 Optional rule (option retreat=on): RETREAT RAD2 [hex] — when a unit on
 the move is picked to fire, it retreats instead: armor keeps the hex you
 name (default: its first), slower units leave the hex they half occupy.
 With this rule the board is one conflict.
 End: the tactical phase ends after a turn in which every power that still
 has a unit able to move says CEASEFIRE (House choice: a power that sends
 no orders agrees, option silent_ceasefire), or after max_turns turns
 (default 12). The next round's strategic phase follows.

END OF THE GAME (House choice; the seed names none). A power with no units
is out. At the end of a tactical phase a power without a factory and
without an army group HQ is out and its units surrender. The last power in
the game wins. After max_rounds rounds (default 8) the power with the most
production per strategic turn wins (a tie is shared).

FOG OF WAR (option fog=on or a radius): you see only hexes within that many
hexes of your units; without it the world board is public. The GM and
observers see every unit (their picture is the whole board).

THE PICTURE (with results, STATUS and MAP). Columns are lettered above and
below the board, rows numbered left and right. Land is beige, water blue; a
shoreline hex's water runs as a band along each edge its water wedges face,
so two such bands facing each other are a strait. Hexes out of your sight
are darker, land and water still told apart. A results picture marks what
the phase did where it happened: a dashed trail for a move, a yellow burst
for a battle with each side's losses above it ("R -2"), a red cross on a
unit that perished or was sacrificed, "+n" where units were built or
placed. Your own units and marks are drawn larger and ringed in white
(House choice): a phone shows the picture at about a third of its size, and
what you look for first is what happened to your own units; the numbers
are in the text.

ORDERS (any case; one per line; unit names may be written RID3, RID-3 or
"Regular Infantry Division 3"; hexes are never guessed):
  Tactical:    RAD2 C4-D4   RID3 C4   RID3 HOLD   SACRIFICE TD5
               CEASEFIRE    NO CEASEFIRE    RETREAT RAD2 C4 (rule on)
  Deployment:  KEEP RID3 [hex]   POOL RID3   TRANSFORM AGHQ4   SACRIFICE TD5
  Bids:        BID 3
  Production:  BUY RID C4   BUY 3 RID C4   PLACE RID3 C4   SAVE 5 FAC1
A later order for a unit replaces an earlier one (in production the newest
mail replaces the whole set).
`)
	return b.String()
}
