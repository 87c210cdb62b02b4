# docs/language.md, section 3-cards: its examples, for the TextMate grammar's snapshots
card wild_draw_four {
  wild                                    # category: number, action or wild (wild = no color, matches anything)
  side light                              # only for kinds that exist on one side
  points 50                               # a number expression; `card` is the card itself
  playable when not first_card            # a hard restriction: false means it may not be played
  legal when not me.hand.any(card.color == current_color)   # may be played anyway (a bluff) if it has a challenge
  on play:                                # what happens when it is played
    choose color
    attack next penalty 4 { draw penalty; lose turn }
  on turn_up: redraw                      # what happens when it is the round's first card
  challenge:                              # what a challenge of its attack does (section 7)
    if legal { target draw 2; resolve attack }
    else { attacker draw penalty; cancel attack }
}
card 0..9 { ... }
matches as KIND
matches as 3
playable at any time
playable when
on play
legal when
on turn_up
play again
card wild_customizable { on play: ... }
