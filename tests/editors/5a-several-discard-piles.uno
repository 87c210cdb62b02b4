# docs/language.md, section 5a-several-discard-piles: its examples, for the TextMate grammar's snapshots
piles left middle right
pile: NAME
play same face together
