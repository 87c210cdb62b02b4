# docs/language.md, section 4-actions: its examples, for the TextMate grammar's snapshots
next draw 2
each other draw 1
each player lose turn
next.next lose turn
each other
each player
each other if me.hand.size > 3 { draw 1 }
each other as p where p.hand.size > 3 draw 1
each player as p { p.next draw 1 }
each player give 1 card to next
each other { next draw 1 }
on play
declare
me
attack
react
challenge:
perform
draw N
draw until color C
draw until color current_color
draw until playable
lose turn
next lose turn
play again
reverse
choose color
next choose color
set color C
set color red
cycle color
choose [other] player [where COND] [as NAME]
choose other player where candidate.hand.size > 0
swap hands with P
swap hands with chosen
pass hands
shuffle hands
flip
give N cards to P
give 1 card to next
give hand to P
exchange card with P
discard all C
discard all red
score N
score -50
eliminate
if me.hand.size >= 25 { eliminate }
eliminate from round
next eliminate from round
swap seats with P
reveal
redraw
attack P [penalty N] { ACTIONS }
attack next penalty 2 { draw penalty; lose turn }
add N
double penalty
pass attack to P
pass attack to next
cancel attack
resolve attack
take back card
if C { } else if C { } else { }
chance NAME { OUTCOME [weight W] { } ... }
chance coin { heads { } tails { } }
perform NAME [chance P] { } [else { }]
next perform dance chance 0.5 {} else { draw 3 }
repeat until C at most N { ACTIONS }
repeat until fired at most 5 { chance launch { fire weight 1 { next draw 2; set fired } miss weight 2 {} } }
give N cards [where COND] to P [at once]
each player as p give 1 card to p.next at once
take N cards [where COND] from P
take 1 card from chosen
look at P.hand
look at chosen.hand
shows hand until next turn ends
until round ends
next shows hand until next turn ends
put C in front of P
put card in front of me
discard K from P.front
discard shield from target.front
move K from P.front to hand
move lucky_charm from me.front to hand
discard all n
choose one of A, B, ... as NAME
choose one of missed, exact as guess
choose number from LOW to HIGH as NAME
choose number from 1 to 3 as k
choose number as NAME
choose number as n
choose kind [where COND] as NAME
choose kind where candidate != wild as q
let NAME = V
let loot = chosen.score
set score of P to V
set score of chosen to chosen.score / 2
set NAME [to V]
add N to NAME
clear NAME
set plays_left to 2
add -1 to plays_left
set marked
