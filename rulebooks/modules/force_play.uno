# RULES.md section 3: a playable drawn card must be played.
module force_play "A playable drawn card must be played"

for classic

turn {
  drawn card must play
}
