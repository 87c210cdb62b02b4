# Hot Death UNO (RULES.md section 9, seed 002). Followed: the published rules of the old Windows
# game as kept by its fans (oocities.org/hotdeathuno, smorgasbork.com, pw1.netcom.com/~dljessup):
# two decks of classic UNO, play to 1,000 points; the dealer chooses to deal between 5 and 15 cards
# (here an option, `deal`); each round after the first is dealt by the last round's winner, who
# also leads; a wild draw four may be answered by stacking another, the penalty adding up and
# passing on (draw twos never stack). Of its special cards this file holds those whose rules the
# sources state: `double_skip` (skips two players; with two players, play again; 40 points),
# `reverse_skip` (reverses, then skips one; with two players, play again; 40 points) and `spreader`
# (a draw two for every other player: each draws 2; 20 points, as a draw two).
# Left out: the Mystery Draw, Delayed Blast, Hot Death, Harvester of Sorrows, the shields, the
# four "bastard cards" that win outright and the rest of the thirty or so specials: the sources
# name them without rules precise enough to write (a file of house rules can add them).
# Assumed: per color one double_skip, one reverse_skip and one spreader in each of the two decks.
rulebook hot_death "Hot Death UNO: two decks, stacked draw fours, to 1,000 points"

extends classic
option deal = 7 "the cards the dealer chooses to deal, 5 to 15"

card double_skip {
  action
  points 40
  on play:
    if player_count == 2 { play again }
    else { next lose turn; next.next lose turn }
  on turn_up: next lose turn
}

card reverse_skip {
  action
  points 40
  on play:
    reverse
    if player_count == 2 { play again }
    else { next lose turn }
  on turn_up: reverse
}

card spreader {
  action
  points 20
  on play: each other draw 2
  on turn_up: each other draw 2
}

# the second deck, and the special cards (one of each per color in each deck)
deck {
  per color: 1 × 0, 2 × 1..9, 2 × skip, 2 × reverse, 2 × draw_two
  4 × wild
  4 × wild_draw_four
  per color: 2 × double_skip, 2 × reverse_skip, 2 × spreader
}

setup {
  hand deal
}

# a wild draw four is answered by stacking another: the penalty adds up and passes on
react to wild_draw_four with wild_draw_four:
  choose color
  add 4
  pass attack to next

scoring {
  target 1000
  next dealer winner
  next leader winner
}
