# UNO All Wild (RULES.md section 10, seed 002): 112 cards, every one wild, no colors at all, so
# everything matches everything. 14 each of eight kinds (counts assumed); the plain wild scores 20,
# the others 50. The draw cards are plain draws: with no colors there is nothing to bluff about.
rulebook all_wild "UNO All Wild: 112 wild cards, no colors"

players 2..10

card wild {
  wild
  points 20
}

card wild_reverse {
  wild
  points 50
  on play: reverse
  on turn_up: reverse
}

card wild_skip {
  wild
  points 50
  on play: next lose turn
  on turn_up: next lose turn
}

# With two players `next.next` is the card's own player: the other player is skipped, then you
# are, so the other player plays next (the two skips cancel out).
card wild_skip_two {
  wild
  points 50
  on play:
    next lose turn
    next.next lose turn
}

card wild_draw_two {
  wild
  points 50
  on play: attack next penalty 2 { draw penalty; lose turn }
  on turn_up: attack next penalty 2 { draw penalty; lose turn }
}

card wild_draw_four {
  wild
  points 50
  on play: attack next penalty 4 { draw penalty; lose turn }
  on turn_up: redraw
}

card wild_targeted_draw_two {
  wild
  points 50
  on play:
    choose other player
    chosen draw 2
}

card wild_forced_swap {
  wild
  points 50
  on play:
    choose other player
    swap hands with chosen
}

deck {
  14 × wild
  14 × wild_reverse
  14 × wild_skip
  14 × wild_skip_two
  14 × wild_draw_two
  14 × wild_draw_four
  14 × wild_targeted_draw_two
  14 × wild_forced_swap
}

declare uno at 1 card: draw 2

scoring {
  winner scores others
  target 500
}
