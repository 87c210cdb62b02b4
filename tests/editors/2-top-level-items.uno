# docs/language.md, section 2-top-level-items: its examples, for the TextMate grammar's snapshots
extends NAME
extends classic
include NAME, ...
include stacking, jump_in
for NAME
for classic
players MIN..MAX
players 2..10
colors ...
colors red yellow green blue
side NAME colors ...
side dark colors pink teal orange purple
pair sides shuffled
option NAME = VALUE ["help"]
option dance_chance = 0.5 "how often a dance succeeds"
card FACES { ... }
card 0..9 { number points card.rank }
remove card NAMES
remove card wild
replace N × KIND with NAME
replace 1 × wild_customizable with blank_swap
counter NAME [per player] [hidden] [reset ...]
counter refills per player reset each round
flag NAME [per player] [hidden] [reset ...]
flag marked per player reset after next turn
deck [side NAME] { ... }
setup { ... }
setup { hand 7 }
turn { ... }
turn { drawn card may play }
react to KINDS with KINDS [as NAME] [if COND]: ACTIONS
react to draw_two with draw_two: add 2; pass attack to next
on EVENT [of [COLOR] FACE] [as NAME] [if COND]: ACTIONS
on play of 0 as lone_zero_bonus: pass hands
declare NAME at N card[s]: ACTIONS
declare uno at 1 card: draw 2
false NAME call: ACTIONS
false uno call: draw 2
jump in [by anyone] [when COND]
jump in when not card.wild
scoring { ... }
scoring { winner scores others target 500 }
piles NAME ...
piles left middle right
rule NAME: ACTIONS
rule press: chance launcher { ... }
play only when COND
play only when not red_locked or card.color == red
may play on anything when COND
may play on anything when me.hand.count(c where c.color == card.color) == 1
per color:
deck {
  per color: 1 × 0, 2 × 1..9, 2 × skip, 2 × reverse, 2 × draw_two
  4 × wild
  4 × wild_draw_four
}
deck side NAME { ... }
