"""The JSON Schema of a run's result, as `simulate --json` and `compare --json` write it: `unorules
report` checks a file against it before reading a value, so a file written elsewhere (Infinity,
10^30, a billion players, a string where a count goes) is refused with what is wrong, never drawn.
Every number is finite and bounded, every list and text bounded in length."""
from __future__ import annotations

import functools
import json

BIG = 10 ** 12
COUNT = {"type": "integer", "minimum": 0, "maximum": BIG}
NUMBER = {"type": "number", "minimum": -BIG, "maximum": BIG}
RATE = {"type": "number", "minimum": 0, "maximum": 1}
TEXT = {"type": "string", "maxLength": 10_000}
TEXTS = {"type": "array", "maxItems": 1000, "items": TEXT}
CI95 = {"type": "array", "minItems": 2, "maxItems": 2, "items": NUMBER}
PAIRS = {"type": "array", "maxItems": 100_000,
         "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer", "minimum": -BIG,
                                                                            "maximum": BIG}}}
WINS = {"type": "object", "required": ["wins", "rate", "ci95"], "additionalProperties": False,
        "properties": {"wins": COUNT, "rate": RATE, "ci95": CI95, "seat_games": COUNT}}
TRACKED = {"type": "object", "required": ["players", "wins", "rate", "ci95"],
           "properties": {"players": COUNT, "wins": COUNT, "rate": {"type": ["number", "null"], "minimum": 0,
                                                                    "maximum": 1},
                          "ci95": CI95, "others": {"$ref": "#/$defs/tracked"}}, "additionalProperties": False}
SEATS = {"type": "object", "maxProperties": 1000, "propertyNames": {"pattern": "^[0-9]{1,4}$"},
         "additionalProperties": WINS}
TEAM = {**WINS, "required": [*WINS["required"], "seats"],
        "properties": {**WINS["properties"], "seats": {"type": "array", "minItems": 1, "maxItems": 1000,
                                                       "items": {"type": "integer", "minimum": 0, "maximum": 999}}}}
TEAMS = {**SEATS, "additionalProperties": TEAM}
MAX_DEPTH = 20                # a result's nesting (a followed card's `others` is one level)

# a run of --precision (runs/precision.py): how many games it took and why
PRECISION = {"type": "object", "required": ["precision", "games", "looks", "planned_looks", "z", "precise"],
             "maxProperties": 20,
             "properties": {"precision": {"type": "number", "exclusiveMinimum": 0, "maximum": BIG},
                            "games": {"type": "integer", "minimum": 1, "maximum": BIG},
                            "looks": {"type": "integer", "minimum": 1, "maximum": 100},
                            "planned_looks": {"type": "integer", "minimum": 1, "maximum": 100},
                            "z": {"type": "number", "minimum": 0, "maximum": 10}, "precise": {"type": "boolean"},
                            "set_by": {"type": "string", "maxLength": 1000},
                            "method": {"type": "string", "maxLength": 1000},
                            "set_by_half_width": {"type": "number"}, "history": {"type": "array", "maxItems": 100}}}

SIMULATION = {
    "type": "object",
    "required": ["games", "players", "outcomes", "wins_by_seat", "wins_by_agent", "turns_per_round",
                 "turns_per_round_sd", "histograms", "cards_drawn_per_game"],     # (a comparison's results: no players)
    "maxProperties": 200,
    "properties": {
        "games": {"type": "integer", "minimum": 1, "maximum": BIG},
        "players": {"type": "integer", "minimum": 1, "maximum": 1000},
        "precision": PRECISION,
        "outcomes": {"type": "object", "maxProperties": 10, "additionalProperties": COUNT},
        "wins_by_seat": SEATS,
        "wins_by_team": TEAMS,
        "wins_by_agent": {"type": "object", "maxProperties": 100, "additionalProperties": WINS},
        "turns_per_round": {"type": "object", "required": ["mean", "median", "p95"], "additionalProperties": False,
                            "properties": {"mean": NUMBER, "median": NUMBER, "p95": NUMBER}},
        "turns_per_round_sd": NUMBER, "cards_drawn_per_game": NUMBER, "rounds_per_game": NUMBER,
        "decisions_per_game": NUMBER,
        "histograms": {"type": "object", "required": ["turns_per_round", "cards_drawn_per_round", "rounds_per_game"],
                       "maxProperties": 20, "additionalProperties": PAIRS},
        "tracked_card": {"$ref": "#/$defs/tracked"},
        "errors": {"type": "object", "maxProperties": 1000, "additionalProperties": COUNT},
        "challenges": {"type": "object", "maxProperties": 10, "additionalProperties": COUNT},
        "stalls": COUNT, "reshuffles": COUNT, "uno_penalties": COUNT,
        "kind": TEXT, "label": TEXT, "rulebook": TEXT, "rounds": TEXT, "simulator": TEXT, "version": TEXT,
        "events": {"type": ["string", "null"], "maxLength": 10_000},
        "agents": TEXTS, "cards": TEXTS, "custom_cards": TEXTS, "files": TEXTS, "include": TEXTS, "with": TEXTS,
        "options": {"type": "object", "maxProperties": 1000,
                    "additionalProperties": {"type": ["number", "string", "boolean"], "maxLength": 10_000,
                                             "minimum": -BIG, "maximum": BIG}},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2 ** 63},
        "seconds": {"type": "number", "minimum": 0, "maximum": BIG},
    },
}

