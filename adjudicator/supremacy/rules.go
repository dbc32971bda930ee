package supremacy

// RulesText is the players' reference (RULES): how the rulebook is played by
// mail, every order, and each choice made where the rulebook is silent.
const RulesText = `Supremacy 2020 by mail — players' reference

THE TURN. Set-up, then each turn: Salaries, Trade, Attack, Move, Build. The
game ends after the last turn (default 10), when one player is left, or in
nuclear winter; the highest net worth wins. The rulebook's cup is a seeded
draw, published with the results: each phase's order of play is drawn anew.

MAIL ROUNDS. By default each phase is one mail round: every player sends that
phase's orders by the deadline (a player who sends nothing takes the defaults
below) and the orders are carried out player by player in the drawn order,
each player's lines from top to bottom. Orders may be conditional (IF …:) on
prices, cash or control, so not seeing the earlier players' moves is no
handicap. The GM may start a game with steps=attack (the attack phase is
played step by step: the attacker's attack, then each defender's
counterattack, each a short phase with its own deadline; no answer = pass) or
steps=all (trade, attack, move and build are one player's step at a time).

ORDERS AHEAD. One mail may also carry the orders of the later phases of the
turn, each group under a line naming its phase: PHASE trade (or "In the
trade phase:", "Trade phase:"), its orders below it; the lines above the
first such line are the open phase's. Orders sent ahead are checked at once
as far as the position cannot change them (an order of another phase than
its section's is refused) and held until their phase opens; then they are
read against the position as if you mailed them at that moment, you are
told what was accepted and what, as things stand, will fail, and the phase
ends at once when every player has orders: a whole turn can be one mail
round. Conditions (IF …:) are read when the orders are carried out. A
later mail with a section for a phase replaces what is held for it; a
section line with nothing under it withdraws it. A phase of the turn that
is over, a phase played step by step, and anything during the set-up (a
turn of its own) cannot be ordered ahead.

ANYTIME ORDERS (any phase, any step, also when it is not your step):
  LOAN 5000 / REPAY 1000         World Bank loans, in $1,000 BL units. Interest
                                 is due at salaries on the highest loan held
                                 since the last salaries (repaying early still
                                 owes it).
  BUY BONDS 2000 / SELL BONDS 1000
  SEIZE <company> / SEIZE ALL [IN <area>]   companies in areas you control.
  OFFER [n] TO <power>: <items> [FOR <items>]   items: $500, 2 OIL, a company
      (trade phase), 3 ARMIES IN <area>, 1 ICBM, 1 ABM (built this turn, build
      phase). Cash may change hands in any phase: a personal loan is an offer
      of cash for nothing; its repayment is another offer (never enforced).
      The receiver is mailed the offer as soon as it is sent, with the lines
      to answer it; a changed or withdrawn offer is mailed too, and the
      offerer is told of each answer. A phase that would end early (every
      order in) waits until every offer has an answer; at the deadline an
      unanswered offer lapses.
  ACCEPT <power> [n] [PLACE <area>, <sea>][: <terms>]   accepted offers are
      carried out at the end of the phase if both sides can deliver; bought
      forces are placed like builds (in the areas named, else your first valid
      home). With the terms quoted (ACCEPT usa 1: $1000 FOR 2 OIL, as the
      offer mail writes it) only those terms are accepted: an offer changed
      since needs a new answer. Without them (a deal arranged in press) it
      accepts whatever offer n reads at the end of the phase.
  REFUSE <power> [n]   the offer is not carried out.
STANDING ORDERS (stay until changed; a mail with reactions replaces them all):
  IF ATTACKED [BY <power>] [IN <area>]: ATTACK … / LAUNCH …   your counterattack
  IF ATTACKED [BY <power>] [IN <area>]: MOVE … (RAIL, AIRLIFT, TRANSPORT)
      your one reinforcing move after an attack on you. The first reaction
      that matches, holds and can be carried out is used; NO REACTIONS clears.
  CONTEST <sea>|ALL [AGAINST <power>] [ROUNDS n]   fight an active enemy fleet
      in a sea where your navies are (0 = until one side is gone); NO CONTEST.
  PERMIT|DENY <power>|ALL [THROUGH <choke point>|ALL]   passage through the
      choke points whose control area you control (default: denied).
  ABM DEFEND OWN|ALL|OFF|<powers>   which ICBMs your ABMs fire at (default OWN:
      those aimed at your areas and your fleets), spread evenly over them.
  ABM 2 AT mos, 1 AT tokyo   in step play, while a declared launch awaits
      confirmation: where each of your ABMs fires (instead of the policy).
  LOSSES mos, AFLOAT, soj   which of your attacking pieces are removed first
      for hits (the seed: players select their own losses): a land area's
      attacking armies, AFLOAT your armies carried by sea, a sea's firing
      navies; what is not listed follows the default. LOSSES DEFAULT clears.
SET-UP: PLACE 6 ARMIES IN <home>, 3 NAVIES IN <sea next to a home> (9 in all;
  the rest become armies spread over your homes). MISDEAL (once): your hand
  goes back and you draw a new one before placing.
SALARIES (one round, everybody at once): OPEN/CLOSE <company>|ALL, DISBAND n
  ARMIES|NAVIES IN <area> (not paid), BLOCKADE <company>. Without OPEN/CLOSE
  your companies open as far as cash allows after the forces' pay and the
  interest. Forces you cannot pay are disbanded (largest stacks first). If the
  interest cannot be paid, bonds are sold and the bank lends (up to the loan
  limit) before a default; a default is bankruptcy. Production goes into the
  Strategic Reserve up to its columns; the rest is lost. A blockade takes an
  open company's production when every sea next to its area holds a navy of
  one of the blockaders (all who order BLOCKADE of it; they may share a sea)
  and none of the company's owner (the enemy: one navy of his breaks it;
  other players' navies neither help nor hinder); the first of them in the
  drawn order with room takes it, the owner keeps paying. Blockaded companies
  count $600 BL of net worth until the next salaries.
TRADE: BUY 3 OIL / SELL 2 GRAIN — three trades a turn, one resource per trade,
  never buying and selling the same resource in a turn; each trade is at the
  current price and then moves the marker one space per unit. IF OIL PRICE AT
  MOST 600: BUY 3 OIL (also BELOW, ABOVE, AT LEAST, IS; CASH …; I CONTROL <area>,
  <power> CONTROLS <area>, NOT …). Private trades: OFFER/ACCEPT, carried out
  after every market trade.
ATTACK (a player may attack again and again until he passes or runs out):
  ATTACK ukr FROM mos, vol, cau        one set of supplies, up to 3 activations
  ATTACK bal FROM stp AND pol FROM blr    several targets
  ATTACK ukr FROM mos BLITZ 3          rounds against one target
  ATTACK kor FROM jap VIA soj [TO ecs] BLITZ 2   naval invasion (1 extra oil)
  ATTACK kor FROM ecs [TO soj]          navies fire at the coast
  ATTACK china IN soj FROM npo          naval combat (navies sail in first)
  … STAY                                the land armies do not occupy
  … LEAVE 1 IN mos, 2 IN vol            those stay behind, the rest occupy
  REINFORCE MOVE mos - ukr              (line after an ATTACK) your one move
  LAUNCH 2 AT mos, 1 AT tokyo           strategic attack (ICBMs are used up;
                                        no reinforcing move follows it)
  PASS                                  no (further) attack
  CONFIRM / CALL OFF                    step play: a declared launch
  Activations: each source area, each carrying fleet, and each extra blitz
  round of each source. All pieces of an activated area attack. Navies that
  sail before combat pay 1 oil per sea they end in (one group move, however
  many seas they come from); a naval transport pays it even if its navies
  stay. Hits on 4–6; the defender's hits fall where the attacker's LOSSES
  order says, then on the largest group of attacking armies, the armies
  afloat, the firing navies; in naval combat each side loses navies not
  carrying armies first (a fixed rule: a carrier sinks with its armies).
  Carrying navies and carried armies do not fire at sea; landed armies
  fight; invaders who do not take the area are lost. Navies carry 3 armies
  each. Minor powers raise 1d6/2 armies (rounded up), an unplayed
  superpower's home 1d6, each time they are attacked, plus armies they
  bought; their bought navies fire in their defence; they lose the raised
  armies first, then navies, then bought armies; a minor area held by a
  player raises none. High tech edge: the player with strictly the most
  ABMs re-rolls up to 3 dice per attack he fights in, contest rounds at sea
  included (the enemy's hits on him first, then his misses). ABMs kill on
  2–6, 3–6 over an area their owner does not control; each ABM fires once per
  strategic attack. A city hit destroys its companies; an area is
  contaminated (out of play, all pieces and companies in it destroyed) when
  its last city is hit. Sea hits sink every navy there. From the 12th land
  detonation each one rolls for nuclear winter (6, +1 per later one).
  Counterattacks (one per defender per attack, drawn order) are single
  attacks and draw no counterattack. Minors with ICBMs fire all of them at
  the home cities of any player who attacks them, conventionally or with
  ICBMs (even a strike that destroys the minor: it fires as the strike
  comes). Reinforcing moves (IF ATTACKED: MOVE …, REINFORCE) follow a
  conventional attack only.
MOVE: MOVE 3 mos - ukr, 2 mos - blr (1 grain: from one area, or into one
  area); armies move 1 area into areas you control; navies up to 3 seas (1
  oil) into and through seas without other navies. RAIL 4 sib - mos (1 oil,
  any distance through land you control). AIRLIFT 3 mos - ukr (1 oil, 3
  armies to any area you control). TRANSPORT 3 jap - kor VIA soj [TO ecs] (1
  oil, 3 armies per navy). Choke points need their controller's PERMIT.
BUILD: BUILD 3 ARMIES IN mos / BUILD 2 ARMIES IN mos, 1 NAVY IN blt ($300 +
  1 set per 3), BUILD 1 ICBM ($500 + 1 minerals), BUILD 1 ABM ($1,000 + 2
  minerals); armies in controlled home cities, navies in seas next to them.
  RESEARCH OIL|MINERALS|GRAIN|ICBM|ABM [MAX n] — 3 attempts, $200 a card
  turned; a destroyed company card turned up ends the attempt in failure,
  whatever its type (seed: "the money is wasted"). In the
  turn a technology is found, one piece of it may be built for minerals only.
  SELL 3 ARMIES IN mos TO kaz / SELL 3 NAVIES IN blt TO pol / SELL 1 ICBM TO
  mex (pieces built this turn; minors pay twice the cash cost; navies only
  to a minor with a coast, where they are kept off its coast, not in a sea
  of the board); BUY BACK 1 ICBM FROM mex (twice what the minor paid; the
  weapons are disarmed).
CONQUEST (end of the attack phase): a player whose undestroyed home cities
  are all held by others is out; the player who took the last of them gets
  his cash, bonds, Strategic Reserve and a second reserve card (twice the
  room); loans are erased; his companies are open to seizure. A player whose
  cities are all destroyed (or whose last free city was destroyed) leaves with
  his net worth written down; it still counts at the end.
NET WORTH: cash − loans + bonds, $1,200 per company ($600 blockaded), $200 per
  army or navy, $1,000 per ICBM, $2,000 per ABM. Reserve stocks do not count.
OPTIONS (set by the GM at creation): fast (6 cards, ICBM technology for all),
slow (no ICBM/ABM research before turn 3), turns, steps, powers.
THE PICTURE with each result shows the whole board (it is open to all) and
  what the phase did: moves as arrows, attacks on land or at sea as thicker
  arrows with a burst on the border (grey with a red cross: it failed),
  ICBMs as dashed arcs to a red burst (or a cross: shot down), blockades and
  seizures as rings round the company; its legend says which is which. Your
  own picture draws your events (what you did, and what was done to you)
  larger, numbers them, and lists them in large type under the legend: the
  world does not fit a phone screen legibly, but that list and the numbers
  on the map do, so on a phone you see what happened to your forces without
  zooming, and zoom only to read the rest of the world. Observers and the GM
  get the picture without the list.`
