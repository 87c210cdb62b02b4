# docs/language.md, section 9-scoring: its examples, for the TextMate grammar's snapshots
scoring { ... }
winner scores others
each scores own hand
no points
rounds N
target
eliminate above
winner scores EXPR
me
winner
winner scores sum(each other as p: p.hand.points) / count(each other as p)
winner scores 2 * sum(each other as p: p.hand.points)
target N
eliminate above N
single round
play to the last
places N
rank rest by EXPR
next dealer PLAYER
next leader PLAYER
rank rest by
next dealer
