# A custom card: until your next turn, everyone must play a red card (no wild, and a kind a later
# module adds is locked too). The lock ends as your next turn begins, or is skipped. A player with
# no red card draws as usual.
module red_lock "Wild Customizable: until your next turn, every player must play red"

for official
flag red_locked reset at next turn

card wild_customizable {
  on play:
    set color red
    set red_locked
}

play only when not red_locked or card.color == red
