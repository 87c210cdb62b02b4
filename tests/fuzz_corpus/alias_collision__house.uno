rulebook t
extends classic
turn {
  draw until playable
}
