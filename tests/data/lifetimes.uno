# Test rulebook for the lifetimes of values across skipped turns, reversals and players who are
# out (tests/scenarios/language/lifetimes.yaml): each card marks the next player with a value of
# every lifetime, then skips them, or puts them out, or does neither.
rulebook lifetimes "Every lifetime of a value, across skips, reverses and players out"

extends classic
flag until_next per player reset after next turn
counter this_turn reset each turn
counter this_round per player reset each round
counter kept per player

rule mark:
  next set until_next
  add 1 to this_turn
  next add 1 to this_round
  next add 1 to kept

card mark_plain {
  wild
  points 50
  on play:
    choose color
    do mark
}

card mark_skip {
  wild
  points 50
  on play:
    choose color
    do mark
    next lose turn
}

card mark_out {
  wild
  points 50
  on play:
    choose color
    do mark
    next eliminate
}

deck {
  2 × mark_plain
  2 × mark_skip
  2 × mark_out
}

# the values are read, so that validate has nothing to warn of
on turn_start if me.until_next or me.this_round > 5 or me.kept > 5 or this_turn > 5: set this_turn to 0
