# Fast UNO (RULES.md sections 5 and 10, seed 000, South African UNO League): killer rules plus the
# 7 swap with its defence, wild draw four stacks up to 16 cards, the cut with its bets, and the hat
# trick.
rulebook fast "Fast UNO: killer with the 7 swap and its defence, capped stacks, the cut and the hat trick"

extends killer
option stack_limit = 16 "wild draw fours add up to at most 16 cards"
option cut_chance = 0.0667 "how often the dealer cuts exactly 7 cards per player (assumed 1/15)"
counter bet per player reset each round
# The cut: the dealer cuts the deck; exactly 7 cards per player scores -50. Before the cut, every
# other player bets `missed` or `exact` (kept in `bet`: 1 exact, 2 missed); once the cards are
# dealt, a right bet scores -50 and a wrong one +50. In simulation the cut is a chance with the odds
# `cut_chance` (greedy players bet the first option, `missed`, the likely one). The two rules are
# named, so a module can remove or replace them (`remove trigger bets`).
flag cut_exact reset each round

setup {
  cut chance cut_chance:
    score -50
    set cut_exact
}

# A 7 swaps hands with a chosen player, unless that player defends with a 7 of their own: then the
# defender names another player with whom the first 7's player must swap.
react to 7 with 7 as seven_defence:
  choose other player where candidate != attacker
  attacker swap hands with chosen
  cancel attack

on cut as bets:
  each other as p {
    choose one of missed, exact as guess
    set bet to if guess == "exact" then 1 else 2
  }

on round_start as bets_paid:
  each other as p if (p.bet == 1) == cut_exact { score -50 }
  else { score 50 }

on play of 7 if me.hand.size > 0:
  choose other player
  attack chosen { swap hands with attacker }

# The hat trick: the same face three times in a row lets its player swap seats with a player of
# their choice; a fourth or later in a row lets that player swap any two players' seats.
on play if streak == 3:
  choose other player
  swap seats with chosen

on play if streak >= 4:
  choose player as first_seat
  choose player where candidate != first_seat as second_seat
  first_seat swap seats with second_seat
