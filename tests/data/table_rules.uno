# Issue 29's constructs that run on the engine only (the generated code names its reason):
# attack hooks, the place in front of each player, table-wide play rules.
# tests/scenarios/house/*.yaml play them.
rulebook table_rules "Table rules"

extends classic

# an attack hook: a player on their last card passes any attack on to the player after them
on attacked if target.hand.size == 1 and penalty > 0:
  add 1
  pass attack to target.next
