# Seed 000 (a way of scoring "there are several"): the round's winner scores the average of the
# points left in the other players' hands, rounded down, instead of their sum.
module average_scoring "The winner scores the average of the points the others hold"

for classic

scoring {
  winner scores sum(each other as p: p.hand.points) / count(each other as p)
}
