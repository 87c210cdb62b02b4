# The official box's three blank cards, each with a rule of its own (issue 29): each copy becomes
# a card of its own kind, so the box keeps its 112 cards. The three rules: skip the next two
# players, every other player draws one, and swap hands with a chosen player. The blank card kind
# itself, with no copy left, goes.
module three_blanks "The three blank cards get three different rules"

for official

card blank_skip_two {
  wild
  points 40
  on play:
    choose color
    next lose turn
    next.next lose turn
  on turn_up: next choose color
}

card blank_everyone_draws {
  wild
  points 40
  on play:
    choose color
    each other draw 1
  on turn_up: next choose color
}

card blank_swap {
  wild
  points 40
  on play:
    choose color
    choose other player
    swap hands with chosen
  on turn_up: next choose color
}

replace 1 × wild_customizable with blank_skip_two
replace 1 × wild_customizable with blank_everyone_draws
replace 1 × wild_customizable with blank_swap

remove card wild_customizable
