# The official 2018 deck: 112 cards (RULES.md section 2).
rulebook official "Official UNO (2018): classic plus Wild Shuffle Hands and three Wild Customizable"

extends classic

card wild_shuffle_hands {
  wild
  points 40
  on play:
    choose color
    shuffle hands
  on turn_up: next choose color
}

# The blank card: with no rule written it is a plain wild. Give it an effect with a custom rule
# file (`--with my_rule.uno`) that redeclares `card wild_customizable { on play: ... }`.
card wild_customizable {
  wild
  points 40
  on play: choose color
  on turn_up: next choose color
}

deck {
  1 × wild_shuffle_hands
  3 × wild_customizable
}
