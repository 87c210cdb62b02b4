# RULES.md section 10 (seed 004): the round's winner leads the next round, and the player left with
# the most points in hand deals it (ties: the first of them after the winner in the direction of
# play, which is the order `most` reads the players in). The first card's rules treat the player
# before the leader as the dealer, so the leader plays first.
module lazy_scoring "The winner leads the next round; the most points left in hand deals it"

for classic

scoring {
  next dealer most(each other as p: p.hand.points)
  next leader winner
}
