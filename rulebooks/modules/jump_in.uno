# RULES.md section 3: a player holding a card identical in color and face to the one just played
# may play it at once, out of turn; play continues from the jumper and the jumped-on card's effect
# is replaced by the jumper's. Never with wild cards; never on the round's first card. When
# several may jump in, the nearest in the direction of play is asked first. A player may jump in on
# their own card with its twin (seed 004: "play the first of two identical cards, then jump in with
# the other"), asked after the others, who may take the turn first.
module jump_in "Play an identical card out of turn"

for classic

jump in by anyone when card.kind == top.kind and card.color == top.color and not card.wild
