# Classic UNO: the 108-card game (RULES.md section 1).
rulebook classic "Classic UNO: 108 cards, 2 to 10 players, first to 500 points"

players 2..10
colors red yellow green blue

card 0..9 {
  number
  points card.rank
}

card skip {
  action
  points 20
  on play: next lose turn
  on turn_up: next lose turn
}

card reverse {
  action
  points 20
  on play:
    reverse
    if player_count == 2 { next lose turn }
  on turn_up:
    reverse
    play again
}

card draw_two {
  action
  points 20
  on play: attack next penalty 2 { draw penalty; lose turn }
  on turn_up: attack next penalty 2 { draw penalty; lose turn }
}

card wild {
  wild
  points 50
  on play: choose color
  on turn_up: next choose color
}

card wild_draw_four {
  wild
  points 50
  legal when not me.hand.any(card.color == current_color)
  on play:
    choose color
    attack next penalty 4 { draw penalty; lose turn }
  on turn_up: redraw
  challenge:
    if legal { target draw 2; resolve attack }
    else { attacker draw penalty; cancel attack }
}

deck {
  per color: 1 × 0, 2 × 1..9, 2 × skip, 2 × reverse, 2 × draw_two
  4 × wild
  4 × wild_draw_four
}

setup {
  hand 7
}

turn {
  drawn card may play
}

declare uno at 1 card: draw 2

scoring {
  winner scores others
  target 500
}
