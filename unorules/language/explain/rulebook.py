"""Introspection: a rulebook in plain words (Markdown), generated from the merged IR.

`explain(rulebook)` renders setup, turns, every card with its points and effect, reactions,
challenges, triggers, calls, jumping in and scoring, so that a person who has never seen the
language can play from it. `explain(rulebook, card=NAME)` renders one card.
"""
from __future__ import annotations

from collections import Counter

from unorules.language.checker import DEFAULT_HAND, DEFAULT_PLAYERS
from unorules.language.ir import deck_counts, sides_of, walk  # noqa: F401 (deck_counts: re-exported)
from unorules.language.lints import colorless_wilds
from .words import Words


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")) if text else ""


def explain_card(w: Words, card: dict, counts: Counter | None, names: list[str] | None = None,
                 all_counts: dict | None = None) -> list[str]:
    names = names or card["names"]
    name = names[0]
    cat = card.get("category") or ("number" if name.isdigit() else "action")
    pts = card.get("points")
    if pts == {"kind": "attr", "of": {"kind": "name", "name": "card"}, "name": "rank"}:
        pts_text = "worth its number in points"
    else:
        pts_text = f"worth {w.expr(pts) if pts else 0} points"
    head = f"### `{name}`" if len(names) == 1 else f"### `{names[0]}` to `{names[-1]}`"
    facts = [cat + (" card (no color; it matches anything)" if cat == "wild" else " card")]
    if card.get("side"):
        facts.append(f"{card['side']} side only")
    facts.append(pts_text)
    if len(names) > 1 and all_counts:
        per = [f"{sum(all_counts.get(n, Counter()).values())} × `{n}`" for n in names if all_counts.get(n)]
        if per:
            facts.append("in the box: " + ", ".join(per))
    elif counts:
        facts.append("in the box: " + ", ".join(f"{n} ({side})" if len(counts) > 1 else str(n) for side, n in counts.items()))
    lines = [head, "", "; ".join(facts) + ".", ""]
    if card.get("matches_as"):
        lines.append(f"- It matches as a `{card['matches_as']}`: by color, or on a `{card['matches_as']}` (and a "
                     f"`{card['matches_as']}` on it).")
    if card.get("at_any_time"):
        lines.append("- It is played out of turn only: before any other player's turn, whoever holds it may play it "
                     "(the nearest player in the order of play first), whatever the top card.")
    held = " (your hand still holds this card as this is judged)"
    if "playable_when" in card:
        lines.append(f"- It may be played only when {w.expr(card['playable_when'])}"
                     f"{held if _reads_hand(card['playable_when']) else ''}.")
    if "legal_when" in card:
        if "challenge" in card:
            lines.append(f"- It is legal only when {w.expr(card['legal_when'])}"
                         f"{held if _reads_hand(card['legal_when']) else ''}. It may be played anyway, as a bluff, "
                         "and the attacked player may challenge it.")
        else:
            lines.append(f"- It may be played only when {w.expr(card['legal_when'])}"
                         f"{held if _reads_hand(card['legal_when']) else ''}.")
    for eff in card.get("effects", []):
        label = {"play": "When you play it", "turn_up": "As the round's first card"}.get(eff["event"], eff["event"])
        subject = "you" if eff["event"] == "play" else "the dealer"
        text = w.actions(eff["actions"], subject)
        if eff["event"] == "turn_up":
            text = text.replace("the next player", "the player to the dealer's left")
        gone = " (it has left your hand by then)" if eff["event"] == "play" and _reads_hand(eff["actions"]) else ""
        lines.append(f"- {label}{gone}: {text}.")
    if _goes_around(card):
        lines.append("- With two players, the player after the next player (and the one before the previous player) "
                     "is you.")
    if "challenge" in card:
        passed = " (whoever the attack reaches after any pass, but never you)" if _passes_attacks(w.ir) else ""
        lines.append(f"- If the attacked player{passed} challenges it (and sees your hand): "
                     f"{w.actions(card['challenge'], 'the challenger')}.")
    if not card.get("effects") and cat != "wild":
        lines.append("- It has no effect when played.")
    if cat == "wild" and any(c is card for c in colorless_wilds(w.ir)):
        lines.append("- It names no color: the current color stays as it was.")
    return lines + [""]


