# A custom card that needed a workaround before named navigation: name a color, and the next two
# players both lose their turn. `next.next` is the player after the next, in the direction of play.
module skip_two "Wild Customizable: name a color, and the next two players are skipped"

for official

card wild_customizable {
  on play:
    choose color
    next lose turn
    next.next lose turn
}
