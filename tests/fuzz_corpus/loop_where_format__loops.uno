rulebook loops
extends classic
card wild_customizable {
  wild
  points 40
  on play:
    choose color
    each other as p where p.hand.size > 6 draw p.hand.size - 6
    pass hands counterclockwise
    each player as p { p.next draw 1 }
}