def _counter_line(c) -> str:
    """A counter's or flag's line: whose it is, its start and when it clears."""
    what = "a count" if c["kind"] == "counter" else "a mark (set or not)"
    whose = "for each player" if c["per"] == "player" else "for the table"
    hidden = ", seen only by its player" if c.get("hidden") else ""
    reset = {"turn": "cleared when a new turn begins", "round": "cleared at the start of every round",
             "next_turn": "cleared when that player's next turn is over (a skipped turn counts)"
             if c["per"] == "player" else
             "cleared when the next turn of the player who last set it is over (a skipped turn counts)",
             "at_next_turn": "cleared as that player's next turn begins (or is skipped)" if c["per"] == "player"
             else "cleared as the next turn of the player who last set it begins (or is skipped)"
             }.get(c.get("reset"), "kept for the whole game")
    start = "0" if c["kind"] == "counter" else "not set"
    return f"- `{c['name']}`: {what} {whose}{hidden}, {start} at first, {reset}."

def _trigger_line(w: Words, t) -> str:
    """A top-level trigger's line: when it fires, its condition, its actions."""
    of = ""
    if "of" in t:
        of = "a " + (f"{t['of']['color']} " if "color" in t["of"] else "") + f"`{t['of']['face']}`"
    when = {"play": f"Whenever you play {of or 'a card'} (not in answer to an attack)",
            "draw": f"Whenever your turn's draw brings {of or 'a card'} (the last card it draws; penalties "
                    "and rules that make you draw do not count)",
            "turn_start": "At the start of your turn (every player's)",
            "hand_reaches": f"Whenever your hand grows to {w.expr(t['count'])} cards or more (by any draw, gift "
                            "or swap; judged after each step of a rule; every player's)" if "count" in t else "",
            "round_start": "At the start of every round (you are the dealer)",
            "round_end": "At the end of every round (you are its winner)",
            "cut": "Before the dealer's cut, every round (you are the dealer)",
            "attacked": "Whenever a player is attacked, whatever the card and before they may answer "
                        "(you are the attacked player; the attacker and the penalty so far are known; an "
                        "attack passed on asks its new target's rules in turn)"}.get(t["event"], f"On {t['event']}")
    cond = f", if {w.expr(t['if'])}" if "if" in t else ""
    named = f" (the rule `{t['name']}`)" if "name" in t else ""
    own = _own_card_note(w.ir, t)
    return f"- {when}{cond}{named}: {w.actions(t['actions'], 'you')}.{own}"

def _sets(actions) -> set:
    """The counters and flags these actions (nested ones too) set, add to or clear."""
    return {a["counter"] for a in walk(actions) if a["kind"] in ("set_counter", "add_counter", "clear_counter")}


def _reads(node) -> set:
    """The names an expression (or any IR part) reads."""
    return {n["name"] for n in _dicts(node) if n.get("kind") in ("name", "attr") and isinstance(n.get("name"), str)}


def _reads_hand(node) -> bool:
    """Does this part of a card's rules read the hand of the card's own player (`me.hand`)?"""
    return any(n.get("kind") == "attr" and n.get("name") == "hand" and n.get("of") == {"kind": "name", "name": "me"}
               for n in _dicts(node))


def _kinds_spared(cond) -> set:
    """The kinds a condition leaves out as a whole: `... and card.kind != K`."""
    if cond.get("kind") == "binary" and cond["op"] == "and":
        return _kinds_spared(cond["left"]) | _kinds_spared(cond["right"])
    if cond.get("kind") == "binary" and cond["op"] == "!=":
        sides = (cond["left"], cond["right"])
        if {"kind": "attr", "of": {"kind": "name", "name": "card"}, "name": "kind"} in sides:
            return {s["name"] for s in sides if s.get("kind") == "name"}
    return set()


