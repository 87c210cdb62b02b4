# A custom card that stays face up in front of its player and scores them 20 when the round ends
# (each charm in front of them; the charms are shuffled back for the next round).
module lucky_charm "Wild Customizable: name a color and keep the card in front of you; it scores you 20 when the round ends"

for official

card wild_customizable {
  on play:
    choose color
    put card in front of me
}

on round_end: each player as p where p.front.has(wild_customizable) score 20 * p.front.count(card.kind == wild_customizable)
