"""The scenario file format (docs/scenarios.md): its keys and the shape of every value, and
`load_scenarios(path)`, which reads a file and reports every problem at once, each with file, key
path and a hint: unknown keys, values of the wrong shape (a list where a map belongs, text where a
number does). Seats, cards and rulebooks are checked when a scenario is built (runner.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from unorules.errors import Diagnostic, RulebookError, did_you_mean
from unorules.language.loader import read_text
from unorules.language.schema import describe as _what
from unorules.language.yaml_json import parse_yaml

TOP_KEYS = ["name", "rulebook", "include", "with", "options", "players", "seed", "given", "start", "defaults", "script",
            "expect"]
GIVEN_KEYS = ["dealer", "hands", "front", "discard", "draw_pile", "color", "turn", "direction", "side", "scores",
              "counters", "piles"]
EXPECT_KEYS = ["hands", "hand_sizes", "top", "color", "turn", "direction", "side", "draw_pile_size", "discard_size",
               "draw_pile_top", "scores", "round_winner", "seats", "eliminated", "eliminated_from_round", "events", "error", "counters",
               "places", "round_winners", "next_dealer", "next_leader", "tops", "front", "team_scores", "open_hands"]
DECISION_KEYS = ["play", "draw", "keep", "challenge", "respond", "jump_in", "catch", "perform", "choose", "chance", "expect"]
MODIFIERS = ["color", "target", "uno", "pile"]
# the values a default can answer with (a decision kind not listed here takes any answer its script entry would)
DEFAULT_VALUES = {"challenge": (True, False), "catch": (True, False), "perform": (True, False), "jump_in": (False,),
                  "respond": (False,), "any_time": (False,), "play_more": (False,), "keep": (True,),
                  "choose": (), "draw": ()}
DEFAULT_HELP = {k: f"`{k}: false` declines it whenever the script says nothing" for k in
                ("jump_in", "respond", "any_time", "play_more")}
DEFAULT_KINDS = ["challenge", "catch", "jump_in", "respond", "perform", "keep", "choose", "draw", "any_time",
                 "play_more"]


# The shape of every value: "text", "int" (a whole number), "bool", "number", "any", "scalar",
# ("list", SHAPE), ("seats", SHAPE) (a map of seats to SHAPE), ("names", SHAPE) (a map of names to
# SHAPE), ("or", SHAPE, ...); a dict is a map whose keys are checked by _check_keys.
CARD = "text"
CARDS = ("list", CARD)
COUNTER = ("or", "int", "bool", ("seats", ("or", "int", "bool")))
EXPECT_SHAPE = {"hands": ("seats", CARDS), "hand_sizes": ("seats", "int"), "top": CARD, "color": "text", "turn": "int",
                "direction": "text", "side": "text", "draw_pile_size": "int", "discard_size": "int",
                "draw_pile_top": CARDS, "scores": ("seats", "number"), "round_winner": ("or", "int", "none"),
                "seats": ("seats", "int"), "eliminated": ("list", "int"),
                "eliminated_from_round": ("list", "int"), "events": ("list", ("names", "any")),
                "error": "text", "counters": ("names", COUNTER), "places": ("list", "int"),
                "round_winners": ("list", "int"), "next_dealer": "int", "next_leader": "int", "tops": ("names", CARD),
                "front": ("seats", CARDS), "team_scores": ("seats", "number"), "open_hands": ("list", "int")}
ENTRY_SHAPE = {"player": "int", "play": ("or", CARD, CARDS, "bool"), "draw": "bool", "keep": "bool", "challenge": "bool",
               "respond": ("or", CARD, "bool"), "jump_in": ("or", CARD, "bool"), "catch": ("or", "int", "bool"),
               "perform": "bool", "choose": ("or", "scalar", CARDS), "chance": "scalar", "expect": EXPECT_SHAPE,
               "color": "text", "target": "int", "uno": "bool", "pile": "text"}
SHAPE = {"name": "scalar", "rulebook": "text", "include": ("list", "text"), "with": ("list", "text"),
         "options": ("names", "scalar"), "players": "int", "seed": "int", "start": "text",
         "given": {"dealer": "int", "hands": ("seats", CARDS), "front": ("seats", CARDS), "discard": CARDS, "draw_pile": CARDS, "color": "text",
                   "turn": "int", "direction": "text", "side": "text", "scores": ("seats", "number"),
                   "counters": ("names", COUNTER), "piles": ("names", CARDS)},
         "defaults": ("names", "scalar"), "script": ("list", ENTRY_SHAPE), "expect": EXPECT_SHAPE}
_WORDS = {"text": "text", "int": "a whole number", "bool": "true or false", "number": "a number", "none": "nothing",
          "scalar": "a single value", "any": "a value"}


def _fits(value, shape) -> bool:
    if shape == "any":
        return True
    if shape == "text":
        return isinstance(value, str)
    if shape == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if shape == "bool":
        return isinstance(value, bool)
    if shape == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if shape == "none":
        return value is None
    if shape == "scalar":
        return isinstance(value, (str, int, float, bool))
    if isinstance(shape, dict):
        return isinstance(value, dict)
    if shape[0] == "list":
        return isinstance(value, list)
    if shape[0] in ("seats", "names"):
        return isinstance(value, dict)
    return any(_fits(value, s) for s in shape[1:])        # "or"


def _say(shape) -> str:
    if isinstance(shape, str):
        return _WORDS[shape]
    if isinstance(shape, dict):
        return "a mapping"
    if shape[0] == "list":
        return "a list"
    if shape[0] == "seats":
        return "a mapping of seats (0, 1, ...)"
    if shape[0] == "names":
        return "a mapping of names"
    return " or ".join(dict.fromkeys(_say(s) for s in shape[1:]))


def check_shape(value, shape, parent, key, path, err):
    """Report every value of the wrong shape below `value` (at `parent[key]`), with its key path."""
    if not _fits(value, shape):
        err(f"`{path}` must be {_say(shape)}, not {_what(value)}", parent, key)
        return
    if isinstance(shape, dict):
        for k, v in value.items():
            if k in shape:
                check_shape(v, shape[k], value, k, f"{path}.{k}" if path else str(k), err)
    elif isinstance(shape, tuple) and shape[0] == "list":
        for i, v in enumerate(value):
            check_shape(v, shape[1], value, i, f"{path}[{i}]", err)
    elif isinstance(shape, tuple) and shape[0] in ("seats", "names"):
        for k, v in value.items():
            if shape[0] == "seats" and not (isinstance(k, int) and not isinstance(k, bool)):
                err(f"`{path}`: `{k}` is not a seat (seats are 0, 1, ...)", value, k)
                continue
            if shape[0] == "names" and not isinstance(k, str):
                err(f"`{path}`: `{k}` is not a name", value, k)
                continue
            check_shape(v, shape[1], value, k, f"{path}.{k}", err)
    elif isinstance(shape, tuple) and shape[0] == "or":
        for s in shape[1:]:
            if _fits(value, s):
                check_shape(value, s, parent, key, path, err)
                break


class ScenarioError(RulebookError):
    """A scenario file that cannot be run as written."""


@dataclass
class Scenario:
    name: str
    file: str
    data: dict
    spans: object
    text: str
    index: int = 0
    problems: tuple = ()          # unknown keys: reported with the problems found when it is built


# ---------------------------------------------------------------------------------------------
# loading

def load_scenarios(path: str | Path) -> list[Scenario]:
    path = Path(path)
    file = str(path)
    text = read_text(path, file)
    data, spans = parse_yaml(text, file, number_keys=True)
    diags: list[Diagnostic] = []

    def err(msg, node, key=None, help_=None, shape=True):
        (diags if shape else keys).append(Diagnostic("U0801", msg, file, spans.at(node, key) if key is not None
                                                     else spans.at(node), help=help_))
    keys: list[Diagnostic] = []               # unknown keys: reported with the scenario's other problems

    if isinstance(data, dict) and "scenarios" in data:
        extra = set(data) - {"scenarios"}
        for k in extra:
            err(f"unknown key `{k}` beside `scenarios`", data, k, "a file holds one scenario, or a list under `scenarios:`")
        items = data["scenarios"]
        if not isinstance(items, list):
            err("`scenarios` must be a list of scenarios", data, "scenarios")
            items = []
    else:
        items = [data]
    out = []
    for i, sc in enumerate(items):
        first_key = len(keys)
        if not isinstance(sc, dict):
            err("a scenario must be a mapping with `name`, `rulebook`, `players`", sc if isinstance(sc, (list, dict)) else data)
            continue
        _check_keys(sc, TOP_KEYS, "", err)
        check_shape(sc, SHAPE, data, i, "", err)
        for req in ("name", "rulebook", "players"):
            if req not in sc:
                err(f"the scenario needs `{req}`", sc)
        if isinstance(sc.get("given"), dict):
            _check_keys(sc["given"], GIVEN_KEYS, "given.", err)
        if isinstance(sc.get("expect"), dict):
            _check_keys(sc["expect"], EXPECT_KEYS, "expect.", err)
        if isinstance(sc.get("defaults"), dict):
            _check_keys(sc["defaults"], DEFAULT_KINDS, "defaults.", err)
            for key, value in sc["defaults"].items():
                allowed = DEFAULT_VALUES.get(key)
                if allowed == ():
                    err(f"`defaults.{key}` answers no decision: a {key} is always the script's to give", sc["defaults"],
                        key, help_=f"write each `{key}:` in the script")
                elif allowed is not None and (not isinstance(value, bool) or value not in allowed):
                    err(f"`defaults.{key}` can only be {' or '.join(str(v).lower() for v in allowed)}, not `{value}`",
                        sc["defaults"], key, help_=DEFAULT_HELP.get(key))
        players = sc.get("players")
        if isinstance(players, int) and not isinstance(players, bool):
            _check_seats(sc, players, err)
        if "start" in sc and sc["start"] not in ("turn", "turn_up", "deal"):
            err(f"`start` must be `turn`, `turn_up` or `deal`, not `{sc['start']}`", sc, "start",
                did_you_mean(str(sc["start"]), ["turn", "turn_up", "deal"]))
        script = sc.get("script", [])
        if not isinstance(script, list):
            err("`script` must be a list of decisions", sc, "script")
        else:
            for j, entry in enumerate(script):
                if not isinstance(entry, dict):
                    err(f"script[{j}] must be a mapping such as `{{player: 0, play: red 5}}`", script, j)
                    continue
                _check_keys(entry, ["player"] + DECISION_KEYS + MODIFIERS, f"script[{j}].", err)
                kinds = [k for k in DECISION_KEYS if k in entry]
                if len(kinds) != 1:
                    err(f"script[{j}] must hold exactly one decision ({', '.join(DECISION_KEYS)}), not "
                        f"{len(kinds)}", script, j)
                elif kinds[0] not in ("chance", "expect") and "player" not in entry:
                    err(f"script[{j}] needs `player`: the seat the engine must be asking", script, j)
                if "expect" in entry and isinstance(entry["expect"], dict):
                    _check_keys(entry["expect"], EXPECT_KEYS, f"script[{j}].expect.", err)
        out.append(Scenario(str(sc.get("name", f"{path.stem}[{i}]")), file, sc, spans, text, i,
                            tuple(keys[first_key:])))
    if diags:                                 # values of the wrong shape: nothing can be built from them
        raise ScenarioError(diags + keys, {file: text})
    return out


def _check_seats(sc, players, err):
    """Every seat a scenario names must be one of its players'."""
    def seat(v, node, key, path):
        if isinstance(v, int) and not isinstance(v, bool) and not 0 <= v < players:
            err(f"`{path}`: seat `{v}` is out of range: seats are 0 to {players - 1}", node, key)

    given, expect = sc.get("given"), sc.get("expect")
    expects = [(expect, "")] + [(entry.get("expect"), f"script[{j}].expect.")
                                for j, entry in enumerate(sc.get("script") or []) if isinstance(entry, dict)]
    maps = [(given, k, k) for k in ("hands", "scores", "counters", "front") if isinstance(given, dict)]
    maps += [(node, k, where + k) for node, where in expects if isinstance(node, dict)
             for k in ("hands", "hand_sizes", "scores", "seats", "front")]
    for node, k, path in maps:
        m = node.get(k)
        if isinstance(m, dict):
            for s in m:
                seat(s, m, s, path)
    singles = [(given, k, k) for k in ("dealer", "turn") if isinstance(given, dict)]
    singles += [(node, k, where + k) for node, where in expects if isinstance(node, dict)
                for k in ("turn", "round_winner", "next_dealer", "next_leader")]
    for node, k, path in singles:
        seat(node.get(k), node, k, path)
    for node, where in expects:
        if isinstance(node, dict):
            for k in ("eliminated", "eliminated_from_round", "places", "round_winners", "open_hands"):
                if isinstance(node.get(k), list):
                    for i, v in enumerate(node[k]):
                        seat(v, node, k, f"{where}{k}[{i}]")
    for j, entry in enumerate(sc.get("script") or []):
        if isinstance(entry, dict):
            for k in ("player", "target"):
                seat(entry.get(k), entry, k, f"script[{j}].{k}")


def _check_keys(d, allowed, prefix, err):
    for k in d:
        if k not in allowed:
            err(f"unknown key `{prefix}{k}`", d, k, did_you_mean(str(k), allowed) or
                "allowed: " + ", ".join(f"`{a}`" for a in allowed), shape=False)
