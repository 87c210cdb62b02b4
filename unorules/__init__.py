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
from .engine import CHANCE, TERMINAL, Action

__all__ = ["load", "validate", "simulate", "Game", "Action", "CHANCE", "TERMINAL", "Diagnostic",
           "RulebookError", "RuleRuntimeError", "IllegalAction", "UnorulesError"]


def load(source, *, include=(), with_=(), search=()):
    """Load, merge and check a rulebook (a path or a shipped name). Raises RulebookError."""
    from .loader import load as _load
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
    from .compiler import compile_rulebook
    from .engine import Game as _Game
    from .loader import Rulebook
    rb = rulebook if isinstance(rulebook, Rulebook) else load(rulebook)
    return _Game(compile_rulebook(rb, options), players, rounds=rounds, log_events=log_events, **kw)


def simulate(source, games: int = 1000, players: int = 4, *, seed: int = 0, agents=("greedy",),
             rounds: str = "rulebook", workers: int = 1, include=(), with_=(), options=None,
             perform_chance=None, events=None) -> dict:
    """Simulate games and return the summary as a dict (the same as `unorules simulate --json`)."""
    from .simulation import RunSpec, simulate as _simulate
    spec = RunSpec(str(source), tuple(include), tuple(str(w) for w in with_), (), players, seed, tuple(agents),
                   rounds, tuple((options or {}).items()), perform_chance)
    return _simulate(spec, games, workers, events).as_dict(players)
