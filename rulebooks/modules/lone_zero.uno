# RULES.md section 10 (seed 004): at scoring, a hand that holds exactly one card, a 0, counts that
# card 50 points. Any other 0 counts its face value, as in classic.
module lone_zero "A lone zero left in hand counts fifty"

for classic

card 0 {
  points if me.hand.size == 1 then 50 else card.rank
}