def _own_card_note(ir, t) -> str:
    """An `on play` trigger whose condition reads a counter or flag that a card's own `on play`
    sets fires for that very card too (triggers run after the card's own rules): said so."""
    if t["event"] != "play" or "if" not in t:
        return ""
    read, spared = _reads(t["if"]), _kinds_spared(t["if"])
    own = [c["names"][0] for c in ir.get("cards", []) for e in c.get("effects", [])
           if e["event"] == "play" and _sets(e["actions"]) & read and not spared & set(c["names"])
           and t.get("of", {}).get("face", c["names"][0]) in c["names"]]
    if not own:
        return ""
    names = ", ".join(f"`{n}`" for n in own)
    return (f" It fires for the {names} that sets it too: a trigger runs after the card's own rules (to start "
            f"from the next card, add `and card.kind != {own[0]}` to its condition).")


def _dicts(node):
    """Every dict of an IR tree (the rules' actions among them)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            yield n
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)


def _eliminations(ir) -> set:
    """"round" and/or "game": the kinds of `eliminate` the rulebook's rules hold."""
    return {n.get("from", "game") for n in _dicts(ir) if n.get("kind") == "eliminate"}


def _passes_attacks(ir) -> bool:
    """Does any rule of the rulebook pass an attack on (`pass attack to P`)?"""
    return any(n.get("kind") == "pass_attack" for n in _dicts(ir))


def _goes_around(card) -> bool:
    """Does the card's rule name the player two seats away (`next.next`, `previous.previous`)?"""
    stack = [card.get("effects", []), card.get("challenge", [])]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            if n.get("kind") == "attr" and n.get("name") in ("next", "previous") and \
                    (n["of"].get("kind") in ("name", "attr") and n["of"].get("name") == n["name"]):
                return True
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    return False


def _groups(cards):
    """Consecutive cards with the same rules (0 to 9, say) as one group."""
    out = []
    for c in cards:
        body = {k: v for k, v in c.items() if k != "names"}
        if out and {k: v for k, v in out[-1][0].items() if k != "names"} == body:
            out[-1].append(c)
        else:
            out.append([c])
    return out


