"""Seeded random rulebooks built from what the code generator covers: effects, triggers,
reactions, turn rules, scoring, memory, named rules, jumping in and cards played at any time.
`fuzzed_rulebook(random.Random(seed))` gives the same text for the same seed, so a count of them is
a fact of the suite (tests/test_codegen.py plays them; tests/test_explain_injective.py explains them)."""
from __future__ import annotations

import random

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
