"""A state and its events in words, for a person at one seat: the table (top card, colour,
hand sizes, your hand, counters, hands you saw), each event narrated with hidden cards kept
hidden, a decision's options as a menu, and what a challenge would risk. The terminal game
(cli/play.py) and the learning environments' `render()` show these."""
from __future__ import annotations


def seat_name(s, seat, you_seat):
    return "you" if seat == you_seat else f"seat {seat}"


def narrate(s, ev, you_seat) -> str | None:
    """One event in words, from the human's side of the table (hidden cards stay hidden)."""
    t = ev["type"]
    who = lambda key="player": seat_name(s, ev.get(key), you_seat)   # noqa: E731
    verb = lambda key, base, third: base if ev.get(key) == you_seat else third   # noqa: E731
    if t == "round_start":
        return f"\n=== Round {ev['round']} (dealer: {seat_name(s, ev['dealer'], you_seat)}) ==="
    if t == "turn_up":
        return f"First card turned up: {ev['card']}"
    if t == "play":
        pile = f" on {ev['pile']}" if ev.get("pile") else ""
        return f"{who().capitalize()} {verb('player', 'play', 'plays')} {ev['card']}{pile}"
    if t == "uno":
        return f"{who().capitalize()} {verb('player', 'call', 'calls')} UNO!"
    if t == "deal":
        return f"Each player is dealt {ev['hand']} cards"
    if t == "attack":
        return f"{who('target').capitalize()} {verb('target', 'take', 'takes')} the attack (penalty {ev['penalty']})"
    if t == "draw_short":
        return f"The draw pile is empty: {who()} {verb('player', 'get', 'gets')} {ev['got']} of {ev['wanted']} cards"
    if t == "exchange":
        mine = {ev.get("player"): ev.get("gave"), ev.get("other"): ev.get("got")}.get(you_seat)
        theirs = {ev.get("player"): ev.get("got"), ev.get("other"): ev.get("gave")}.get(you_seat)
        text = f"{who().capitalize()} and {seat_name(s, ev['other'], you_seat)} exchange a card"
        return text + (f" (you give {mine}, you get {theirs})" if you_seat in (ev.get("player"), ev.get("other")) else "")
    if t == "take_back":
        return f"{ev['card']} goes back to {seat_name(s, ev['player'], you_seat)}'s hand"
    if t == "no_choice":
        return "There is nobody to choose"
    if t == "game_end":
        return "The game is over" if ev.get("outcome") == "win" else f"The game ends ({ev.get('outcome')})"
    if t == "draw":
        cards = f": {', '.join(ev['cards'])}" if ev.get("player") == you_seat and ev.get("cards") else ""
        n = ev["count"]
        return f"{who().capitalize()} {verb('player', 'draw', 'draws')} {n} card{'s' if n != 1 else ''}{cards}"
    if t == "keep":
        return f"{who().capitalize()} {verb('player', 'keep', 'keeps')} the drawn card"
    if t == "skip":
        return f"{who().capitalize()} {verb('player', 'are', 'is')} skipped"
    if t == "reverse":
        return f"The direction of play is now {ev['direction']}"
    if t == "color":
        return f"The color is now {ev['color']}" if ev.get("color") else "No color is in play"
    if t == "respond":
        return f"{who().capitalize()} {verb('player', 'answer', 'answers')} with {ev['card']}"
    if t == "pass_attack":
        return f"The attack passes to {seat_name(s, ev['to'], you_seat)} (penalty {ev['penalty']})"
    if t == "cancel_attack":
        return f"The attack on {seat_name(s, ev['target'], you_seat)} is called off (penalty {ev['penalty']})"
    if t == "challenge":
        text = f"{who().capitalize()} {verb('player', 'challenge', 'challenges')} {seat_name(s, ev['attacker'], you_seat)}: " \
               f"the card was {'legal' if ev['legal'] else 'a bluff'}"
        if ev.get("player") == you_seat and ev.get("hand"):
            text += f" (their hand: {', '.join(ev['hand'])})"
        return text
    if t == "catch":
        return f"{who().capitalize()} {verb('player', 'catch', 'catches')} {seat_name(s, ev['caught'], you_seat)} without UNO!"
    if t == "jump_in":
        return f"{who().capitalize()} {verb('player', 'jump', 'jumps')} in with {ev['card']}!"
    if t == "any_time":
        return (f"{who().capitalize()} {verb('player', 'play', 'plays')} {ev['card']} out of turn, before "
                f"{seat_name(s, ev['turn_player'], you_seat)}'s turn!")
    if t == "out":
        return f"{who().capitalize()} {verb('player', 'go', 'goes')} out: place {ev['place']}"
    if t == "win_round":
        return f"{who().capitalize()} {verb('player', 'win', 'wins')} the round by a rule"
    if t in ("take_pile", "clear_pile", "set_aside"):
        pile = f" ({ev['pile']})" if ev.get("pile") else ""
        if t == "set_aside":
            return f"The discard pile{pile} is cleared: {ev['count']} cards are set aside until the round ends"
        if t == "clear_pile":
            return f"The discard pile{pile} is cleared: {ev['count']} cards go under the draw pile"
        return f"{who().capitalize()} {verb('player', 'take', 'takes')} the discard pile{pile}: {ev['count']} cards"
    if t == "pass":
        return f"{who().capitalize()} {verb('player', 'pass', 'passes')}"
    if t in ("swap_hands", "swap_seats"):
        what = "hands" if t == "swap_hands" else "seats"
        return f"{who().capitalize()} {verb('player', 'swap', 'swaps')} {what} with {seat_name(s, ev['other'], you_seat)}"
    if t == "pass_hands":
        return f"Every hand passes on, {ev['direction']}"
    if t == "shuffle_hands":
        return "All hands are gathered, shuffled and dealt out again"
    if t == "flip":
        return f"Everything flips to the {ev['side']} side; the top card is now {ev['top']}"
    if t == "give":
        card = ev["card"] if you_seat in (ev.get("player"), ev.get("to")) else "a card"
        return f"{who().capitalize()} {verb('player', 'give', 'gives')} {card} to {seat_name(s, ev['to'], you_seat)}"
    if t == "give_hand":
        return f"{who().capitalize()} {verb('player', 'give', 'gives')} their hand to {seat_name(s, ev['to'], you_seat)}"
    if t == "reveal":
        return f"Revealed: {ev['card']}"
    if t == "show_hand":
        until = "until their next turn ends" if ev["until"] == "next_turn" else "until the round ends"
        return f"{who().capitalize()} {verb('player', 'play', 'plays')} with an open hand {until}"
    if t == "false_call":
        return f"{who().capitalize()} called \"{ev['name'].upper()}!\" with more cards than that: a false call"
    if t == "new_deck":
        return f"The piles are spent: a fresh deck of {ev['size']} cards becomes the draw pile"
    if t == "front":
        return f"{ev['card']} is put in front of {seat_name(s, ev['player'], you_seat)}"
    if t == "discard_front":
        return f"{ev['card']} in front of {seat_name(s, ev['player'], you_seat)} goes to the discard pile"
    if t == "front_to_hand":
        return f"{ev['card']} in front of {seat_name(s, ev['player'], you_seat)} goes back to their hand"
    if t == "chance":
        return f"Chance ({ev['name'].replace('_', ' ')}): {ev['outcome'].replace('_', ' ')}" if ev.get("name") \
            else f"Chance: {ev['outcome']}"
    if t == "perform":
        done = verb("player", "succeed", "succeeds") if ev["success"] else verb("player", "fail", "fails")
        return f"{who().capitalize()} {done} at {ev['name'].replace('_', ' ')}"
    if t == "play_again":
        return f"{who().capitalize()} {verb('player', 'play', 'plays')} again"
    if t == "redraw":
        return f"{ev['card']} goes back into the pile; another card is turned up"
    if t == "reshuffle":
        return "The discard pile is shuffled into a new draw pile"
    if t == "eliminated":
        until = "the round" if ev.get("from") == "round" else "the game"
        return f"{who().capitalize()} {verb('player', 'are', 'is')} out of {until}"
    if t == "round_end":
        if ev.get("winner") is None:
            return "The round stalls (too many turns) and ends"
        if len(ev.get("winners", ())) > 1:
            team = ", ".join(seat_name(s, q, you_seat) for q in ev["winners"])
            return f"*** {team} win the round together! ***"
        return f"*** {who('winner').capitalize()} {verb('winner', 'win', 'wins')} the round! ***"
    if t == "score":
        return f"{who().capitalize()} {verb('player', 'score', 'scores')} {ev['points']} (total {ev['total']})"
    if t == "counter":
        hidden = next((c.get("hidden") for c in s.rules.counters if c["name"] == ev["name"]), False)
        if "player" in ev:
            if hidden and ev["player"] != you_seat:
                return f"{who().capitalize()} {verb('player', 'note', 'notes')} their {ev['name'].replace('_', ' ')}"
            return f"{who().capitalize()}: {ev['name'].replace('_', ' ')} is now {_value(ev['value'])}"
        return f"{ev['name'].replace('_', ' ').capitalize()} is now {_value(ev['value'])}"
    if t == "take":
        mine = you_seat in (ev.get("player"), ev.get("from"))
        card = f" ({ev['card']})" if mine else ""
        return (f"{who().capitalize()} {verb('player', 'take', 'takes')} a card{card} from "
                f"{seat_name(s, ev['from'], you_seat)}")
    if t == "look_at":
        seen = f": {', '.join(ev['cards'])}" if ev.get("player") == you_seat and ev.get("cards") is not None else ""
        return f"{who().capitalize()} {verb('player', 'look', 'looks')} at {seat_name(s, ev['other'], you_seat)}'s hand{seen}"
    if t == "discard":
        return f"{who().capitalize()} {verb('player', 'discard', 'discards')} {', '.join(ev['cards'])}"
    if t == "choose":
        if "name" in ev:
            return f"{who().capitalize()} {verb('player', 'choose', 'chooses')} {ev['value']} ({ev['name'].replace('_', ' ')})"
        return f"Seat {ev['player']} is chosen" if ev.get("player") != you_seat else "You are chosen"
    if t == "cut":
        return f"The dealer's cut is {'exact' if ev['exact'] else 'not exact'}"
    if t == "error":
        return f"Rule error: {ev['message']}"
    return None


