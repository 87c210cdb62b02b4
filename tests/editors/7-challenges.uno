# docs/language.md, section 7-challenges: its examples, for the TextMate grammar's snapshots
resolve attack
cancel attack
take back card
