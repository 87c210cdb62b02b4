# RULES.md section 3 (seed 000): several cards of the same number or symbol may be played together
# if the first one matches; each card's effect applies, in order, and the last one sets the color.
module multi_play "Play several cards of the same face at once"

for classic

turn {
  play same face together
}