FIGURE = {"type": "object", "required": ["figure", "kind", "a", "b", "diff", "ci95", "significant"],
          "maxProperties": 20,
          "properties": {"figure": TEXT, "kind": {"enum": ["mean", "rate"]}, "a": NUMBER, "b": NUMBER, "diff": NUMBER,
                         "ci95": CI95, "p": RATE, "p_holm": RATE, "significant": {"type": "boolean"}}}

COMPARISON = {
    "type": "object",
    "required": ["results", "variants", "comparison", "players", "games"],
    "maxProperties": 200,
    "properties": {
        "results": {"type": "array", "minItems": 2, "maxItems": 2,
                    "items": {**SIMULATION, "required": [k for k in SIMULATION["required"] if k != "players"]}},
        "variants": {"type": "array", "minItems": 2, "maxItems": 2,
                     "items": {"type": "object", "required": ["label"], "maxProperties": 50,
                               "properties": {"label": TEXT, "rulebook": TEXT, "include": TEXTS, "with": TEXTS, "simulator": TEXT,
                                              "files": TEXTS, "custom_cards": TEXTS,
                                              "options": SIMULATION["properties"]["options"]}}},
        "comparison": {"type": "object", "required": ["figures", "verdict"], "maxProperties": 20,
                       "properties": {"figures": {"type": "array", "maxItems": 2000, "items": FIGURE},
                                      "verdict": TEXT, "verdicts": TEXTS, "correction": TEXT, "level": RATE}},
        "players": {"type": "integer", "minimum": 1, "maximum": 1000},
        "games": {"type": "integer", "minimum": 1, "maximum": BIG},
        "precision": PRECISION,
        "cards": TEXTS, "verdicts": TEXTS, "agents": TEXTS, "kind": TEXT, "rounds": TEXT, "version": TEXT,
        "seed": {"type": "integer", "minimum": 0, "maximum": 2 ** 63},
        "seconds": {"type": "number", "minimum": 0, "maximum": BIG},
    },
}

RESULT = {"$schema": "https://json-schema.org/draft/2020-12/schema",
          "$defs": {"tracked": TRACKED},
          "oneOf": [COMPARISON, SIMULATION]}


@functools.cache
def _validator():
    from jsonschema import Draft202012Validator
    Draft202012Validator.check_schema(RESULT)
    return Draft202012Validator(RESULT)


def _no_constant(name):
    raise ValueError(f"`{name}` is not a number a result holds")


def _bounded_depth(d) -> None:
    stack = [(d, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ValueError(f"it is nested more than {MAX_DEPTH} deep: not a result")
        children = node.values() if isinstance(node, dict) else node
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))


def read_result(raw: bytes) -> dict:
    """A result file's JSON, checked against the schema; raises ValueError with what is wrong."""
    try:
        d = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("it is nested too deeply to be a result") from None
    if not isinstance(d, dict) or not ("results" in d or "wins_by_seat" in d):
        raise ValueError("it is not the JSON of `simulate --json` or `compare --json`")
    _bounded_depth(d)
    schema = COMPARISON if "results" in d else SIMULATION
    from jsonschema import Draft202012Validator
    validator = Draft202012Validator({**schema, "$defs": {"tracked": TRACKED}})
    _validator()                          # the whole schema is itself valid (checked once)
    errors = sorted(validator.iter_errors(d), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        e = errors[0]
        where = "/".join(map(str, e.absolute_path)) or "the top level"
        raise ValueError(f"at `{where}`: {e.message[:200]} (not what `simulate --json` or `compare --json` writes)")
    if len(d.get("wins_by_seat", d.get("results", [{}])[0].get("wins_by_seat", {}))) > d["players"]:
        raise ValueError("it has more seats than players")
    return d
