# UNO Mario Kart (RULES.md section 8): no plain wild; eight Wild Item Box cards. An item box turns
# the top card of the draw pile onto the discard pile and applies its item, by its color:
# red mushroom (take another turn), yellow banana (the previous player draws 2), green shell (a
# chosen player draws 1), blue lightning (every other player draws 1, then take another turn), a
# wild is a bob-omb (the player draws 2, then names the color). Item box points: 50 (assumed).
rulebook mario_kart "UNO Mario Kart: item boxes instead of wilds"

extends classic

card wild_item_box {
  wild
  points 50
  on play:
    reveal
    if revealed.wild { draw 2; choose color }
    else if revealed.color == red { play again }
    else if revealed.color == yellow { previous draw 2 }
    else if revealed.color == green {
      choose other player
      chosen draw 1
    }
    else { each other draw 1; play again }
  on turn_up: next choose color
}

remove card wild

deck {
  8 × wild_item_box
}
