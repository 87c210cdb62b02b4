# RULES.md section 10 (seed 002): when the round ends, the players still holding cards are placed
# by the points left in their hands, fewest first, after the player who went out (ties: the first
# of them after the winner in the direction of play). Placings rank the players; the score is
# classic's.
module placings "Players left holding cards are placed by the points in their hands"

for classic

scoring {
  rank rest by me.hand.points
}
