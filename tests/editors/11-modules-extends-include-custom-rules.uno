# docs/language.md, section 11-modules-extends-include-custom-rules: its examples, for the TextMate grammar's snapshots
extends B
remove card
remove scoring ...
choose one of
choose color
set color
cycle color
on play
jump in
include M
