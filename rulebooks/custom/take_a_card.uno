# A custom card: name a color, choose another player, look at their hand and take one card of your
# choice from it. Only you see the hand.
module take_a_card "Wild Customizable: look at a player's hand and take a card of your choice"

for official

card wild_customizable {
  on play:
    choose color
    choose other player where candidate.hand.size > 0
    take 1 card from chosen
}
