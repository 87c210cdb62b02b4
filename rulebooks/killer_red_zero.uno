# Killer UNO with the red zero (RULES.md section 4): the red 0 is a "draw ten": the next player
# draws 10 and loses the turn. The other zeros pass hands as in killer.
rulebook killer_red_zero "Killer UNO where the red 0 makes the next player draw ten"

extends killer
option red_zero_draws_ten = true "the red 0 is a draw ten instead of a hand pass"

card 0 {
  on play:
    if card.color == red {
      attack next penalty 10 { draw penalty; lose turn }
    }
}
