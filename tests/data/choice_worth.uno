# A blank wild with two choices whose answers are worth different amounts to its player
# (language/worth.py): greedy must punish (the next player draws 2) rather than gift (it draws 1
# itself), whichever is written first, and name the largest number when the next player draws it.
module choice_worth "choose gift or punish, then how many the next player draws"

for official

card wild_customizable {
  on play:
    choose color
    choose one of gift, punish as mode
    if mode == "punish" { next draw 2 }
    else { draw 1 }
    choose number from 1 to 3 as k
    next draw k
}
