# UNO Emoji (RULES.md section 9, seed 002). Followed: the published rules as retold by rule sites
# (unorules.com, notanothergamestore): classic play to 500 with 112 cards; a `wild_emoji` is a wild
# whose player may also play any number card (an "emoji face", 0 to 9, any color) with it; the
# next player must then hold that face until they play again, or draw 4; the emoji card's player
# names the color that resumes play. The blank `wild_customizable` cards take a house rule
# written before the game; with none written they are plain wilds (a custom rule file gives them
# one, as for `official`). As first card either lets the player to the dealer's left play any card
# (here: name the color).
# Modelled as a chance: holding the face (`face_chance`, assumed 0.5), as `bts` does its dance.
# Assumed: 2 `wild_emoji` and 2 `wild_customizable` (the 4 cards past classic's 108), 50 points.
rulebook emoji "UNO Emoji: a wild whose face the next player must hold"

extends classic
option face_chance = 0.5 "how often the next player holds the emoji face until their next play"

card wild_emoji {
  wild
  points 50
  on play:
    may play any card where card.rank > 0 or card.kind == 0
    choose color
    next perform hold_the_face chance face_chance {}
    else { draw 4 }
  on turn_up: next choose color
}

card wild_customizable {
  wild
  points 50
  on play: choose color
  on turn_up: next choose color
}

deck {
  2 × wild_emoji
  2 × wild_customizable
}
