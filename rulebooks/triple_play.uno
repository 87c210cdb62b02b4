# UNO Triple Play (RULES.md sections 9 and 10, seed 002). Followed: the published rules as retold
# by rule sites (geekyhobbies, trickster): three discard piles (trays) on the game unit, each
# started with a turned-up number card (an action card turned up is put back and another turned
# up); a card is played on any pile whose top card it matches by color or by kind, and sets that
# pile's color only; 112 cards: per color one 0, two each of 1-9, skip, reverse and discard_two;
# 4 wild, 4 wild_clear, 4 wild_give_away.
# Modelled as chances (the unit cannot be simulated): a tray overloads after a play with chance
# `overload_chance` (assumed 1 in 12), and then the player takes that pile's cards, all but its
# top card (the rule sites say only "the player is penalized with a draw": assumed); in timer mode
# (`timer`, off by default as the unit's regular mode) a player who does not beat the timer
# (`timer_chance`) draws 2 (assumed).
# Where the rules were silent: `discard_two` lets its player discard one more card of its color
# (any pile's matching is not needed: it goes on the same pile); `wild_clear` clears the pile it
# is played on (the cards under it are set aside until the round ends, assumed) and names its color;
# `wild_give_away` names a color and gives two cards of the player's choice to a chosen player
# (assumed from its name). Points as classic: actions 20, wilds 50 (assumed for the new ones).
rulebook triple_play "UNO Triple Play: three discard piles, trays that overload"

extends classic
piles left middle right
option overload_chance = 0.08 "how often a tray overloads after a play"
option timer = false "timer mode: each turn races the unit's timer"
option timer_chance = 0.8 "how often a player beats the timer in timer mode"

card skip {
  on turn_up: redraw
}

card reverse {
  on turn_up: redraw
}

card discard_two {
  action
  points 20
  on play: may play any card where card.color == current_color and not card.wild
  on turn_up: redraw
}

card wild {
  on turn_up: redraw
}

card wild_clear {
  wild
  points 50
  on play:
    set aside pile
    choose color
  on turn_up: redraw
}

card wild_give_away {
  wild
  points 50
  on play:
    choose color
    choose other player as receiver
    give 2 cards to receiver
  on turn_up: redraw
}

remove card draw_two, wild_draw_four

deck {
  per color: 2 × discard_two
  4 × wild_clear
  4 × wild_give_away
}

on play:
  chance overload {
    overloaded weight overload_chance { take pile }
    holds weight 1 - overload_chance {}
  }

on turn_start if timer:
  perform beat_the_timer chance timer_chance {}
  else { draw 2 }
