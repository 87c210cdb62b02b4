# UNO BTS (RULES.md section 7, seed 002): classic plus four Wild Dance cards: name a color; the
# next player performs the dance or draws 3. In simulation the dance succeeds with `dance_chance`
# (or `simulate --perform-chance`).
rulebook bts "UNO BTS: classic plus four Wild Dance cards"

extends classic
option dance_chance = 0.5 "how often the next player's dance succeeds in simulation"

card wild_dance {
  wild
  points 50
  on play:
    choose color
    next perform dance chance dance_chance {}
    else { draw 3 }
  on turn_up: next choose color
}

deck {
  4 × wild_dance
}
