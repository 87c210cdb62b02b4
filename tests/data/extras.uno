# Test rulebook for the constructs no shipped rulebook uses: the cut, setting a color, clearing a
# counter, drawing until playable as an action, a draw trigger, and scoring by elimination and
# by a number of rounds.
rulebook extras "The remaining constructs"

extends classic
counter draws per player

card painter {
  wild
  points 50
  on play:
    set color green
    clear draws
}

card digger {
  action
  points 20
  on play: next draw until playable
}

deck {
  2 × painter
  per color: 1 × digger
}

setup {
  cut chance 0.5: score -5
}

on draw: add 1 to draws

scoring {
  each scores own hand
  eliminate above 20
  rounds 3
}
