# RULES.md section 3 (seed 004): the blank cards are "+10": the next player draws 10 and loses the turn.
module plus_ten "The blank Wild Customizable cards make the next player draw 10"

for official

card wild_customizable {
  on play:
    choose color
    attack next penalty 10 { draw penalty; lose turn }
}
