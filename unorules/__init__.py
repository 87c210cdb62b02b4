"""unorules: UNO rulebooks as data, and a generic interpreter that runs them.

    >>> import unorules
    >>> rb = unorules.load("official")                 # parse, merge, check (raises RulebookError)
    >>> game = unorules.Game(rb, players=4)            # a step-able game
    >>> state = game.new_state(seed=1)
    >>> action = state.legal_actions()[0]
    >>> state.apply_action(action)
    >>> summary = unorules.simulate("official", games=20, players=4, agents=("greedy", "random"))
    >>> summary["games"]
    20
"""
from __future__ import annotations

from .errors import Diagnostic, IllegalAction, RuleRuntimeError, RulebookError, UnorulesError

__version__ = "0.1.0"
__all__ = ["load", "validate", "simulate", "Game", "Action", "CHANCE", "TERMINAL", "Diagnostic",
           "RulebookError", "RuleRuntimeError", "IllegalAction", "UnorulesError"]


def __getattr__(name):
    """The engine's plain types, imported when first asked for: `import unorules` (and every
    command that only reads rulebooks) does not load the engine."""
    if name in ("CHANCE", "TERMINAL", "Action"):
        from .engine import types
        return getattr(types, name)
    raise AttributeError(f"module 'unorules' has no attribute {name!r}")


def load(source, *, include=(), with_=(), search=()):
    """Load, merge and check a rulebook (a path or a shipped name). Raises RulebookError."""
    from .language.loader import load as _load
    return _load(source, include=tuple(include), with_=tuple(with_), search=tuple(search))


def validate(source, **kw) -> list[Diagnostic]:
    """The diagnostics of a rulebook: an empty list when it is valid."""
    try:
        load(source, **kw)
        return []
    except RulebookError as e:
        return e.diagnostics


def Game(rulebook, players: int = 4, *, rounds: str = "rulebook", log_events: bool = False, options=None, **kw):
    """A game of a rulebook (a loaded Rulebook, a path or a shipped name)."""
    from .engine import Game as _Game
    from .engine.compiler import compile_rulebook
    from .language.loader import Rulebook
    rb = rulebook if isinstance(rulebook, Rulebook) else load(rulebook)
    return _Game(compile_rulebook(rb, options), players, rounds=rounds, log_events=log_events, **kw)


def simulate(source, games: int = 1000, players: int = 4, *, seed: int = 0, agents=("greedy",),
             rounds: str = "rulebook", workers: int = 1, include=(), with_=(), options=None,
             perform_chance=None, events=None) -> dict:
    """Simulate games and return the summary as a dict (the same as `unorules simulate --json`).
    Raises ValueError naming an argument of the wrong type or out of range."""
    from .runs.simulation import RunSpec, simulate as _simulate
    games, players = _whole("games", games, 1, 10 ** 9), _whole("players", players, 1, 1000)
    seed, workers = _whole("seed", seed, 0, 2 ** 63 - 1), _whole("workers", workers, 1, 1024)
    if rounds not in ("rulebook", "single", "match"):
        raise ValueError(f"`rounds` is \"rulebook\", \"single\" or \"match\", not {rounds!r}")
    if isinstance(agents, str) or not all(isinstance(a, str) for a in agents):
        raise ValueError(f"`agents` is a sequence of agent names, not {agents!r}")
    if perform_chance is not None and not (isinstance(perform_chance, (int, float)) and 0 <= perform_chance <= 1):
        raise ValueError(f"`perform_chance` is a chance from 0 to 1, not {perform_chance!r}")
    spec = RunSpec(str(source), tuple(include), tuple(str(w) for w in with_), (), players, seed, tuple(agents),
                   rounds, tuple((options or {}).items()), perform_chance)
    return _simulate(spec, games, workers, events).as_dict(players)


def _whole(name: str, value, low: int, high: int) -> int:
    import operator
    try:
        number = operator.index(value)             # a whole number (numpy's too), never a bool
    except TypeError:
        number = None
    if number is None or isinstance(value, bool) or not low <= number <= high:
        raise ValueError(f"`{name}` is a whole number from {low} to {high:,}, not {value!r}")
    return number
