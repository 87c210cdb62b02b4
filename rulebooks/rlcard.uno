# UNO as RLCard 1.2.0 plays it (rlcard.games.uno), for benchmarks: the same mean number of
# decisions per game and seat-0 win rate as RLCard under random play (bench/speed.py checks it).
# Its rules, as the project's hand-written reference simulator lists them: 108 cards; seat 0 leads; a wild draw
# four may be played only when nothing else can be; drawing only when nothing can be played; a
# drawn card is played at once when it is wild (as a plain wild) or of the current color, and kept
# otherwise; reverse with two players is only a reverse; no stacking, no challenge, no UNO call;
# the first player out wins; a wild turned up first gets a color at random. Not modelled: RLCard
# shuffles the top card into a new draw pile too. The colors are in RLCard's order, so the action
# ids are RLCard's (the plays by color, then draw: 61 with two players).
rulebook rlcard "UNO as RLCard 1.2.0 plays it: a benchmark rulebook"

players 2..10
colors red green blue yellow

card 0..9 {
  number
  points card.rank
}

card skip {
  action
  points 20
  on play: next lose turn
  on turn_up: next lose turn
}

card reverse {
  action
  points 20
  on play: reverse
  on turn_up:
    reverse
    play again
}

card draw_two {
  action
  points 20
  on play: attack next penalty 2 { draw penalty; lose turn }
  on turn_up: next draw 2
}

card wild {
  wild
  points 50
  on play: choose color
  on turn_up:
    chance first_color {
      red { set color red }
      green { set color green }
      blue { set color blue }
      yellow { set color yellow }
    }
}

card wild_draw_four {
  wild
  points 50
  playable when not me.hand.any(card.kind != wild_draw_four and (card.wild or card.color == current_color or card.kind == top.kind))
  on play:
    choose color
    if not just_drawn {
      attack next penalty 4 { draw penalty; lose turn }
    }
  on turn_up: redraw
}

deck {
  per color: 1 × 0, 2 × 1..9, 2 × skip, 2 × reverse, 2 × draw_two
  4 × wild
  4 × wild_draw_four
}

setup {
  hand 7
}

turn {
  draw only when stuck
  drawn card must play when card.wild or card.color == current_color
}

scoring {
  single round
}
