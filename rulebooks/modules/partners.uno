# RULES.md section 10 (seed 002): four players in two teams, partners sitting opposite (seats 0
# and 2, 1 and 3). A team wins the round when either partner goes out; the partner who went out
# scores the points left in the two opponents' hands (the partner's own cards count for no one),
# and a team's score is its members' sum: the first team to 500 wins the match.
module partners "Two teams of two, partners opposite: a team wins when either partner goes out"

for classic
players 4..4
teams of 2 partners opposite
