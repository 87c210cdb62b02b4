module ring "Every player passes a card of their choice to their next player"

for official

card wild_customizable {
  on play:
    choose color
    each player give 1 card to next
}
