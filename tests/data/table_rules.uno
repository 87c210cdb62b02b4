# Issue 29's constructs that run on the engine only (the generated code names its reason):
# attack hooks, the place in front of each player, table-wide play rules.
# tests/scenarios/house/*.yaml play them.
rulebook table_rules "Table rules"

extends classic
# lifetimes: after a wild, only number cards may be played until the wild's player's next turn is
# over, unless its player drew this turn; a player who drew is marked until their next turn begins
flag numbers_only reset after next turn
flag drew per player reset at next turn

# turn options other engines have: a turn may end without a play or a draw; a false UNO call
# costs two cards; a fresh deck when the draw pile and the discards are both spent
turn {
  may pass
  when the draw pile runs out: new deck
}

# an attack hook: a player on their last card passes any attack on to the player after them
on attacked if target.hand.size == 1 and penalty > 0:
  add 1
  pass attack to target.next

# the place in front of each player: a wild played while holding three cards or more stays in front
# of its player and comes back to their hand at their next turn; their front's points count at the
# round's end as a debt
on play of wild if me.hand.size > 2: put card in front of me

on turn_start if me.front.size > 0: move wild from me.front to hand

on round_end: each player as p where p.front.size > 0 score 0 - p.front.points

on play of wild: set numbers_only

on draw: set drew

# an open hand: the next player after a reverse plays with an open hand until their next turn
# ends, and so does the player a skip skips (the skipped turn counts: theirs is shown no more); a
# player who plays a wild draw four shows theirs until the round ends
on play of reverse: next shows hand until next turn ends

on play of skip: next shows hand until next turn ends

on play of wild_draw_four: shows hand until round ends

play only when not numbers_only or card is number or me.drew

false uno call: draw 2
