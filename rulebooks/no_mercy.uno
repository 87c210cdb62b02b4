# UNO Show 'Em No Mercy (Mattel, 2023; RULES.md section 11, not in the seeds). Sources: the
# instruction sheet's rules as published in public write-ups (geekyhobbies.com "How to Play UNO
# Show 'Em No Mercy", c4gamingstudio.com "How to play Uno No Mercy"), where each rule below comes
# from. The sheet gives only "168 cards"; the per-kind counts are the public card lists' (per
# color: 2 × each number 0-9, 3 × skip, 3 × reverse, 3 × draw two, 2 × draw four, 2 × skip
# everyone, 3 × discard all; 8 × wild reverse draw four, 4 × wild draw six, 4 × wild draw ten,
# 8 × wild color roulette).
# Choices where the sheet is silent (said in RULES.md or here):
# - a player knocked out by the Mercy Rule is out of that round; their hand goes under the top card
#   of the discard pile (RULES.md's choice); they are dealt in again next round;
# - a first card that is not a number goes back into the pile for another (the sheet: "ignore its
#   effect and flip over another card");
# - the Wild Reverse Draw 4 with two players attacks its own player, as RULES.md says;
# - the optional scoring (face value, 20, 50, plus `knockout_points` a player knocked out), first
#   to 1,000; `mercy_at` and `knockout_points` are options.
rulebook no_mercy "UNO Show 'Em No Mercy: 168 cards, stacking, the Mercy Rule at 25 cards"

players 2..10
colors red yellow green blue
option mercy_at = 25 "a hand of this many cards or more is out of the round (the Mercy Rule)"
option knockout_points = 250 "the round's winner scores this for each player knocked out"

card 0 {
  number
  points 0
  on play: pass hands
}

card 1..6 {
  number
  points card.rank
}

card 7 {
  number
  points 7
  on play:
    choose other player
    swap hands with chosen
}

card 8..9 {
  number
  points card.rank
}

card skip {
  action
  points 20
  on play: next lose turn
  on turn_up: redraw
}

card reverse {
  action
  points 20
  on play:
    reverse
    if player_count == 2 { next lose turn }
  on turn_up: redraw
}

card draw_two {
  action
  points 20
  on play: attack next penalty 2 { draw penalty; lose turn }
  on turn_up: redraw
}

card draw_four {
  action
  points 20
  on play: attack next penalty 4 { draw penalty; lose turn }
  on turn_up: redraw
}

card skip_everyone {
  action
  points 20
  on play: play again
  on turn_up: redraw
}

card discard_all {
  action
  points 20
  on play: discard all card.color
  on turn_up: redraw
}

card wild_reverse_draw_four {
  wild
  points 50
  on play:
    choose color
    reverse
    if player_count == 2 {
      attack me penalty 4 { draw penalty; lose turn }
    }
    else {
      attack next penalty 4 { draw penalty; lose turn }
    }
  on turn_up: redraw
}

card wild_draw_six {
  wild
  points 50
  on play:
    choose color
    attack next penalty 6 { draw penalty; lose turn }
  on turn_up: redraw
}

card wild_draw_ten {
  wild
  points 50
  on play:
    choose color
    attack next penalty 10 { draw penalty; lose turn }
  on turn_up: redraw
}

card wild_color_roulette {
  wild
  points 50
  on play:
    next choose color
    next draw until color current_color
    next lose turn
  on turn_up: redraw
}

deck {
  per color: 2 × 0..9, 3 × skip, 3 × reverse, 3 × draw_two, 2 × draw_four, 2 × skip_everyone, 3 × discard_all
  8 × wild_reverse_draw_four
  4 × wild_draw_six
  4 × wild_draw_ten
  8 × wild_color_roulette
}

setup {
  hand 7
}

turn {
  draw until playable
  drawn card must play
}

# stacking: a draw card of equal or higher value, any color, adds to the penalty and passes it on
react to draw_two with draw_two:
  add 2
  pass attack to next

react to draw_two, draw_four, wild_reverse_draw_four with draw_four:
  add 4
  pass attack to next

react to draw_two, draw_four, wild_reverse_draw_four with wild_reverse_draw_four:
  choose color
  reverse
  add 4
  pass attack to next

react to draw_two, draw_four, wild_reverse_draw_four, wild_draw_six with wild_draw_six:
  choose color
  add 6
  pass attack to next

react to draw_two, draw_four, wild_reverse_draw_four, wild_draw_six, wild_draw_ten with wild_draw_ten:
  choose color
  add 10
  pass attack to next

on hand reaches mercy_at as mercy_rule: eliminate from round

declare uno at 1 card: draw 2

scoring {
  winner scores sum(each other as p: p.hand.points) + knockout_points * eliminated_count
  target 1000
}
