# RULES.md section 3: on a 7 the player swaps hands with a player of their choice; on a 0 every
# player passes their hand to the next player in the direction of play. Not when it was the
# player's last card (choice).
module seven_o "Sevens swap hands with a chosen player, zeros pass every hand on"

for classic

on play of 7 if me.hand.size > 0:
  choose other player
  swap hands with chosen

on play of 0 if me.hand.size > 0: pass hands
