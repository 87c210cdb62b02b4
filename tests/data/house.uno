# A test rulebook for engine mechanics that classic and official do not use: reactions, jump-in,
# choosing a player, swapping seats, elimination.
rulebook house "Classic with a few house mechanics, for the scenario tests of the engine"

extends classic

card 7 {
  on play:
    choose other player
    swap hands with chosen
}

card 5 {
  on play:
    choose other player
    swap seats with chosen
}

card 1 {
  on play: if me.hand.size > 3 { eliminate }
}

react to draw_two with draw_two:
  add 2
  pass attack to next

react to wild_draw_four with reverse if card.color == current_color: pass attack to attacker

jump in when card.kind == top.kind and card.color == top.color and not card.wild
