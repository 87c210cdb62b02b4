# RULES.md section 3 (seed 004): on a 5, exchange one card with a chosen player, each choosing the
# card they give.
module five_exchange "A 5 exchanges one card with a chosen player"

for classic

on play of 5 if me.hand.size > 0:
  choose other player
  exchange card with chosen
