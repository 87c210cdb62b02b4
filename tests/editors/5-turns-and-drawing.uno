# docs/language.md, section 5-turns-and-drawing: its examples, for the TextMate grammar's snapshots
on play
choose color
choose: blue
turn { ... }
drawn card may play
drawn card must play
drawn card is kept
drawn card must play when COND
card
draw until playable
draw only when stuck
play same face together
cap N turns
stalled
draw with { ACTIONS }
draw with { do press }
may pass
pass
play: false
when the draw pile runs out: new deck
new_deck
draw up to N cards
keep
choose player
choose one of
choose number
choose kind
choose: 2
choose: exact
choose: 5
choose: red 7
choose: [red 7, blue 2]
