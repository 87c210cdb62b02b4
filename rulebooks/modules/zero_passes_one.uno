# RULES.md section 10 (seed 004): on a 0 every player chooses one card of their hand and passes it
# to the next player in the direction of play, all at once: nobody passes on a card just received.
module zero_passes_one "On a zero, everyone passes one card of their choice to the next player"

for classic

on play of 0: each player as p give 1 card to p.next at once
