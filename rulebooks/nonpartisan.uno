# Nonpartisan UNO (RULES.md sections 9 and 10, seed 002): classic plus 4 `veto` cards, played at
# any time, out of turn, to skip the player who is about to play. The social trigger (the player
# about to play talks politics) is a `perform` by that player at the start of their turn: it comes
# off with chance `politics_chance` in simulation, and only then may a veto be played on them.
# Where the rules were silent (assumed): a veto is colorless and keeps the current color; it is
# worth 50 points; out of turn, the nearest player in the direction of play may veto first; a
# veto is never played on one's own turn.
rulebook nonpartisan "Nonpartisan UNO: veto cards skip a player who talks politics"

extends classic
option politics_chance = 0.25 "how often the player about to play talks politics"
flag talked_politics reset each turn

card veto {
  wild
  points 50
  playable at any time
  playable when talked_politics
  on play: turn_player lose turn
}

deck {
  4 × veto
}

on turn_start: perform talk_politics chance politics_chance { set talked_politics }
