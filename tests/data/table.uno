# Test fixture (issue 13): further plays, several draws a turn, places that end a round, the
# out-of-turn order fixed clockwise, a rule that wins the round, team and place attributes.
rulebook table "test fixture: the table's shape"

extends classic
out of turn order clockwise

card wild_more {
  wild
  points 50
  on play:
    choose color
    may play where card.color == current_color
}

card wild_win {
  wild
  points 50
  on play:
    choose color
    if me.team == me.seat and me.partner == me and me.place == 0 { win round }
}

card wild_sweep {
  wild
  points 50
  on play:
    clear pile
    choose color
}

deck {
  1 × wild_more
  1 × wild_win
  1 × wild_sweep
}

turn {
  draw up to 2 cards
}

jump in

scoring {
  places 2
}
