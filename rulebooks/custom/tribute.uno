# Tutorial card 3 (seeds): "each other player gives me one card of their choice".
module tribute "Wild Customizable: name a color; every other player gives you a card of their choice"

for official

card wild_customizable {
  on play:
    choose color
    each other give 1 card to me
}
