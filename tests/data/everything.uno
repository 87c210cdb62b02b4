# Every construct of the language in one rulebook (a test fixture, not a game anyone plays).
rulebook everything "Every construct"

include tiny_module
players 2..6
side light colors red blue
side dark colors pink teal
pair sides shuffled
option dance_chance = 0.25 "how often a dance succeeds"
option bonus = 3

card 1..3 {
  number
  points card.rank * 2 + 1
}

card hit {
  action
  side light
  points 20
  playable when not first_card or streak >= 2
  on play: attack next penalty bonus { draw penalty; lose turn }
  on turn_up: next lose turn
}

card blast {
  action
  side dark
  points 30
  on play:
    each other draw 1
    if me.hand.size > 2 and clockwise { reverse }
    else if player_count == 2 { play again }
    else { flip }
}

card star {
  wild
  points 50
  legal when not me.hand.any(card.color == current_color)
  on play:
    choose color
    attack next penalty 4 { draw until color current_color; lose turn }
  challenge:
    if legal { challenger draw 2; resolve attack }
    else {
      attacker draw penalty
      take back card
      cancel attack
    }
}

card box {
  wild
  points 40
  on play:
    reveal
    if revealed.color == red { play again }
    else if revealed.color == blue { previous draw 2 }
    else { cycle color }
    chance coin {
      heads weight 1 { score 10 }
      tails weight 3 { set color blue }
    }
    next perform dance chance dance_chance {}
    else { draw 3 }
  on turn_up: redraw
}

card trade {
  wild
  points 40
  on play:
    choose other player where candidate.hand.size < me.hand.size
    swap hands with chosen
    choose player
    swap seats with chosen
    give 1 card to next
    exchange card with previous
    give hand to dealer
    discard all red
    pass hands
    shuffle hands
    draw until playable
    eliminate
    if -1 + 1 == 0 and top.kind == trade and top.wild and top.color != red { set color red }
    draw (2 - 1) % 2 / 1 + me.score + me.seat + me.hand.count(card.kind == hit)
    if me.hand.has(box) { draw 1 }
}

remove card 3

deck side light {
  per color: 2 × 1..2, 1 × hit
  2 × star
  1 × box
  1 × trade
}

deck side dark {
  per color: 2 × 1..2, 1 × blast
  3 × star
  1 × box
}

setup {
  hand 3
  cut chance 1 / 15: score -50
}

turn {
  draw until playable
  draw only when stuck
  drawn card must play
  play same face together
  cap 500 turns
}

react to hit with hit:
  add 2
  pass attack to next

react to hit, star with star if card.color == current_color or true:
  choose color
  pass attack to attacker

on play of red 1 if me.hand.size > 0: pass hands

on play of 2: next draw 1

on turn_start: score 0

on round_end: score 1

declare uno at 1 card: draw 2

jump in when not card.wild and not first_card

scoring {
  each scores own hand
  target 200
  eliminate above 300
  rounds 10
}
