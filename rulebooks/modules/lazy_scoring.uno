# RULES.md section 10 (seed 004): "lazy" scoring. Each round has a winner and a loser, and no
# points are kept: the round's winner leads the next round, and the player left with the most
# points in hand deals it (ties: the first of them after the winner in the direction of play, which
# is the order `most` reads the players in). The first card's rules treat the player before the
# leader as the dealer, so the leader plays first. Without totals there is no target: one round
# decides a game, or `rounds N` (the fixed_rounds module) makes it the most rounds won.
module lazy_scoring "No points: the winner leads the next round; the most points left in hand deals it"

for classic

remove scoring target

scoring {
  no points
  next dealer most(each other as p: p.hand.points)
  next leader winner
}
