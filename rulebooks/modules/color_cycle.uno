# RULES.md section 3 (seed 004): a wild names no color; the color becomes the next one in the
# fixed cycle of colors, in the direction of play.
module color_cycle "Wilds name no color: the color moves on in a fixed cycle"

for classic

card wild {
  on play: cycle color
  on turn_up: cycle color
}

card wild_draw_four {
  on play:
    cycle color
    attack next penalty 4 { draw penalty; lose turn }
}
