# RULES.md section 3 (seed 004): a draw two is answered by a draw two of any color without adding
# up (the last player draws 2); a wild draw four may be answered by a draw two of the named color
# (the last player then draws 2). A guilty wild draw four goes back to the bluffer's hand, who also
# draws 4 and loses the turn.
module defend_two "Draw twos defend without adding up; guilty wild draw fours go back"

for classic

card wild_draw_four {
  challenge:
    if legal { target draw 2; resolve attack }
    else {
      take back card
      attacker draw penalty
      attacker lose turn
      cancel attack
    }
}

react to draw_two with draw_two: pass attack to next

react to wild_draw_four with draw_two if card.color == current_color:
  add -2
  pass attack to next
