# Test fixture (issue 58): the table's `play only when not just_drawn` keeps every card just drawn
# in hand, as the card's own rule in just_drawn.uno keeps one kind.
rulebook just_drawn_table "test fixture: no card just drawn is played"

extends just_drawn

play only when not just_drawn
