# Test fixture (issue 58): `eliminate` (out of the game, every later round too) and `eliminate
# from round` (back in the next), by a card and by a rule as a turn begins; the last player left
# wins the round, scored as usual, and the last one left in the game wins it.
rulebook elimination "test fixture: eliminated from the round or the game"

extends classic
option mercy = 0 "a hand this big as its turn begins: out of the round (0: never)"
option mercy_hand = 0 "a hand grown this big, at any moment: out of the round (0: never)"

card wild_knockout {
  wild
  points 50
  on play:
    choose color
    next eliminate
}

card wild_bench {
  wild
  points 50
  on play:
    choose color
    next eliminate from round
}

card wild_wipeout {
  wild
  points 50
  on play:
    choose color
    each player eliminate from round
}

deck {
  1 × wild_wipeout
  1 × wild_knockout
  1 × wild_bench
}

on turn_start if mercy > 0 and me.hand.size >= mercy:
  eliminate from round
  draw 2

on hand reaches mercy_hand if mercy_hand > 0: eliminate from round

scoring {
  target 100
}
