"""What each answer of a choice is worth to its chooser, read from the rules alone: the greedy
agent's way of answering `choose one of A, B as NAME` and `choose number from L to H as NAME`
(docs/researchers.md, "How greedy answers a choice"). Every runner (engine, generated and native
code) answers from these figures, so they play the same games.

The worth of an option is the worth of the actions its branches run: the `if NAME == "A"` tests
after the choice in the same block (an `else` counts for the options no earlier test of that `if`
named; a test of anything else holds half the time). An action's worth is what it does to the
chooser's standing, in cards:

- `draw N` (`draw until ...`: 2; an amount the rules judge later: 1) costs its drawer N;
- `lose turn` costs 1, `play again` earns 1, an attack costs its target its penalty (2 when it is
  judged later), `discard all ...` earns its discarder 2, `give` earns its giver 1 (a hand: 3),
  `take` costs its taker 1, a positive `score` earns 1 (a negative costs 1), `eliminate` costs 10
  and `win round` earns 10;
- for the chooser (no subject, `me`) the sign is as above, for any other player it is reversed,
  `each other` counts as two other players and `each player` as the chooser and two others;
- `if`, `chance` and `perform` are worth the mean of their branches, blocks and `repeat` the sum of
  their actions, `do RULE` its rule's actions (once: a rule that does itself is worth 0 there);
- anything else is worth 0.

A number's worth is read the same way as a line: its slope is the worth with NAME = 1 less the
worth with NAME = 0; greedy names the lowest number when the slope is negative, else the highest.
Options of equal worth are told apart by the greedy agent's random draw (uniformly), so a choice
the rules cannot rank is not always answered with its first option.
"""
from __future__ import annotations

from .ir import literal_value

OTHERS = 2                      # how many players `each other` counts as

_COST = {"lose_turn": 1, "draw_until_color": 2, "draw_until_playable": 2, "eliminate": 10, "take": 1}
_GAIN = {"play_again": 1, "discard_all": 2, "give": 1, "give_hand": 3, "win_round": 10}


def choice_worths(ir: dict) -> dict[int, tuple]:
    """For every `choose one of` and `choose number from ... to ...` of the rulebook, by the id of
    its IR node: the worth of each option (in the rule's order), or a number's slope, as 1-tuple."""
    rules = {r["name"]: r["actions"] for r in ir.get("rules", [])}
    out: dict[int, tuple] = {}
    for actions in _action_lists(ir):
        for i, a in enumerate(actions):
            if a["kind"] == "choose_option":
                rest = actions[i + 1:]
                out[id(a)] = tuple(_branch_worth(rest, a["as"], o, rules) for o in a["options"])
            elif a["kind"] == "choose_number" and "low" in a:
                rest = actions[i + 1:]
                out[id(a)] = (_worth(rest, rules, {a["as"]: 1}) - _worth(rest, rules, {a["as"]: 0}),)
    return out


def greedy_options(worth: tuple) -> tuple[int, ...]:
    """The indexes of the options greedy may take: those of the greatest worth."""
    best = max(worth)
    return tuple(i for i, w in enumerate(worth) if w == best)


def _action_lists(node):
    """Every list of actions in the IR, nested ones too."""
    if isinstance(node, dict):
        for key, v in node.items():
            if key in ("actions", "then", "otherwise") and isinstance(v, list) and all(isinstance(x, dict) for x in v):
                yield v
            yield from _action_lists(v)
    elif isinstance(node, list):
        for v in node:
            yield from _action_lists(v)


def _names_option(when: dict, name: str, option: str) -> bool | None:
    """Whether a test `NAME == "X"` (either way round) holds for `option`; None for another test."""
    if when.get("kind") != "binary" or when.get("op") != "==":
        return None
    for a, b in ((when["left"], when["right"]), (when["right"], when["left"])):
        if a.get("kind") == "name" and a.get("name") == name and b.get("kind") == "string":
            return b["value"] == option
    return None


def _branch_worth(actions: list, name: str, option: str, rules: dict) -> float:
    total = 0.0
    for a in actions:
        if a["kind"] != "if":
            continue
        branches = a["branches"]
        tests = [_names_option(b["when"], name, option) for b in branches]
        if all(t is None for t in tests):
            continue
        total += _arm_worth(branches, tests, a.get("otherwise", []), rules)
    return total


def _arm_worth(branches, tests, otherwise, rules) -> float:
    """The worth of an `if` for one option: a branch whose test names it, past those naming another;
    a test of something else may hold or not (half each); no branch: the `else`."""
    if not branches:
        return _worth(otherwise, rules, {})
    rest = _arm_worth(branches[1:], tests[1:], otherwise, rules)
    if tests[0] is None:
        return (_worth(branches[0]["then"], rules, {}) + rest) / 2
    return _worth(branches[0]["then"], rules, {}) if tests[0] else rest


def _worth(actions: list, rules: dict, bound: dict, seen: frozenset = frozenset()) -> float:
    return sum(_action_worth(a, rules, bound, seen) for a in actions)


def _amount(e, bound: dict, unknown: float) -> float:
    if not isinstance(e, dict):
        return unknown
    if e.get("kind") == "name" and e.get("name") in bound:
        return bound[e["name"]]
    v = literal_value(e)
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else unknown


def _who(subject) -> float:
    """+1 for the chooser, -1 for another player, as the factor of a cost; a loop counts its players."""
    if subject is None:
        return 1.0
    k = subject.get("kind")
    if k == "each_other":
        return -float(OTHERS)
    if k == "each_player":
        return 1.0 - OTHERS
    if k == "name" and subject.get("name") == "me":
        return 1.0
    return -1.0


def _action_worth(a: dict, rules: dict, bound: dict, seen: frozenset) -> float:
    k = a["kind"]
    if k == "if":
        arms = [_worth(b["then"], rules, bound, seen) for b in a["branches"]]
        arms.append(_worth(a.get("otherwise", []), rules, bound, seen))
        return sum(arms) / len(arms)
    if k == "chance":
        arms = [_worth(o["actions"], rules, bound, seen) for o in a["outcomes"]]
        return sum(arms) / len(arms) if arms else 0.0
    if k == "perform":
        return (_worth(a["actions"], rules, bound, seen) + _worth(a.get("otherwise", []), rules, bound, seen)) / 2
    if k in ("group", "repeat"):                # a block with a subject: its actions are that subject's
        return _worth(a["actions"], rules, bound, seen) * _who(a.get("subject"))
    if k == "do":
        rule = a["rule"]
        if rule in seen or rule not in rules:
            return 0.0
        return _worth(rules[rule], rules, bound, seen | {rule})
    who = _who(a.get("subject"))
    if k == "draw":
        return -who * _amount(a.get("count"), bound, 1.0)
    if k == "attack":
        return -_who(a.get("target")) * _amount(a.get("penalty"), bound, 2.0)
    if k == "score":
        amount = _amount(a.get("amount"), bound, 1.0)
        return who * (1.0 if amount > 0 else -1.0 if amount < 0 else 0.0)
    if k in _COST:
        return -who * _COST[k]
    if k in _GAIN:
        return who * _GAIN[k]
    return 0.0
