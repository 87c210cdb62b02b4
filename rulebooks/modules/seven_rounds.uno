# RULES.md section 10 (seed 004): the first time a player plays their last card they draw 6 and
# play on; the next time 5, then 4, 3, 2, 1. Going out after the refill of 1 wins the round.
# `refills` counts the refills each player has taken this round. A round lasts about seven times
# as long as a classic one, so the stall cap is seven times the default.
module seven_rounds "Going out refills your hand six times: 6, 5, 4, 3, 2, 1 cards"

for classic
counter refills per player reset each round

turn {
  cap 70000 turns
}

on play if me.hand.size == 0 and me.refills < 6:
  draw 6 - me.refills
  add 1 to refills
