# docs/language.md, section 10-expressions: its examples, for the TextMate grammar's snapshots
me
next
previous
dealer
current_color
top
player_count
streak
clockwise
first_card
just_drawn
eliminated_count
fewest_cards
most_cards
card
target
attacker
penalty
legal
challenger
chosen
revealed
candidate
winner
turn_player
swap seats
card is number
card.kind == 7
discard all 7
sum(each other as p [where COND]: V)
max(...: V)
min(...: V)
count(each player as p [where COND])
most(...: V)
fewest(...: V)
if COND then A else B
draw N
give N card
take N card
add N
choose one of low, high as level
