# RULES.md section 3: progressive stacking. A draw two answers a draw two and a wild draw four a
# wild draw four; the penalty adds up and passes on; the first player who does not answer draws
# the total and loses the turn. No wild draw four on a draw two, nor the reverse. The last wild
# draw four names the color. `stack_limit` caps a stack (Fast UNO sets 16).
module stacking "Draw twos stack on draw twos, wild draw fours on wild draw fours"

for classic
option stack_limit = 1000 "the most cards a stack may add up to"

react to draw_two with draw_two if penalty + 2 <= stack_limit:
  add 2
  pass attack to next

react to wild_draw_four with wild_draw_four if penalty + 4 <= stack_limit:
  choose color
  add 4
  pass attack to next
