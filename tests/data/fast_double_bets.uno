# A module over fast (issue 29): the bets before the cut pay double, and the 7 swap's defence is
# gone; it replaces and removes rules that fast names.
module fast_double_bets "Fast UNO's bets pay double, and a seven cannot be defended"

for fast

remove reaction seven_defence

replace trigger bets_paid:
  each other as p if (p.bet == 1) == cut_exact { score -100 }
  else { score 100 }
