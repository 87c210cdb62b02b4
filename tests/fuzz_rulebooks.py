"""Seeded random rulebooks built from what the code generator covers: effects, triggers,
reactions, turn rules, scoring, memory, named rules, jumping in and cards played at any time.
`fuzzed_rulebook(random.Random(seed))` gives the same text for the same seed, so a count of them is
a fact of the suite (tests/test_codegen.py plays them; tests/test_explain_injective.py explains them)."""
from __future__ import annotations

import random
import re

EFFECTS = ["next do punish", "do punish", "each other do punish",
           "next chance coin { heads { draw 1 } tails { lose turn } }", "next draw count(each other as q where q.hand.size < 4)",
           "if sum(each player as q: q.hand.points) > 150 { reverse }",
           "if most(each other as q: q.hand.size) == next { next draw 1 }",
           "if max(each other as q: q.hits) >= 2 { play again }",
           "if fewest(each player as q where q.hand.size > 1: q.score) == me { draw 1 }", "add 1 to hits", "if me.hits > 2 { draw 1 }", "set warned", "if warned { reverse }", "add 1 to total",
           "if total > 6 { clear total\n    next lose turn }", "set hits to me.hand.size", "next add 1 to hits",
           "choose other player\n    swap hands with chosen", "pass hands", "pass hands counterclockwise",
           "cycle color", "draw until color red", "next perform dance chance 0.3 { draw 1 } else { reverse }",
           "chance luck { good weight 2 { next draw 1 } bad { draw 1 } }",
           "choose player where candidate.hand.size > 2 as victim\n    victim draw 1",
           "shuffle hands", "next lose turn", "reverse", "play again", "next draw 2", "draw 1", "choose color", "next choose color",
           "each other draw 1", "each player as q where q.hand.size > 3 { draw 1 }",
           "attack next penalty 2 { draw penalty; lose turn }", "attack previous penalty 1 { draw penalty }",
           "if player_count == 2 { next lose turn } else { reverse }",
           "if me.hand.count(card.color == current_color) >= 2 { next draw 1 }",
           "if not clockwise { previous draw 1 }", "set color red", "if streak > 1 { draw 2 }",
           "next draw (if top.rank > 4 then 1 else 0)", "attack next penalty 1 { draw penalty; lose turn }", "if me.hand.has(skip) { play again }",
           "if fewest_cards < 3 { choose color }",
           "choose one of calm, loud as mood\n    if mood == \"loud\" { reverse } else { score 5 }",
           "choose other player\n    swap seats with chosen", "next score -3",
           "reveal\n    if revealed.wild { draw 1 } else if revealed.color == red { play again }",
           "discard all card.color", "discard all card.kind",
           "choose number as n\n    each player discard all n", "choose number from 1 to 3 as k\n    next draw k",
           "choose kind where candidate != skip as named\n    discard all named", "give hand to previous",
           "each other give 1 card to me", "give 2 cards where not card.wild to next",
           "take 1 card from next", "take 2 cards where card.color == red from previous",
           "choose other player\n    exchange card with chosen",
           "each player as g give 1 card to g.next at once", "give 2 cards where me.hand.size > 3 to next at once",
           "redraw"]
TRIGGERS = ["on play of 7 if me.hand.size > 0: pass hands", "on play of red 3: next draw 1",
            "on play if streak >= 2: reverse", "on turn_start if me.hand.size > 9: draw 1",
            "on round_start: dealer draw 1", "on draw of wild: play again", "on draw if card.color == red: draw 1",
            "on round_end: winner draw 1", "on play of skip: choose other player\n  swap hands with chosen",
            "on play of 5 if me.hand.size > 0: attack next penalty 1 { draw penalty }"]
REACTIONS = ["react to skip with skip if penalty < 6:\n  add 2\n  pass attack to next",
             "react to skip, wild with reverse if card.color == current_color: pass attack to attacker",
             "react to wild with skip: cancel attack", "react to skip with wild:\n  choose color\n  resolve attack"]
TURNS = ["", "draw only when stuck", "drawn card must play", "drawn card is kept", "draw until playable",
         "draw with { chance press { none {} one weight 2 { draw 1 } two { draw 2 } } }",
         "drawn card must play when card.wild or card.color == current_color", "cap 40 turns"]
SCORING = ["single round", "winner scores others\n  target 150", "each scores own hand\n  rounds 3",
           "winner scores others\n  rounds 2",
           "winner scores others\n  rounds 3\n  next dealer most(each other as q: q.hand.size)\n  next leader winner",
           "each scores own hand\n  target 200\n  next dealer winner"]


