# A custom card that needed a workaround before named navigation: name a color, and the next two
# players both lose their turn. `next.next` is the player after the next, in the direction of play.
# With two players the player after the next is the card's own player: the other player is
# skipped, then you are, so the other player plays next (the two skips cancel out).
module skip_two "Wild Customizable: name a color, and the next two players are skipped"

for official

card wild_customizable {
  on play:
    choose color
    next lose turn
    next.next lose turn
}
