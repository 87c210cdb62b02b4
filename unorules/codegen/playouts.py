"""A search's playouts in generated code (issue 30, item 5).

A playout (agents/search.py) plays a position out to the end of its round with every seat on the
playout policy. The engine plays the first moves: the action searched and what follows it, up to
the next point between two turns, where a State with `pause_before_turn` stops (engine/types.py's
PAUSED). From there `play_from`, the game's generated code entered between turns (the generator's
`entry`), plays the rest: the position's hands, piles, colour, direction, skips and counts go in
as its locals (turns.ENTRY_LOCALS), the deck's random stream is the State's own generator as it
stands, so the code plays on exactly as the engine would (tests/test_playouts.py holds the two
equal, playout for playout), at generated code's speed.

Only a position the code can hold is handed on: nothing left on the engine's agenda, no attack
under way, every seat in the round. Elsewhere the engine plays on to the next pause."""
from __future__ import annotations

import random

from .expressions import NotCovered
from .generated import AGENT_CODES, Program
from .generator import COVERED_AGENTS
from .turns import entry_start


class Playouts:
    """`play_from` for one game and one playout policy (every seat plays it)."""

    def __init__(self, game, agent: str):
        if agent not in COVERED_AGENTS:
            raise NotCovered(f"the playout policy `{agent}` (generated code plays {', '.join(COVERED_AGENTS)})")
        self.game = game
        self.program = Program(game, (agent,) * game.players, entry=True)
        self._play_from = self.program.play_from
        self._codes = tuple(AGENT_CODES[agent] for _ in range(game.players))

    @staticmethod
    def can_enter(s) -> bool:
        """Whether this paused State is a position the code can hold."""
        return not s.agenda and s.attack is None and not any(s.out) and not s.terminal

    def play_from(self, s, seed) -> tuple:
        """Play the paused State `s` out to the end of its round, taking its lists as they are (it
        is the playout's own copy). (outcome, winner, the round's winner): outcome None when the
        round is over and the game goes on, else the game's end ("win", "stalled", "error")."""
        return self._play_from(entry_start(s), s.rng, random.Random(seed), self._codes, set())


def playouts_for(game, agent: str):
    """The game's Playouts for this policy, made once (Game keeps them), or the reason there are none."""
    cache = game._playouts
    if agent not in cache:
        try:
            cache[agent] = Playouts(game, agent)
        except NotCovered as e:
            cache[agent] = str(e)
    return cache[agent]
