# Test rulebook for the language's loops: block subjects, named loop players, navigation, and
# the round's start and end rules.
rulebook loops "Loops and navigation"

extends classic

card each_if {
  wild
  points 50
  on play:
    choose color
    each other if me.hand.size > 1 { draw 1 }
}

card rich_pay {
  wild
  points 50
  on play:
    choose color
    each other as p where p.hand.size > 3 draw p.hand.size - 3
}

card skip_two {
  action
  points 20
  on play:
    next lose turn
    next.next lose turn
}

card chain {
  wild
  points 50
  on play:
    choose color
    each player as p { p.next draw 1 }
}

card each_chance {
  wild
  points 50
  on play:
    choose color
    each other chance coin {
      heads { draw 2 }
      tails {}
    }
}

deck {
  per color: 1 × skip_two
  2 × each_if
  2 × rich_pay
  2 × chain
  2 × each_chance
}

on round_start: dealer score 7

on round_end: score 3