def explain(rulebook, card: str | None = None) -> str:
    ir = rulebook.ir
    w = Words(ir)
    counts = deck_counts(ir)
    cards = ir.get("cards", [])
    if card is not None:
        found = [c for c in cards if c["names"][0] == card]
        if not found:
            from unorules.errors import did_you_mean
            raise KeyError(f"`{ir['name']}` has no card `{card}`" +
                           (f"; {did_you_mean(card, [c['names'][0] for c in cards])}" if did_you_mean(card, [c['names'][0] for c in cards]) else ""))
        lines = explain_card(w, found[0], counts.get(card))
        marks = _sets([a for e in found[0].get("effects", []) for a in e["actions"]])
        kept = [c for c in ir.get("counters", []) if c["name"] in marks]
        if kept:                             # what the card's marks are, when they clear, and what reads them
            lines += ["What it keeps track of:", ""] + [_counter_line(c) for c in kept]
            readers = [tr for tr in ir.get("triggers", []) if _reads(tr) & marks]
            if readers:
                lines += ["", "The rules that read it:", ""] + [_trigger_line(w, tr) for tr in readers]
            lines.append("")
        return "\n".join(lines)
    lines = [f"# {ir.get('title', ir['name'])}", ""]
    players = ir.get("players", {"min": DEFAULT_PLAYERS[0], "max": DEFAULT_PLAYERS[1]})
    sides = sides_of(ir)
    total = sum(sum(c.values()) for c in counts.values()) // max(1, len(sides))
    lines.append(f"For {players['min']} to {players['max']} players, with {total} cards.")
    if len(sides) == 1:
        lines.append(f"Colors: {', '.join(sides[0]['colors'])}.")
    else:
        lines.append("Every card has two faces: " + "; ".join(f"the {s['name']} side with colors {', '.join(s['colors'])}"
                                                              for s in sides) + ". Play starts on the "
                     f"{sides[0]['name']} side." + (" Which faces share a card is shuffled." if ir.get("pair_sides") else ""))
    teams = ir.get("teams")
    if teams:
        how = ("partners sit opposite each other (with four players, seats 0 and 2, 1 and 3)"
               if teams["seating"] == "opposite" else "partners sit next to each other")
        lines.append(f"The players play in teams of {teams['size']}: {how}.")
    piles = ir.get("piles", [])
    if len(piles) > 1:
        lines.append(f"There are {len(piles)} discard piles: {', '.join(f'`{p}`' for p in piles)}. Each has its own top "
                     "card and its own current color; a card may be played on any pile it matches, and its color "
                     "changes only that pile's.")
    if ir.get("out_of_turn") == "clockwise":
        lines.append("Out of turn (jumping in, cards played at any time), players may act clockwise from the player "
                     "who played, whatever the direction of play.")
    if ir.get("options"):
        lines += ["", "## Options", "", "Each can be changed for a run (`--option NAME=VALUE`):", ""]
        for o in ir["options"]:
            v = o["value"]["value"]
            shown = ("on" if v else "off") if isinstance(v, bool) else f'"{v}"' if isinstance(v, str) else str(v)
            lines.append(f"- `{o['name']}`: {shown}" + (f' — "{o["help"]}"' if o.get("help") else ""))
    if ir.get("rules"):
        lines += ["", "## Named rules", ""]
        for r in ir["rules"]:
            lines.append(f"- `{r['name']}`: {w.actions(r['actions'], 'the player who follows it')}.")
    lines += ["", "## Setup", ""]
    setup = ir.get("setup", {})
    hand = w.expr(setup["hand"]) if "hand" in setup else str(DEFAULT_HAND)
    if "cut" in setup:
        lines.append(f"Before dealing, the dealer cuts the deck: with chance {w.expr(setup['cut']['chance'])} the cut is "
                     f"exact, and then {w.actions(setup['cut']['actions'], 'the dealer')}.")
    start = ("Turn up one card from the draw pile onto each discard pile, in order, to start it."
             if len(piles) > 1 else "Turn up the top card of the draw pile to start the discard pile.")
    lines.append(f"Shuffle and deal {hand} cards to each player, one at a time, starting with the player to the "
                 f"dealer's left. {start}")
    firsts = [(c["names"][0], e) for c in cards for e in c.get("effects", []) if e["event"] == "turn_up"]
    if firsts:
        lines += ["", "If the first card turned up is:"]
        for name, e in firsts:
            text = w.actions(e["actions"], "the dealer").replace("the next player", "the player to the dealer's left")
            lines.append(f"- `{name}`: {text}.")
        lines.append("- anything else: the player to the dealer's left starts, and play goes clockwise.")
    else:
        lines.append("The player to the dealer's left starts, and play goes clockwise.")
    lines += ["", "## Your turn", ""]
    turn = ir.get("turn", {})
    lines.append("Play one card that matches the top card by color or by kind (number or symbol), or any wild card.")
    if turn.get("multi_play"):
        lines.append("You may play several cards of the same kind together when the first one matches; the last one "
                     "sets the color.")
    stuck = "only when you cannot play" if turn.get("draw_only_when_stuck") else "instead, even when you could play"
    if turn.get("draw_with"):
        lines.append(f"Or, instead of drawing a card ({stuck}): {w.actions(turn['draw_with'], 'you')}.")
    elif turn.get("draw_until_playable"):
        lines.append(f"Or draw ({stuck}): keep drawing until a playable card comes.")
    else:
        lines.append(f"Or draw one card ({stuck}).")
    if turn.get("may_pass"):
        lines.append("Or pass: your turn ends without playing or drawing.")
    if turn.get("new_deck"):
        lines.append("When the draw pile runs out and the discard pile cannot refill it, a fresh deck (another box, "
                     "shuffled) becomes the draw pile; its cards stay in the game (up to 10 fresh decks a game).")
    drawn = turn.get("drawn_card", "may_play")
    if isinstance(drawn, dict):
        lines.append(f"A playable drawn card is played at once when {w.expr(drawn['must_play_when'])}; "
                     "otherwise it is kept and your turn ends.".replace("the card", "it"))
    else:
        lines.append({"may_play": "A playable drawn card may be played at once (and no other card); otherwise your turn ends.",
                      "must_play": "A playable drawn card must be played at once.",
                      "is_kept": "The drawn card is kept and your turn ends."}[drawn])
    if turn.get("draw_up_to"):
        lines.append(f"After a draw you may draw again, up to {turn['draw_up_to']} draws in one turn, or stop.")
    lines.append("When the draw pile runs out, the discard pile except its top card is shuffled into a new draw pile.")
    if "turn_cap" in turn:
        lines.append(f"A round still going after {turn['turn_cap']:,} turns ends there, undecided (stalled).")
    for d in ir.get("declarations", []):
        n = d["at"]
        lines += ["", f"## Calling {d['name'].upper()}", "",
                  f"When you play down to {n} card{'s' if n != 1 else ''}, call \"{d['name'].upper()}!\". If you forget and "
                  f"another player catches you before the next player begins their turn, "
                  f"{w.actions(d['actions'], 'you')}. A wrong accusation costs nothing."]
        false = next((f for f in ir.get("false_calls", []) if f["name"] == d["name"]), None)
        if false is not None:
            lines.append(f"Calling \"{d['name'].upper()}!\" with a play that leaves more than {n} card{'s' if n != 1 else ''} "
                         f"is a false call: after the card's own rules, {w.actions(false['actions'], 'you')}.")
    if ir.get("counters"):
        lines += ["", "## What the table keeps track of", ""]
        lines += [_counter_line(c) for c in ir["counters"]]
    lines += ["", "## The cards", ""]
    for group in _groups(cards):
        lines += explain_card(w, group[0], counts.get(group[0]["names"][0]), [c["names"][0] for c in group], counts)
    if ir.get("reactions"):
        lines += ["## Answering attacks", "",
                  "An attack (a card that makes another player draw, swap, ...) may be answered before it takes "
                  "effect. The attacked player may:"]
        for r in ir["reactions"]:
            cond = f", if {w.expr(r['if'])}" if "if" in r else ""
            with_ = " or ".join(f"`{x}`" if isinstance(x, str) else f"any {x['any']} card" for x in r["with"])
            to = " or ".join(f"`{x}`" if isinstance(x, str) else f"any {x['any']} card" for x in r["to"])
            named = f" (the reaction `{r['name']}`)" if "name" in r else ""
            lines.append(f"- answer a {to} with a {with_}{cond}{named}: play it, then {w.actions(r['actions'], 'you')}.")
        lines += ["", "Whoever does not answer takes the attack.", ""]
    if ir.get("triggers") or "jump_in" in ir or ir.get("play_rules"):
        lines += ["## House rules", ""]
        for r in ir.get("play_rules", []):
            if r["kind"] == "play_only_when":
                lines.append(f"- On a turn, and by `may play`, a card of any kind may be played only when "
                             f"{w.expr(r['when'])} (the table's rule, on top of matching and the card's own rules; "
                             "answers to attacks, jump-ins and cards played at any time follow their own rules).")
            else:
                lines.append(f"- On a turn, and by `may play`, a card may be played on anything, whatever the top card "
                             f"and the color, when {w.expr(r['when'])} (the table's rule; the card's own rules "
                             "still hold).")
        lines += [_trigger_line(w, t) for t in ir.get("triggers", [])]
        if "jump_in" in ir:
            cond = w.expr(ir["jump_in"]["when"]) if "when" in ir["jump_in"] else "the card is identical to the top card"
            if ir["jump_in"].get("by") == "anyone":
                lines.append(f"- Jumping in: right after any card is played, any player, its own player too (asked last), "
                             f"may play a card out of turn when {cond}. Play then continues from them, and the jumped-on "
                             f"card's effect is replaced by theirs.")
            else:
                lines.append(f"- Jumping in: right after any card is played, another player may play a card out of turn "
                             f"when {cond}. Play then continues from them, and the jumped-on card's effect is replaced "
                             f"by theirs.")
        lines.append("")
    sc = ir.get("scoring", {})
    lines += ["## Winning and scoring", ""]
    team = " (with their team)" if teams else ""
    if sc.get("to_the_last") or "places" in sc:
        until = ("until only one player still holds cards" if "places" not in sc else
                 f"until {w.expr(sc['places'])} players are out, or only one still holds cards")
        lines.append(f"A player with no cards left goes out and takes the next place (first, second, ...); the round "
                     f"goes on without them {until}. The first out wins the round{team}.")
    else:
        lines.append(f"The first player with no cards left wins the round{team} (a last card's effects still happen "
                     "first).")
    if "rank_rest_by" in sc:
        lines.append(f"When the round ends, the players still holding cards are placed after those out by "
                     f"{w.expr(sc['rank_rest_by']).replace('your ', 'their ')}, fewest first (ties: in the direction "
                     "of play from the winner).")
    if sc.get("method") == "each_scores_own_hand":
        lines.append("Every player scores the points of the cards left in their own hand; the lowest total wins.")
    elif sc.get("method") == "no_points":
        lines.append("Nobody scores points: each round has a winner, and no totals are kept."
                     + (" The player (or team) who won the most rounds wins the game (ties: the lowest seat)."
                        if "rounds" in sc else ""))
    elif isinstance(sc.get("method"), dict):
        lines.append(f"The winner scores {w.expr(sc['method']['winner_scores'])} (judged as the round ends, \"you\" "
                     "being the winner).")
    elif teams:
        lines.append("The winner scores the points of all cards left in the other teams' hands; a team's score is its "
                     "members' sum.")
    else:
        lines.append("The winner scores the points of all cards left in the other players' hands.")
    if "next_dealer" in sc:
        lines.append(f"The next round is dealt by {w.expr(sc['next_dealer'])} (judged as this round ends).")
    if "next_leader" in sc:
        lines.append(f"The next round is led by {w.expr(sc['next_leader'])}: the first card's rules treat the player "
                     "before them as the dealer.")
    if "target" in sc:
        lines.append(f"The game ends when a {'team' if teams else 'player'}'s score reaches {w.expr(sc['target'])}.")
    if "rounds" in sc:
        lines.append(f"The game ends after {w.expr(sc['rounds'])} rounds.")
    if "eliminate_above" in sc:
        lines.append(f"A player whose score passes {w.expr(sc['eliminate_above'])} is out; the last player left wins.")
    scopes = _eliminations(ir)
    if "round" in scopes:
        lines.append("A player eliminated from a round holds no cards, takes no turn and is asked nothing for the "
                     "rest of it, and is dealt in again next round. When a rule leaves one player in the round, that "
                     "player wins it at once, and the round is scored as above (the eliminated hold nothing).")
    if "game" in scopes:
        lines.append("A player eliminated from the game holds no cards, takes no turn, is asked nothing and sits out "
                     "every later round. When a rule leaves one player in the round, that player wins it at once and "
                     "it is scored as above; when one player is left in the game, that player wins the game.")
    if not any(k in sc for k in ("target", "rounds", "eliminate_above")):
        lines.append("One round decides the game.")
    return "\n".join(lines).rstrip() + "\n"
