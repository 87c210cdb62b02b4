# RULES.md section 1, alternative scoring (seed 000): a zero left in hand counts 10 points.
module zero_counts_ten "A zero left in hand counts 10 points"

for classic

card 0 {
  points 10
}
