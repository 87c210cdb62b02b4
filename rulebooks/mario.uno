# UNO Super Mario (RULES.md section 8, seed 002): classic plus two Wild Star and two Wild
# Customizable (White Mario). A Wild Star answers a draw two or wild draw four aimed at its player
# by sending the penalty back; its player names the color and the turn passes on. It is also a
# plain wild at any time.
rulebook mario "UNO Super Mario: classic plus Wild Stars that reflect draw attacks"

extends classic

card wild_star {
  wild
  points 50
  on play: choose color
  on turn_up: next choose color
}

card wild_customizable {
  wild
  points 50
  on play: choose color
  on turn_up: next choose color
}

deck {
  2 × wild_star
  2 × wild_customizable
}

react to draw_two, wild_draw_four with wild_star:
  choose color
  pass attack to attacker
