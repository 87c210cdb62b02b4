rulebook t
extends classic
card wild {
  on play: next draw_too 2
}
