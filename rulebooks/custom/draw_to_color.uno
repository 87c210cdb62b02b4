# A custom card: name a color; every player who holds no card of that color (you too) draws until
# one comes (drawn wilds do not count).
module draw_to_color "Wild Customizable: everyone draws until they hold a card of the named color"

for official

card wild_customizable {
  on play:
    choose color
    each player as p if not p.hand.any(card.color == current_color) {
      draw until color current_color
    }
}
