# A test fixture seeded with twelve different errors: structural ones (an empty range, a card
# declared twice, a setting given twice) must not hide the name and type errors.
rulebook ten
extends classic
players 4..2
card boom {
  wild
  points "fifty"
  on play: set color bleu
}
card boom { wild }
card zap {
  action
  on play:
    next draw -3
    choose other player where candidate.hand.sise > 0
    nxt draw 1
}
turn {
  cap 100 turns
  cap 200 turns
}
deck { 2 × boom
  per color: 1 × zap, 1 × zup }
rule again: do again
on turn_start if me.hand.size: score 1
react to skip with skipp: cancel attack
