# Tutorial card 5 (seeds): "swap hands with the player holding the fewest cards". When several
# hold the fewest, the card's player chooses among them.
module swap_with_fewest "Wild Customizable: name a color and swap hands with the player holding the fewest cards"

for official

card wild_customizable {
  on play:
    choose color
    choose other player where candidate.hand.size == fewest_cards
    swap hands with chosen
}
