# The 2018 printing with Wild Swap Hands (RULES.md sections 2 and 10, seed 001): official with one
# `wild_swap_hands` in place of `wild_shuffle_hands`: name a color and swap hands with a chosen
# other player; 40 points. As the first card, the player left of the dealer names the color.
rulebook official_swap "Official UNO (2018), the printing with Wild Swap Hands instead of Wild Shuffle Hands"

extends official

card wild_swap_hands {
  wild
  points 40
  on play:
    choose color
    choose other player
    swap hands with chosen
  on turn_up: next choose color
}

remove card wild_shuffle_hands

deck {
  1 × wild_swap_hands
}
