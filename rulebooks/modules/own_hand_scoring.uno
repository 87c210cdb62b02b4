# RULES.md section 1, alternative scoring (seeds 000, 004): everyone scores their own hand and the
# lowest total wins when someone reaches the target. Lay another `scoring { target 200 }` over it
# for the shorter game.
module own_hand_scoring "Each player scores their own hand; lowest total wins at 500"

for classic

scoring {
  each scores own hand
  target 500
}
