# A house rule: the last card of a color in your hand may be played on anything (it need not match
# the top card or the current color), whatever its kind.
module last_of_a_color "The last card of a color in your hand may be played on anything"

for official

may play on anything when not card.wild and me.hand.count(c where c.color == card.color) == 1