def fuzzed_rulebook(rng: random.Random) -> str:
    def effect():
        return "\n    ".join(rng.sample(EFFECTS[:-1], rng.randint(1, 3)))
    playable = rng.choice(["", "  playable when not me.hand.any(card.color == current_color)\n",
                           "  legal when me.hand.size > 2\n",
                           "  legal when not me.hand.any(card.color == current_color)\n"
                           "  challenge:\n    if legal { target draw 2; resolve attack }\n"
                           "    else { attacker draw penalty; cancel attack }\n"])
    if "challenge" in playable:
        playable += "  on play:\n    choose color\n    attack next penalty 4 { draw penalty; lose turn }\n"
        wild_play = ""
    else:
        wild_play = f"  on play:\n    {effect()}\n"
    declare = rng.choice(["", "declare uno at 1 card: draw 2", "declare last at 2 cards: draw 1"])
    declare += "\n" + "\n".join(rng.sample(TRIGGERS, rng.randint(0, 3)))
    declare += "\n" + "\n".join(rng.sample(REACTIONS, rng.randint(0, 2)))
    declare += "\n" + rng.choice(["", "", "jump in", "jump in when card.kind == top.kind and not card.wild",
                                  "jump in when card.color == top.color and card.rank == top.rank\n"
                                  "out of turn order clockwise"])
    hand = rng.choice([7, 5, 3, 40])
    turn = rng.sample(TURNS, rng.randint(0, 2))
    if sum("drawn card" in t for t in turn) > 1:
        turn = turn[:1]
    turn = "\n  ".join(turn)
    if "draw until playable" in turn and "drawn card" not in turn:
        turn += "\n  drawn card must play"
    memory = "\n".join(["counter hits per player" + rng.choice(["", " reset each round", " reset after next turn",
                                                              " reset each turn"]),
                        "flag warned" + rng.choice(["", " reset each turn", " reset each round"]),
                        "counter total" + rng.choice(["", " reset each round"])])
    memory += "\nrule punish:\n  draw 1\n  " + rng.choice(["lose turn", "reverse", "if me.hand.size > 5 { lose turn }"])
    anytime = "" if "jump in" in declare else rng.choice(["", "", (
        "card veto {\n  wild\n  points 50\n  playable at any time\n"
        f"  {rng.choice(['', 'playable when me.hand.size < 6'])}\n"
        f"  on play: {rng.choice(['turn_player lose turn', 'turn_player draw 2', 'play again', 'reverse'])}\n}}\n")])
    return f"""rulebook fuzzed
players 2..8
colors red yellow green blue
{memory}
card 0..9 {{
  number
  points card.rank
}}
card skip {{
  action
  points 20
  on play:
    {effect()}
  on turn_up:
    {rng.choice(EFFECTS)}
}}
card reverse {{
  action
  points {rng.randint(0, 30)}
  on play:
    {effect()}
}}
card wild {{
  wild
  points 50
{playable}{wild_play}  on turn_up: {rng.choice(["next choose color", "redraw", "play again"])}
}}
{anytime}{declare}
deck {{
  per color: 1 x 0, 2 x 1..9, {rng.randint(1, 3)} x skip, 2 x reverse
  {rng.randint(2, 6)} x wild{chr(10) + "  3 x veto" if anytime else ""}
}}
setup {{
  hand {hand}
}}
turn {{
  {turn}
}}
scoring {{
  {rng.choice(SCORING)}
}}
"""


# ---- grammar-wide rulebooks: every construct, valid or not, for the differential fuzz -----------

G_PLAYERS = ["me", "next", "previous", "dealer", "chosen", "next.next", "me.previous"]
G_NUMBERS = ["0", "1", "2", "3", "me.hand.size", "chosen.hand.size", "me.plays", "table", "player_count",
             "streak", "me.hand.points", "me.score", "fewest_cards"]
G_COLORS = ["red", "blue", "current_color", "card.color", "top.color"]
G_CONDITIONS = ["true", "clockwise", "first_card", "me.marked", "me.hand.has(7)", "me.hand.any(card.wild)",
                "me.hand.size > 3", "chosen.hand.size > 2", "chosen.marked",
                "me.hand.any(card.color == current_color)", "count(each player as q where q.hand.size > 1) > 1",
                "me.hand.any(card is action)", "not top is number", "me.hand.count(card is wild) > 0"]
G_SIMPLE = ["lose turn", "play again", "reverse", "choose color", "cycle color", "pass hands",
            "pass hands counterclockwise", "shuffle hands", "choose other player", "choose player as p2",
            "choose one of exact, missed as guess", "choose number as n", "choose kind as kk",
            "choose number from 1 to 3 as k", "set marked", "clear marked", "add 1 to plays", "look at chosen.hand",
            "take 1 card from chosen", "give 1 card to next at once", "give 1 card where card.wild to next",
            "discard all red", "discard all 7", "draw until playable", "eliminate", "do punish",
            "do bonus", "give hand to next", "exchange card with next", "swap seats with next", "score 2",
            "draw until color red", "eliminate from round"]
