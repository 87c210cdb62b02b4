# UNO Dare (RULES.md section 10, seed 002): classic without Draw Two and Wild Draw Four. Per color 2
# `dare` (the next player performs a dare or draws 2, and loses the turn either way) and 8
# `wild_dare` (name a color; the next player performs a dare or draws 4); 20 and 50 points
# (assumed). A dare is a physical challenge: in simulation it succeeds with `dare_chance`.
rulebook dare "UNO Dare: dares instead of draw cards"

extends classic
option dare_chance = 0.5 "how often a player carries out a dare"

card dare {
  action
  points 20
  on play:
    next perform dare chance dare_chance { lose turn }
    else { draw 2; lose turn }
  on turn_up:
    next perform dare chance dare_chance { lose turn }
    else { draw 2; lose turn }
}

card wild_dare {
  wild
  points 50
  on play:
    choose color
    next perform dare chance dare_chance {}
    else { draw 4 }
  on turn_up: next choose color
}

remove card draw_two, wild_draw_four

deck {
  per color: 2 × dare
  8 × wild_dare
}
