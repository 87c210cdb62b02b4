# RULES.md section 3: a player who draws keeps drawing until a playable card comes, and may play it.
module draw_to_match "Draw until a playable card comes"

for classic

turn {
  draw until playable
}
