# The constructs of issue 29, each in a rule of its own (tests/scenarios/house/*.yaml play them).
rulebook house_rules "House rules"

extends classic
# a bounded loop: the launcher is pressed until cards fire, five presses at most
flag fired

# a card category as a condition: the skip hits harder while you still hold another action card
card skip {
  action
  points 20
  on play:
    if me.hand.any(card is action) { next draw 2 }
    else { next lose turn }
}

# a reverse that goes only on a number card (or on a wild's colour)
card reverse {
  action
  points 20
  playable when top is number or top is wild
  on play: reverse
}

card launcher {
  wild
  points 50
  on play:
    choose color
    repeat until fired at most 5 {
      chance launch {
        fire weight 1 { next draw 2; set fired }
        miss weight 2 {}
      }
    }
    clear fired
}

# a local value, and a score set outright: the thief takes the richest player's score, and that
# player's score drops to half of it (rounded down)
card thief {
  action
  points 20
  on play:
    let richest = most(each other as p: p.score)
    let loot = richest.score
    set score of richest to loot / 2
    score loot - loot / 2
}

deck {
  2 × launcher
}

deck {
  per color: 1 × thief
}

# an answer that doubles the penalty: a draw two on a draw two doubles it and passes it on
react to draw_two with draw_two:
  double penalty
  pass attack to next

# jumping in by anyone: the card's own player may jump in on it with its twin, after the others
jump in by anyone

# the winner scores the average of the others' points, doubled
scoring {
  winner scores 2 * sum(each other as p: p.hand.points) / count(each other as p)
}
