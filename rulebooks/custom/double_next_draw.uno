# A custom card: the next draw card played (a Draw Two, a Wild Draw Four, or a draw card a later
# module adds) has its penalty doubled. The attack hook holds for every attack, whatever the card.
module double_next_draw "Wild Customizable: name a color; the next draw attack's penalty is doubled"

for official
flag next_draw_doubled

card wild_customizable {
  on play:
    choose color
    set next_draw_doubled
}

on attacked if next_draw_doubled:
  double penalty
  clear next_draw_doubled