def _value(v):
    return "set" if v is True else "not set" if v is False else str(v)


def table(s, you_seat) -> str:
    top = s.discard[-1] if s.discard else None
    color = s.rules.color_names[s.color] if s.color >= 0 else "none"
    sizes = " · ".join(f"{seat_name(s, q, you_seat)} {len(s.hands[q])}"
                       + (" (out)" if s.out[q] else " (one card!)" if len(s.hands[q]) == 1 else "")
                       + (" (your partner)" if s.rules.teams and q != you_seat and s.team_of[q] == s.team_of[you_seat]
                          else "")
                       for q in range(s.n))
    lines = [f"Top card: {s.card_name(top)}   Color: {color}   Direction: "
             f"{'clockwise' if s.direction == 1 else 'counterclockwise'}   Draw pile: {len(s.draw_pile)}",
             f"Cards: {sizes}"]
    if len(s.rules.sides) > 1:
        lines[0] += f"   Side: {s.rules.sides[s.side]}"
    if s.several_piles:
        colors = s.pile_colors_now()
        lines[0] = "Piles: " + " · ".join(
            f"{name} {s.card_name(pile[-1]) if pile else '(empty)'} ({s.rules.color_names[c] if c >= 0 else 'no color'})"
            for name, pile, c in zip(s.rules.piles, s.piles, colors)) + lines[0][lines[0].index("   Direction"):]
    lines.append("Your hand: " + (", ".join(sorted(s.card_name(c) for c in s.hands[you_seat])) or "(empty)"))
    obs = s.observe(you_seat)
    for name, v in obs.counters.items():
        shown = " · ".join(f"{seat_name(s, q, you_seat)} {_value(x)}" for q, x in enumerate(v) if x is not None) \
            if isinstance(v, list) else _value(v)
        lines.append(f"{name.replace('_', ' ').capitalize()}: {shown}")
    if obs.backs:                # double-faced cards: the other side of every hand and of the pile's top
        lines.append("Backs: " + " · ".join(f"{seat_name(s, q, you_seat)} {', '.join(c.name for c in cards) or '-'}"
                                            for q, cards in enumerate(obs.backs))
                     + (f"   Draw pile's back: {obs.draw_pile_back.name}" if obs.draw_pile_back else ""))
    for q, cards in obs.open_hands.items():
        if q != you_seat:
            lines.append(f"{seat_name(s, q, you_seat).capitalize()} plays with an open hand: "
                         f"{', '.join(c.name for c in cards) or '(empty)'}")
    for q, cards in enumerate(obs.fronts):
        if cards:
            lines.append(f"In front of {seat_name(s, q, you_seat)}: {', '.join(c.name for c in cards)}")
    for q, cards in obs.shown.items():
        lines.append(f"You saw {seat_name(s, q, you_seat)}'s hand: {', '.join(c.name for c in cards) or '(empty)'}")
    return "\n".join(lines)


