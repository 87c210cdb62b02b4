# UNO Flex (RULES.md section 9, seed 002). Followed: the published rules (the box's manual, as
# retold by finalbosscardgame and manuals.plus): classic play to 500. Each player has a power card,
# green side up. Flex action cards have a second, stronger action: a player whose power card shows
# green may use it, and then turns the power card to red; when every power card shows red, all turn
# back to green. `skip`, flexed: skip everyone (play again). `reverse`, flexed: reverse, then skip.
# `draw_two`, flexed: every other player draws 1. `wild`, flexed: a chosen player draws 2.
# `wild_all_draw`, flexed: every other player draws 2 (the next player keeps the turn).
# `wild_draw_four`, flexed: a chosen player draws 4 (played this way it makes no attack, so there
# is nothing to challenge; played plain, it keeps classic's legality and challenge). `wild_all_flip`: name a color; every power card turns over. Flexed cards are
# worth their usual points; a wild all flip 50.
# Not modelled: the flex number cards' second color (which color each card flexes to is printed on
# it and not listed in the rules we found): the number cards play as their primary color; nor the
# flip symbol of some number cards. Assumed: classic's 108 cards plus 4 `wild_all_draw` and 4
# `wild_all_flip` (the box's exact counts are not in the rules we found); every power card starts
# green each round; a player chooses `plain` or `flex` when playing a flex card with a green power
# card.
rulebook flex "UNO Flex: flex action cards and power cards"

extends classic
flag power_used per player reset each round

rule power_down:
  set power_used
  if count(each player as p where not p.power_used) == 0 { each player clear power_used }

card skip {
  on play:
    if me.power_used { next lose turn }
    else {
      choose one of plain, flex as how
      if how == "flex" { play again; do power_down }
      else { next lose turn }
    }
}

card reverse {
  on play:
    reverse
    if me.power_used {
      if player_count == 2 { next lose turn }
    }
    else {
      choose one of plain, flex as how
      if how == "flex" { next lose turn; do power_down }
      else if player_count == 2 { next lose turn }
    }
}

card draw_two {
  on play:
    if me.power_used {
      attack next penalty 2 { draw penalty; lose turn }
    }
    else {
      choose one of plain, flex as how
      if how == "flex" { each other draw 1; do power_down }
      else {
        attack next penalty 2 { draw penalty; lose turn }
      }
    }
}

card wild {
  on play:
    choose color
    if not me.power_used {
      choose one of plain, flex as how
      if how == "flex" {
        choose other player as victim
        victim draw 2
        do power_down
      }
    }
}

card wild_all_draw {
  wild
  points 50
  on play:
    choose color
    if not me.power_used {
      choose one of plain, flex as how
      if how == "flex" { each other draw 2; do power_down }
    }
  on turn_up: next choose color
}

card wild_all_flip {
  wild
  points 50
  on play:
    choose color
    each player as p {
      if p.power_used { clear power_used }
      else { set power_used }
    }
  on turn_up: next choose color
}

card wild_draw_four {
  on play:
    choose color
    if not me.power_used {
      choose one of plain, flex as how
      if how == "flex" {
        choose other player as victim
        victim draw 4
        do power_down
      }
      else {
        attack next penalty 4 { draw penalty; lose turn }
      }
    }
    else {
      attack next penalty 4 { draw penalty; lose turn }
    }
}

deck {
  4 × wild_all_draw
  4 × wild_all_flip
}
