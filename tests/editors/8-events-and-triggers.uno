# docs/language.md, section 8-events-and-triggers: its examples, for the TextMate grammar's snapshots
on EVENT:
on EVENT [of [COLOR] FACE] [if COND]: ...
setup { cut chance ... }
as NAME
remove card
on play
may play
at any time
react to
on turn_up
on hand reaches N [if COND]: ACTIONS
on hand reaches 25: eliminate from round
on draw
draw until playable
draw with
on draw: draw 1
