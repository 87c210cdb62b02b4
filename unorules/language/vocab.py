"""The language's built-in vocabulary: names, attributes, methods and events, with their types.

The checker types expressions with these tables and the compiler implements exactly these
entries (a test holds the two to the same set). Types: number, bool, text, player, players,
color, kind, card, hand.
"""

# names bound everywhere a rule runs
GLOBAL_NAMES = {
    "me": "player",            # the player whose rule this is (who played the card, who drew, ...)
    "next": "player",          # the player after `me` in the direction of play
    "previous": "player",      # the player before `me`
    "dealer": "player",
    "current_color": "color",
    "top": "card",             # the top card of the discard pile
    "player_count": "number",  # players still in the round
    "streak": "number",        # how many cards of the top card's face lie in a row on the pile
    "clockwise": "bool",       # the direction of play
    "first_card": "bool",      # true while the round's first card is the top card
    "just_drawn": "bool",      # the card being played was drawn this turn
    "fewest_cards": "number",  # the smallest hand among the other players still in
    "most_cards": "number",    # the largest hand among the other players still in
    "eliminated_count": "number",   # players eliminated (from the round or the game) this round
}

# names bound only in some places (see SCOPES)
SCOPED_NAMES = {
    "card": "card",            # the card played / drawn / examined / answering
    "target": "player",        # the player an attack is aimed at
    "attacker": "player",      # the player who made the attack
    "penalty": "number",       # the attack's running penalty
    "legal": "bool",           # in a challenge: was the challenged card legal when played
    "challenger": "player",
    "chosen": "player",        # after `choose player`
    "revealed": "card",        # after `reveal`
    "candidate": "player",     # inside `choose player where ...`
    "winner": "player",        # the round's winner: in `on round_end` and the scoring's next dealer and leader
    "turn_player": "player",   # the player whose turn it is, when a card is played out of turn (`at any time`)
}

ATTRIBUTES = {
    ("player", "hand"): "hand",
    ("player", "front"): "hand",       # the cards in front of the player, face up (`put card in front of me`)
    ("player", "score"): "number",
    ("player", "seat"): "number",
    ("player", "next"): "player",      # the player after them in the direction of play (players who are out skipped)
    ("player", "previous"): "player",
    ("player", "team"): "number",      # the player's team (`teams of ...`); without teams, each player is a team
    ("player", "partner"): "player",   # the next player of the same team in seat order (themself without teams)
    ("player", "place"): "number",     # the place the player took this round by going out (1 first), 0 if none
    ("hand", "size"): "number",
    ("hand", "points"): "number",     # the points of its cards, by each card's own `points` rule
    ("card", "color"): "color",
    ("card", "kind"): "kind",
    ("card", "rank"): "number",
    ("card", "wild"): "bool",
}

# (receiver type, method): (argument type or None, names bound in the argument, result type)
METHODS = {
    ("hand", "count"): ("bool", {"card": "card"}, "number"),
    ("hand", "any"): ("bool", {"card": "card"}, "bool"),
    ("hand", "has"): ("kind", {}, "bool"),
}

CARD_EVENTS = {"play", "turn_up"}
TRIGGER_EVENTS = {"play", "draw", "turn_start", "round_start", "round_end", "attacked", "cut", "hand_reaches"}
EVENT_WORDS = {"hand_reaches": "hand reaches"}      # an event written otherwise than its name (`on hand reaches 25:`)
EVENTS_WITH_CARD = {"play", "draw", "turn_up"}

# actions that put cards in front of a player or move them from there (engine/fronts.py)
FRONT_ACTIONS = {"put_in_front", "discard_from_front", "move_to_hand"}

# actions that only mean something while an attack is pending (reactions and challenges)
ATTACK_ACTIONS = {"add_penalty", "double_penalty", "pass_attack", "cancel_attack", "resolve_attack", "take_back"}
