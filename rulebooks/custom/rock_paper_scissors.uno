# Tutorial card 4 (seeds): "the next player draws ten unless they win rock-paper-scissors".
# A physical challenge is a `perform`: in a scenario the script says whether it succeeded; in
# simulation it succeeds with the given chance (ties are replayed, so one in two).
module rock_paper_scissors "Wild Customizable: the next player draws 10 unless they win rock-paper-scissors against you"

for official
option rps_chance = 0.5 "how often the next player wins rock-paper-scissors in simulation"

card wild_customizable {
  on play:
    choose color
    next perform rock_paper_scissors chance rps_chance {}
    else { draw 10 }
}
