# docs/language.md, section 11a-limits: its examples, for the TextMate grammar's snapshots
each ...
sum(...)
count(...)
if
chance
perform
attack
do
repeat
at most
on attacked
when the draw pile runs out: new deck
cap N turns
