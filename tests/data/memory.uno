# Test rulebook for memory, aggregates, values and choices: counters and flags with their
# lifetimes, sum/max/count/most over players, if-then-else values, number kinds as values, kind
# ranges in reactions, removed settings, and choices of options, numbers, kinds and cards.
rulebook memory "Memory, aggregates and choices"

extends classic
counter plays per player
counter table_count
flag marked per player reset after next turn
counter this_turn reset each turn
counter bets per player hidden reset each round
flag sevens_only per player reset after next turn

card 0..9 {
  number
  points card.rank
  playable when not me.sevens_only or card.rank == 7
}

card sevens {
  action
  points 20
  on play: next set sevens_only
}

card tally {
  wild
  points 50
  on play:
    choose color
    add 1 to plays
    add if clockwise then 10 else 20 to table_count
    next set marked
}

card richest_pays {
  wild
  points 50
  on play:
    choose color
    swap hands with fewest(each other as p: p.hand.size)
    set plays to sum(each other as p: p.hand.points)
    set table_count to count(each player as p where p.hand.size >= 2) + max(each other as p: p.hand.size) * 100
}

card namer {
  wild
  points 50
  on play:
    choose color
    choose one of low, high as level
    choose number from 1 to 3 as k
    choose number as n
    each other if level == "high" { draw k }
    each player discard all n
}

card picker {
  wild
  points 50
  on play:
    choose color
    choose kind where candidate != wild as q
    if me.hand.has(7) and q == skip { next draw 1 }
    give 1 card where not card.wild to next
}

card thief {
  wild
  points 50
  on play:
    choose color
    choose other player
    look at chosen.hand
    take 1 card from chosen
}

card rotate {
  action
  points 20
  on play: pass hands counterclockwise
}

card bet {
  wild
  points 50
  on play:
    choose color
    set bets to 3
}

remove scoring target

deck {
  per color: 1 × rotate, 1 × sevens
  1 × tally
  1 × richest_pays
  1 × namer
  1 × picker
  1 × thief
  1 × bet
}

react to draw_two with 0..2, skip: cancel attack

on turn_start if me.marked: set this_turn to 99
