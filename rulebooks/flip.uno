# UNO Flip (RULES.md section 6): 112 double-faced cards, a light side and a dark side. Which light
# face pairs with which dark face is not documented: they pair by a seeded shuffle (choice).
rulebook flip "UNO Flip: 112 double-faced cards with a light side and a dark side"

players 2..10
side light colors red yellow green blue
side dark colors pink teal orange purple
pair sides shuffled
option flip_pile = "whole" "how the discard pile turns on a flip: whole (its bottom card comes on top) or top"

card 1..9 {
  number
  points card.rank
}

card draw_one {
  action
  side light
  points 10
  on play: attack next penalty 1 { draw penalty; lose turn }
  on turn_up: attack next penalty 1 { draw penalty; lose turn }
}

card draw_five {
  action
  side dark
  points 20
  on play: attack next penalty 5 { draw penalty; lose turn }
  on turn_up: attack next penalty 5 { draw penalty; lose turn }
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

card skip {
  action
  side light
  points 20
  on play: next lose turn
  on turn_up: next lose turn
}

card skip_everyone {
  action
  side dark
  points 30
  on play: play again
  on turn_up: play again
}

# Every card turns over: hands, draw pile and discard pile: the pile as a whole (choice), or with
# `--option flip_pile=top` keeping its order, its top card showing its other face.
card flip {
  action
  points 20
  on play:
    flip pile flip_pile
    if top.wild { choose color }
}

card wild {
  wild
  points 40
  on play: choose color
  on turn_up: next choose color
}

card wild_draw_two {
  wild
  side light
  points 50
  legal when not me.hand.any(card.color == current_color)
  on play:
    choose color
    attack next penalty 2 { draw penalty; lose turn }
  on turn_up: redraw
  challenge:
    if legal { target draw 2; resolve attack }
    else { attacker draw penalty; cancel attack }
}

card wild_draw_color {
  wild
  side dark
  points 60
  legal when not me.hand.any(card.color == current_color)
  on play:
    choose color
    attack next { draw until color current_color; lose turn }
  on turn_up: redraw
  challenge:
    if legal { target draw 2; resolve attack }
    else { attacker draw until color current_color; cancel attack }
}

deck side light {
  per color: 2 × 1..9, 2 × draw_one, 2 × reverse, 2 × skip, 2 × flip
  4 × wild
  4 × wild_draw_two
}

deck side dark {
  per color: 2 × 1..9, 2 × draw_five, 2 × reverse, 2 × skip_everyone, 2 × flip
  4 × wild
  4 × wild_draw_color
}

setup {
  hand 7
}

declare uno at 1 card: draw 2

scoring {
  winner scores others
  target 500
}
