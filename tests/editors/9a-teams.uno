# docs/language.md, section 9a-teams: its examples, for the TextMate grammar's snapshots
teams of N partners opposite
winner scores others