# whole actions that bind a name and read it (a choice, a reveal), possibly inside a block that rebinds it
G_BINDING = ["choose player as p2; p2 draw 1", 'choose one of exact, missed as guess; if guess == "exact" { draw 1 }',
             "choose number as n; each player discard all n", "choose number from 1 to 3 as k; next draw k",
             "reveal; if revealed.wild { draw 1 }", "choose other player; chosen draw 1",
             "choose kind as kk; discard all kk", "each player as p { p.next draw 1 }",
             "each other as p where p.marked { draw 1 }", "each player as g give 1 card to g.next at once"]
G_SUBJECTS = ["", "", "", "next ", "previous ", "chosen ", "next.next ", "each other ", "each player ",
              "each other as p ", "each player as p where p.hand.size > 0 ", "dealer "]


def _g_number(rng, depth):
    if depth <= 0 or rng.random() < 0.5:
        return rng.choice(G_NUMBERS)
    pick = rng.randrange(4)
    if pick == 0:
        return f"({_g_number(rng, depth - 1)} {rng.choice('+-*/%')} {_g_number(rng, depth - 1)})"
    if pick == 1:
        return f"(if {_g_condition(rng, depth - 1)} then {_g_number(rng, depth - 1)} else {_g_number(rng, depth - 1)})"
    if pick == 2:
        return f"{rng.choice(['sum', 'max', 'min'])}(each {rng.choice(['other', 'player'])} as q: q.hand.size)"
    return "me.hand.count(card.color == red)"


def _g_condition(rng, depth, card=False):
    if depth <= 0 or rng.random() < 0.5:
        return rng.choice(G_CONDITIONS + (["card.kind == 7", "card.color == current_color", "card is number"] if card else []))
    pick = rng.randrange(3)
    if pick == 0:
        return f"{_g_number(rng, depth - 1)} {rng.choice(['==', '!=', '<', '>=', '>'])} {_g_number(rng, depth - 1)}"
    if pick == 1:
        return f"({_g_condition(rng, depth - 1, card)} {rng.choice(['and', 'or'])} {_g_condition(rng, depth - 1, card)})"
    return f"not {_g_condition(rng, depth - 1, card)}"


def _g_actions(rng, depth, most=3, card=False, rule=None, level=0) -> str:
    """Actions: `card` where a card is played (attacks, `card`), `rule` the named rule being
    written (it does not do itself), `level` how deep in named loops (each has its own name)."""
    out = []
    for _ in range(rng.randint(1, most)):
        loop = f"l{level}"
        subject = re.sub(r"\bp\b", loop, rng.choice(G_SUBJECTS))
        named = f" as {loop} " in subject
        pick = rng.randrange(12) if depth > 0 else rng.choice([5, 6, 7, 8, 9, 10])
        inner = lambda: _g_actions(rng, depth - 1, 2, card, rule, level + 1)       # noqa: E731
        if pick == 0:
            out.append(f"{subject}if {_g_condition(rng, 1, card)} {{ {inner()} }} else {{ {inner()} }}")
        elif pick == 1:
            out.append(f"{subject}{{ {inner()}{f'; {loop}.next draw 1' if named else ''} }}")
        elif pick == 2:
            out.append(f"{subject}chance coin {{ heads weight {rng.choice(['1', '2', 'me.hand.size'])} {{ {inner()} }} "
                       "tails {} }")
        elif pick == 3:
            out.append(f"{subject}perform dance chance 0.5 {{ {inner()} }} else {{ draw 1 }}")
        elif pick == 11:
            out.append(f"{subject}repeat until {_g_condition(rng, 1, card)} at most {rng.choice(['1', '3'])} "
                       f"{{ {inner()} }}")
        elif pick == 4 and card:
            out.append(f"attack {rng.choice(['next', 'previous', 'chosen'])} penalty 2 {{ {inner()} }}")
        elif pick in (4, 5):
            out.append(f"{subject}draw {_g_number(rng, 1)}")
        elif pick == 6:
            out.append(f"{subject}set table to {_g_number(rng, 1)}")
        elif pick == 7:
            out.append(f"{subject}swap hands with {rng.choice(G_PLAYERS)}")
        elif pick == 8:
            out.append(re.sub(r"\b([pg])\b", lambda m: f"{m.group(1)}{level}", rng.choice(G_BINDING)))
        else:
            action = rng.choice(G_SIMPLE)
            if rule is not None and action == f"do {rule}":
                action = "draw 1"
            out.append(subject + action)
    return "; ".join(out)


