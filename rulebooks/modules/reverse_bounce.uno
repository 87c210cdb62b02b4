# RULES.md section 3 (seed 004): a reverse of the current color answers a draw two or a wild draw
# four by sending it back to the player who played it.
module reverse_bounce "A reverse of the current color sends a draw attack back"

for classic

react to draw_two, wild_draw_four with reverse if card.color == current_color: pass attack to attacker
