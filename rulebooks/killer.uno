# Killer UNO (RULES.md section 4, seed 000): classic with draw to match, stacking, jump-in (a wild
# draw four may jump in at any time) and the 0 rule: a 0 passes every hand to the next player in
# the direction of play, even as the last card, whose player then receives a hand and plays on.
rulebook killer "Killer UNO: draw to match, stacking, jump-in, zeros pass every hand"

extends classic
include draw_to_match, stacking
option red_zero_draws_ten = false "the red 0 is a draw ten instead of a hand pass (killer_red_zero)"

on play of 0 if not red_zero_draws_ten or card.color != red: pass hands

jump in when card.kind == top.kind and card.color == top.color and not card.wild or card.kind == wild_draw_four