def _g_chosen(rng, text: str) -> str:
    """`chosen` is bound by a choice at the start of the list, or not used."""
    if "chosen" not in text:
        return text
    if rng.random() < 0.7:
        return "choose other player; " + text
    return text.replace("choose other player; chosen", "choose other player; next").replace("chosen", "next")


def grammar_rulebook(rng: random.Random) -> str:
    """A rulebook over classic from the language's constructs at random (valid or not): cards with
    nested blocks under subjects and loops, choices that rebind names inside blocks, named rules,
    triggers of every event, reactions, counters and flags, settings, places and teams."""
    settings = rng.sample(["remove scoring target", "turn { cap 300 turns }", "scoring { each scores own hand rounds 2 }",
                           "jump in", "scoring { places 2 }", "teams of 2, partners opposite",
                           "scoring { next leader winner rounds 2 }"],
                          rng.randint(0, 2))
    lines = ["rulebook fuzz", "extends classic"] + (["players 4..4"] if "teams of 2, partners opposite" in settings else []) + [
             "counter plays per player", "counter table", "flag marked per player reset after next turn",
             f"rule punish: {_g_chosen(rng, _g_actions(rng, 1, 2, rule='punish'))}",
             f"rule bonus: {_g_chosen(rng, _g_actions(rng, 0, 2, rule='bonus'))}"]
    for name in ("boom", "zap")[:rng.randint(0, 2)]:
        category = rng.choice(["wild", "action"])
        points = _g_number(rng, 1).replace("chosen", "next") if rng.random() < 0.15 else rng.choice(["20", "50", "0"])
        body = [category, f"points {points}"]
        if rng.random() < 0.4:
            body.append(f"playable when {_g_condition(rng, 1, True).replace('chosen', 'next')}")
        body.append("on play: " + _g_chosen(rng, _g_actions(rng, 2, card=True)))
        lines.append(f"card {name} {{ " + " ; ".join(body) + " }")
        lines.append(f"deck {{ {'2 × ' + name if category == 'wild' else 'per color: 1 × ' + name} }}")
    for _ in range(rng.randint(0, 3)):
        event = rng.choice(["play", "draw", "turn_start", "round_start", "round_end", "play of 7", "play of skip"])
        card = event.startswith(("play", "draw"))
        condition = f" if {_g_condition(rng, 1, card).replace('chosen', 'next')}" if rng.random() < 0.5 else ""
        lines.append(f"on {event}{condition}: " + _g_chosen(rng, _g_actions(rng, 1, card=card)))
    if rng.random() < 0.4:
        lines.append(f"react to {rng.choice(['draw_two', 'skip, reverse'])} with "
                     f"{rng.choice(['draw_two', '0..3', 'any number', 'any action'])}: "
                     + _g_chosen(rng, _g_actions(rng, 0, 2, card=True)) + "; pass attack to next")
    lines += settings
    lines += _g_hooks_and_fronts(random.Random(rng.getrandbits(32)))    # drawn last: earlier seeds keep their rules
    return "\n".join(lines) + "\n"


G_HOOK_ACTIONS = ["take back card", "pass attack to next", "cancel attack", "add 1", "resolve attack",
                  "double penalty", "take back card; cancel attack", "take back card; pass attack to previous"]
G_FRONT_ACTIONS = ["put top in front of me", "put card in front of me", "put top in front of next",
                   "discard wild from me.front", "move draw_two from me.front to hand",
                   "each other as f where f.front.size > 0 { f draw 1 }", "put top in front of me; put top in front of me"]


def _g_hooks_and_fronts(rng: random.Random) -> list[str]:
    """The constructs that found the fourth audit's d04 (issue 59): `on attacked` hooks that take the
    attacking card back or put it in front, and rules that put the discard pile's top in front."""
    lines = []
    if rng.random() < 0.35:
        condition = rng.choice(["", " if target.hand.size > 3", " if penalty > 1"])
        lines.append(f"on attacked{condition}: {rng.choice(G_HOOK_ACTIONS)}")
    if rng.random() < 0.08:                      # fronts run on the engine only: a few rulebooks have them
        if rng.random() < 0.4:
            lines.append(f"on attacked: {rng.choice(['put top in front of target', 'put top in front of me; cancel attack'])}")
        for _ in range(rng.choice([1, 2])):
            event = rng.choice(["play", "turn_start", "play of 7", "play of draw_two", "draw"])
            card_actions = [a for a in G_FRONT_ACTIONS if "card" not in a.split() or event.startswith(("play", "draw"))]
            lines.append(f"on {event}: {rng.choice(card_actions)}")
    return lines
