# Fast UNO (RULES.md section 5, seed 000, South African UNO League): killer rules plus the 7 swap
# with its defence, wild draw four stacks up to 16 cards, the cut, and the hat trick.
# Not modelled: the bets on the cut (no rational player takes a 1-in-15 bet at even money).
rulebook fast "Fast UNO: killer with the 7 swap and its defence, capped stacks, the cut and the hat trick"

extends killer
option stack_limit = 16 "wild draw fours add up to at most 16 cards"
option cut_chance = 0.0667 "how often the dealer cuts exactly 7 cards per player (assumed 1/15)"

setup {
  cut chance cut_chance: score -50
}

# A 7 swaps hands with a chosen player, unless that player defends with a 7 of their own: then the
# defender names another player with whom the first 7's player must swap.
react to 7 with 7:
  choose other player where candidate != attacker
  attacker swap hands with chosen
  cancel attack

on play of 7 if me.hand.size > 0:
  choose other player
  attack chosen { swap hands with attacker }

# The hat trick: the same face three times in a row lets its player swap seats with a player of
# their choice; a fourth or later in a row lets that player swap any two players' seats.
on play if streak == 3:
  choose other player
  swap seats with chosen

on play if streak >= 4:
  choose player as first_seat
  choose player where candidate != first_seat as second_seat
  first_seat swap seats with second_seat
