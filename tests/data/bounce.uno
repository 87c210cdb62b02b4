# Test fixture (issue 58): cards kept in front that pass the next draw attack on, back to the
# player who sent it (`wild_mirror`) or to the next player (`wild_relay`), from an `on attacked`
# rule. The attacking card's challenge is offered to whoever it reaches, never to the card's own
# player, and a challenge won is paid by the card's player, not by whoever passed it on.
rulebook bounce "test fixture: attacks passed on by cards in front"

extends classic

card wild_mirror {
  wild
  points 50
  on play:
    choose color
    put card in front of me
}

card wild_relay {
  wild
  points 50
  on play:
    choose color
    put card in front of me
}

deck {
  1 × wild_mirror
  1 × wild_relay
}

on attacked if penalty > 0 and target.front.has(wild_mirror):
  discard wild_mirror from target.front
  pass attack to attacker

on attacked if penalty > 0 and target.front.has(wild_relay):
  discard wild_relay from target.front
  pass attack to target.next
