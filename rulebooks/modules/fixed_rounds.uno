# RULES.md section 10 (seed 000): the match ends after a fixed number of rounds (an option, 5 by
# default); the highest total wins. There is no target.
module fixed_rounds "The match lasts a fixed number of rounds; the highest total wins"

for classic
option match_rounds = 5 "how many rounds the match lasts"

remove scoring target

scoring {
  rounds match_rounds
}
