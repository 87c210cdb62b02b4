# A custom card: name a color, then name a number; every player (you too) discards all their cards
# of that number onto the discard pile, under its top card.
module name_a_number "Wild Customizable: name a number, and everyone discards all of it"

for official

card wild_customizable {
  on play:
    choose color
    choose number as n
    each player discard all n
}
