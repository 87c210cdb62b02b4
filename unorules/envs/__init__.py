"""Adapters that make any rulebook an environment of a learning library (issue 15). Each is an
optional extra and imports its library only when used:

- `unorules.envs.pettingzoo.env(rulebook=..., players=...)`: a PettingZoo AEC environment;
- `unorules.envs.openspiel`: registers the `pyspiel` game "unorules";
- `unorules.envs.rlcard.make(rulebook=..., players=...)`: an RLCard environment.

All three sit on the core API of engine/spaces.py: the fixed action ids, the legal-action mask and
the observation tensor of a compiled rulebook. They may use the engine and the language, never an
agent, a run or the command line."""
from __future__ import annotations


def make_game(rulebook="official", players: int = 4, include=(), with_=(), options=None, rounds="single",
              turn_cap=None):
    """The engine's Game for an adapter: a rulebook (a shipped name or a path), its modules, custom
    files and options; one round per game unless `rounds` says otherwise; a round longer than
    `turn_cap` turns ends as stalled (every return 0)."""
    from unorules.engine.compiler import compile_rulebook
    from unorules.language.loader import load
    from unorules.engine import Game
    rb = load(rulebook, include=tuple(include), with_=tuple(with_))
    return Game(compile_rulebook(rb, dict(options or {})), players, rounds=rounds, turn_cap=turn_cap)


def resolve_chance(state, rng) -> None:
    """Play out chance nodes by their odds with `rng` (a random.Random or numpy Generator)."""
    while not state.terminal and state.decision.probs is not None:
        d = state.decision
        x = rng.random()
        acc = 0.0
        for a, p in zip(d.options, d.probs):
            acc += p
            if x < acc:
                break
        state.apply_action(a)
