# docs/language.md, section 4a-memory-counters-and-flags: its examples, for the TextMate grammar's snapshots
counter refills per player reset each round     # a number for each player
flag marked per player reset after next turn    # a mark for each player
counter bets per player hidden                  # seen only by its player
counter table_count                             # one number for the table
per player
playable when
legal when
reset each turn
reset each round
reset at next turn
flag red_locked reset at next turn
reset after next turn
do NAME
rule NAME: ACTIONS
each other do press
may play [any card] [where COND]
play: CARD
play: false
any card
win round
flip [pile whole|top|OPTION]
option flip_pile = "whole"
clear pile
set aside pile
take pile