PROMPTS = {"turn": "Your turn", "drawn": "You drew a playable card", "color": "Name a color",
           "player": "Choose a player", "card": "Choose a card to give", "challenge": "Challenge the attack?",
           "respond": "You are attacked: answer?", "jump_in": "Jump in?", "catch": "Catch a player who did not call UNO?",
           "take": "Choose a card to take", "option": "Choose", "number": "Choose a number", "kind": "Name a card kind",
           "any_time": "Play a card out of turn?", "play_more": "You may play another card"}


SILENT = {"turn"}          # events with no line of their own: your turn shows the table instead


def menu(s, d) -> list[tuple[str, list]]:
    """The decision's options for a person, in `legal_actions()` order: one line per action, except
    that the plays of one card that name each color make one line (the color is asked next)."""
    entries: list[tuple[str, list]] = []
    by_key: dict = {}
    for a in s.legal_actions():
        if a.color is None:
            entries.append((s.action_name(a), [a]))
            continue
        key = (a.kind, a.value, a.call)
        if key not in by_key:
            plain = s.action_name(a._replace(color=None))
            by_key[key] = (plain, [])
            entries.append(by_key[key])
        by_key[key][1].append(a)
    return [(label if len(acts) == 1 else
             f"{label} ({', '.join(s.rules.color_names[a.color] for a in acts)})", acts) for label, acts in entries]


def stakes(s, d, you_seat) -> str | None:
    """Before a challenge: what the attack costs, and what a challenge does, in words."""
    from unorules.language.explain.words import Words
    atk = d.env
    kind = s.rules.kinds[atk.kind]
    card = next((c for c in s.rules.ir.get("cards", []) if c["names"][0] == kind.name), None)
    if card is None or "challenge" not in card:
        return None
    words = Words(s.rules.ir).actions(card["challenge"], "the challenger")
    return (f"{seat_name(s, atk.attacker, you_seat).capitalize()} attacked you with {kind.name} (penalty "
            f"{atk.penalty}). If you challenge, you see their hand, and: {words}.")
