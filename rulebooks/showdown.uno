# UNO Showdown (RULES.md section 9, seed 002). Followed: the published rules as retold by rule
# sites (geekyhobbies, groupgames101, learningboardgames): classic play to 500; 112 cards: classic's
# 108 and 4 `wild_showdown`, and 20 of the colored cards carry a showdown icon. A card with the icon
# starts a face-off between its player and the next player in the order of play; the loser takes
# the cards the unit fires. A `wild_showdown` names the color and lets its player choose whom to
# face off with. Written out in full (not `extends classic`): the icon cards take the place of
# classic number cards.
# Modelled as a chance (the unit cannot be simulated): the face-off is a `perform` by the card's
# player, won with `showdown_chance` (even odds by default).
# Where the rules were silent (assumed): the icon cards are, per color, one each of 1 to 5 (in the
# place of one of classic's two copies), `showdown_1` to `showdown_5`, and they match as the number
# they show; the loser of a face-off takes 2 cards, 3 for a wild showdown; the wild showdown is
# worth 50 points.
rulebook showdown "UNO Showdown: cards with an icon start a face-off"

players 2..10
colors red yellow green blue
option showdown_chance = 0.5 "how often the player who starts a face-off wins it"

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

card showdown_1 {
  number
  matches as 1
  points 1
  on play:
    perform face_off chance showdown_chance { next draw 2 }
    else { draw 2 }
}

card showdown_2 {
  number
  matches as 2
  points 2
  on play:
    perform face_off chance showdown_chance { next draw 2 }
    else { draw 2 }
}

card showdown_3 {
  number
  matches as 3
  points 3
  on play:
    perform face_off chance showdown_chance { next draw 2 }
    else { draw 2 }
}

card showdown_4 {
  number
  matches as 4
  points 4
  on play:
    perform face_off chance showdown_chance { next draw 2 }
    else { draw 2 }
}

card showdown_5 {
  number
  matches as 5
  points 5
  on play:
    perform face_off chance showdown_chance { next draw 2 }
    else { draw 2 }
}

card wild_showdown {
  wild
  points 50
  on play:
    choose color
    choose other player as rival
    perform face_off chance showdown_chance { rival draw 3 }
    else { draw 3 }
  on turn_up: next choose color
}

deck {
  per color: 1 × 0, 1 × 1..5, 2 × 6..9, 2 × skip, 2 × reverse, 2 × draw_two
  per color: 1 × showdown_1, 1 × showdown_2, 1 × showdown_3, 1 × showdown_4, 1 × showdown_5
  4 × wild
  4 × wild_draw_four
  4 × wild_showdown
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
