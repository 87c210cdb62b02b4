# docs/language.md, section 6-attacks-and-reactions: its examples, for the TextMate grammar's snapshots
attack P penalty N { ACTIONS }
react to draw_two with 0..2, skip, any action: ...
any number
any action
any wild
react to K with K2 [if COND]
add 2; pass attack to next
pass attack to attacker
on attacked [if COND]: ACTIONS
cancel attack
add N
double penalty
resolve attack
pass attack to P
flag next_draw_doubled
on attacked if next_draw_doubled:      # the next draw attack, whatever its card, counts double
  double penalty
  clear next_draw_doubled
