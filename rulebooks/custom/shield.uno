# A custom card kept face up in front of its player: it blocks the next draw attack against them,
# whatever the card (a draw card a later module adds too), and is spent when it does.
module shield "Wild Customizable: name a color and keep the card in front of you; it blocks the next draw attack on you"

for official

card wild_customizable {
  on play:
    choose color
    put card in front of me
}

on attacked if penalty > 0 and target.front.has(wild_customizable):
  cancel attack
  discard wild_customizable from target.front
