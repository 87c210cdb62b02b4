# UNO 50th anniversary (RULES.md section 10, seed 002): classic plus 4 `wild_fifty` (count
# assumed), 50 points. The player names two other players, one "UNO" and one "50", and flips a
# coin (even odds): on `uno` the "50" player draws 4, on `fifty` the "UNO" player draws 4; then
# the player names the color. With one other player (two at the table) that player is both.
# Four more cards that make a player draw four lengthen rounds: the stall cap is three times the
# default.
rulebook fifty "UNO 50th anniversary: classic plus the Wild 50 coin flip"

extends classic

card wild_fifty {
  wild
  points 50
  on play:
    choose other player as uno_player
    choose other player where candidate != uno_player or player_count == 2 as fifty_player
    chance coin {
      uno { fifty_player draw 4 }
      fifty { uno_player draw 4 }
    }
    choose color
  on turn_up: next choose color
}

deck {
  4 × wild_fifty
}

turn {
  cap 30000 turns
}
