# Tutorial card 2 (seeds): "I give all my cards to the next player". A card that wins the round
# when you play it, unless somebody catches you first: the player's hand is empty afterwards.
module give_away "Wild Customizable: name a color and give your whole hand to the next player"

for official

card wild_customizable {
  on play:
    choose color
    give hand to next
}
