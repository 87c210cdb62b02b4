# A custom card: name a color and play two more turns in a row. `plays_left` counts the extra turns
# still to come; each play in an extra turn uses one. A turn spent drawing ends the run (the count
# is cleared once that turn is over).
module two_more_plays "Wild Customizable: name a color, then play two more turns in a row"

for official
counter plays_left per player reset after next turn

card wild_customizable {
  on play:
    choose color
    set plays_left to 2
}

on play if me.plays_left > 0:
  add -1 to plays_left
  play again
