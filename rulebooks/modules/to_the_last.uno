# RULES.md section 10 (seed 004): the round goes on after the first player goes out, until one
# player still holds cards. The first out wins the round and scores as usual (the cards left in
# the last hand); the others take places in the order they go out, and the one left holding cards
# has lost: the last place. Who goes out sits out the rest of the round.
module to_the_last "The round goes on until one player is left holding cards"

for classic

scoring {
  play to the last
}
