# Test fixture (issue 58): `just_drawn` means the same wherever it is read: a card's own
# `playable when` and an `on play` rule (just_drawn_table.uno: the table's `play only when`).
rulebook just_drawn "test fixture: the card just drawn"

extends classic

card wild_patient {
  wild
  points 50
  playable when not just_drawn
  on play: choose color
}

card wild_fresh {
  wild
  points 50
  on play:
    choose color
    if just_drawn { next draw 1 }
}

deck {
  1 × wild_patient
  1 × wild_fresh
}
