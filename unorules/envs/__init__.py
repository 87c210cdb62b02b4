"""Adapters that make any rulebook an environment of a learning library (issue 15). Each is an
optional extra and imports its library only when used:

- `unorules.envs.pettingzoo.env(rulebook=..., players=...)`: a PettingZoo AEC environment;
- `unorules.envs.openspiel`: registers the `pyspiel` game "unorules";
- `unorules.envs.rlcard.make(rulebook=..., players=...)`: an RLCard environment.

Every adapter takes every rule (`RULE_PARAMETERS`): a rulebook, its modules (`include`), custom
files or shipped custom cards (`with`), `options`, `players`, `rounds` and `turn_cap`, as keyword
arguments, OpenSpiel game parameters (strings and JSON) or RLCard config keys, read by
`game_from_parameters`; a key an adapter does not know, or a file that does not exist, is an
error that names it, never ignored.

All three sit on the core API of engine/spaces.py: the fixed action ids, the legal-action mask and
the observation tensor of a compiled rulebook. They may use the engine and the language, never an
agent, a run or the command line."""
from __future__ import annotations

import json
import math

_GAMES: dict = {}          # the games adapters made in this process (make_game)
MAX_GAMES = 16
RULE_PARAMETERS = ("rulebook", "players", "include", "with", "options", "rounds", "turn_cap")
ROUNDS = ("single", "match", "rulebook")


def make_game(rulebook="official", players: int = 4, include=(), with_=(), options=None, rounds="single",
              turn_cap=None):
    """The engine's Game for an adapter: a rulebook (a shipped name or a path), its modules, custom
    files and options; one round per game unless `rounds` says otherwise; a round longer than
    `turn_cap` turns ends as stalled (every return 0)."""
    from unorules.engine.compiler import compile_rulebook
    from unorules.language.loader import load
    from unorules.engine import Game
    rb = load(rulebook, include=tuple(include), with_=tuple(with_))
    # the same files (by their text), options and settings give the same game: copies of an
    # adapter's game (OpenSpiel rebuilds a game from its parameters to copy it) never compile again
    key = (hash(tuple(sorted(rb.files.items()))), json.dumps(options or {}, sort_keys=True, default=repr),
           rb.name, tuple(include), tuple(map(str, with_)), players, rounds, turn_cap)
    game = _GAMES.get(key)
    if game is None:
        game = Game(compile_rulebook(rb, dict(options or {})), players, rounds=rounds, turn_cap=turn_cap)
        if len(_GAMES) >= MAX_GAMES:
            _GAMES.pop(next(iter(_GAMES)))
        _GAMES[key] = game
    return game


def _names(key, value) -> tuple:
    """`include` and `with`: a list, or a string (one name, names separated by commas, or a JSON list)."""
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                value = json.loads(text)
            except json.JSONDecodeError as e:
                raise ValueError(f"`{key}` is not a JSON list: {e}") from None
        else:
            return tuple(n.strip() for n in text.split(",") if n.strip())
    if not isinstance(value, (list, tuple)) or not all(isinstance(n, str) for n in value):
        raise ValueError(f"`{key}` takes names or paths (a list, or a string of names separated by commas), "
                         f"not {value!r}")
    return tuple(value)


def _options(value) -> dict:
    """`options`: a mapping, or a JSON object given as a string (OpenSpiel parameters are strings)."""
    if value is None or value == "":
        return {}
    if isinstance(value, str):
        if len(value) > MAX_OPTIONS_TEXT:
            raise ValueError(f"`options` is over {MAX_OPTIONS_TEXT:,} characters")
        try:
            value = json.loads(value)
        except (json.JSONDecodeError, RecursionError) as e:
            raise ValueError(f"`options` is not a JSON object: {str(e)[:200]}") from None
    if not isinstance(value, dict):
        raise ValueError(f"`options` maps option names to values, not {_shown(value)}")
    if len(value) > MAX_OPTIONS:
        raise ValueError(f"`options` names more than {MAX_OPTIONS} options")
    for k, v in value.items():
        if not isinstance(k, str):
            raise ValueError(f"`options` maps option names (text) to values: {_shown(k)} is not a name")
        if isinstance(v, float) and not math.isfinite(v) or not isinstance(v, (bool, int, float, str)):
            raise ValueError(f"the option `{k[:100]}` takes a number, a yes/no or a name, not {_shown(v)}")
    return dict(value)


MAX_OPTIONS = 1000
MAX_OPTIONS_TEXT = 100_000
MAX_WHOLE = 10 ** 6          # players, a turn cap: far past any rulebook's range, which is checked after


def _shown(value) -> str:
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."


def _whole(key, value, low) -> int:
    if isinstance(value, bool):
        raise ValueError(f"`{key}` is a whole number, not {value!r}")
    try:
        n = int(value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"`{key}` is a whole number, not {_shown(value)}") from None
    if isinstance(value, float) and value != n or not low <= n <= MAX_WHOLE:
        raise ValueError(f"`{key}` is a whole number from {low} to {MAX_WHOLE:,}, not {_shown(value)}")
    return n


def game_from_parameters(params: dict, adapter: str, own=(), defaults=None):
    """The Game an adapter's parameters ask for (`RULE_PARAMETERS`, `with_` as an alias of `with`),
    beside the adapter's `own` keys (returned untouched): an unknown key is a ValueError naming it."""
    params = dict(params)
    if "with_" in params:
        if "with" in params:
            raise ValueError("give `with` or `with_`, not both")
        params["with"] = params.pop("with_")
    unknown = [k for k in params if k not in RULE_PARAMETERS and k not in own]
    if unknown:
        raise ValueError(f"{adapter} has no parameter `{unknown[0]}`: it takes "
                         + ", ".join(f"`{k}`" for k in (*RULE_PARAMETERS, *own)))
    p = {**(defaults or {}), **{k: v for k, v in params.items() if v is not None}}
    rounds = str(p.get("rounds", "single"))
    if rounds not in ROUNDS:
        raise ValueError(f"`rounds` is one of {', '.join(ROUNDS)}, not {rounds!r}")
    turn_cap = p.get("turn_cap")
    return make_game(str(p.get("rulebook", "official")), _whole("players", p.get("players", 4), 2),
                     _names("include", p.get("include")), _names("with", p.get("with")), _options(p.get("options")),
                     rounds=rounds, turn_cap=None if turn_cap in (None, "") else _whole("turn_cap", turn_cap, 1))


STEPS = ("auto", "generated", "engine")


def stepper_for(game, steps: str = "auto"):
    """(the game's generated stepper or None, why not): `steps` "auto" steps on generated code where
    the generator covers the rules (codegen/steps.py) and on the engine elsewhere; "generated"
    demands generated code (a ValueError with the reason where it cannot); "engine" the engine."""
    if steps not in STEPS:
        raise ValueError(f"`steps` is one of {', '.join(STEPS)}, not {steps!r}")
    if steps == "engine":
        return None, "asked for the engine (`steps=\"engine\"`)"
    from unorules.codegen.steps import Stepper
    stepper, why = Stepper.of(game)
    if stepper is None and steps == "generated":
        raise ValueError(f"this game cannot step on generated code: {why}")
    return stepper, why
