# UNO Attack (RULES.md sections 9 and 10, seed 002). There is no draw pile to draw from: a card
# launcher. Where a player would draw on their turn they press it, and it fires 0 to 3 cards, by
# chance (the odds are options: 0 cards 0.5, 1 card 0.2, 2 cards 0.15, 3 cards 0.15); what it
# fires is kept and the turn ends. `hit_two`: the next player presses twice and loses the turn.
# `discard_all`: discard all your cards of that card's color. `trade_hands`: swap hands with a
# chosen player. `wild_all_hit`: name a color; every other player presses once. `wild_hit_fire`:
# name a color; a chosen player presses until cards fire (20 presses at most: a launcher that
# cannot fire, its pile spent, stops). Points: 20 the actions, 30 discard all and trade
# hands, 50 the wilds.
# Where the rules were silent (assumed): the deck is classic's numbers with, per color, two skip,
# two reverse, two hit_two, one discard_all and one trade_hands, and four of each wild (116
# cards); a missed UNO call costs two presses; a launcher that cannot fire (an empty draw pile,
# even after the reshuffle) fires nothing.
rulebook attack "UNO Attack: a card launcher replaces the draw pile"

extends classic
option launch_none = 0.5 "the chance that a press fires no card"
option launch_one = 0.2 "the chance that a press fires one card"
option launch_two = 0.15 "the chance that a press fires two cards"
option launch_three = 0.15 "the chance that a press fires three cards"

rule press:
  chance launcher {
    no_card weight launch_none {}
    one_card weight launch_one { draw 1 }
    two_cards weight launch_two { draw 2 }
    three_cards weight launch_three { draw 3 }
  }

card hit_two {
  action
  points 20
  on play:
    next {
      do press
      do press
      lose turn
    }
  on turn_up:
    next {
      do press
      do press
      lose turn
    }
}

card discard_all {
  action
  points 30
  on play: discard all card.color
}

card trade_hands {
  action
  points 30
  on play:
    choose other player
    swap hands with chosen
}

card wild_all_hit {
  wild
  points 50
  on play:
    choose color
    each other do press
  on turn_up: next choose color
}

card wild_hit_fire {
  wild
  points 50
  on play:
    choose color
    choose other player as fired_at
    let held = fired_at.hand.size
    repeat until fired_at.hand.size > held at most 20 { fired_at do press }
  on turn_up: next choose color
}

remove card draw_two, wild, wild_draw_four

deck {
  per color: 2 × hit_two, 1 × discard_all, 1 × trade_hands
  4 × wild_all_hit
  4 × wild_hit_fire
}

turn {
  drawn card is kept
  draw with { do press }
}

declare uno at 1 card:
  do press
  do press
