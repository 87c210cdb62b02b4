# Test fixture (issue 58): a trigger switched on by a card's own rule fires for that card too
# (triggers run after the card's own rules); `explain` says so, and how to start from the next card.
rulebook curse "test fixture: until your next turn, whoever plays a card draws 1"

extends classic
flag cursed reset after next turn

card wild_curse {
  wild
  points 50
  on play:
    choose color
    set cursed
}

deck {
  1 × wild_curse
}

on play if cursed: draw 1
