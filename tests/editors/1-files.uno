# docs/language.md, section 1-files: its examples, for the TextMate grammar's snapshots
# a comment runs to the end of the line
rulebook my_house "A one-line description"     # or: module my_rule "..."
extends official
rulebook NAME
module NAME
