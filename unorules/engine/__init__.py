"""The generic interpreter, one module per seam: state.py (Game and State, the
OpenSpiel surface), table.py (seats, teams, zones, matching), rounds.py (the deal, the first card,
the round's end and the match), turns.py (turns, plays and their windows), attacks.py (attack windows: answers, challenges, resolution), primitives.py (what each
rule action does) and views.py (what a player or a person is shown). This module is their public
face: `from unorules.engine import Game, State, Action, ...`.

Nothing here knows a card: cards are ints whose faces, kinds and effects come from the rulebook.
"""
from __future__ import annotations

from unorules.errors import IllegalAction, RuleRuntimeError  # noqa: F401
from .game import Game  # noqa: F401
from .rounds import begin_round, deal, end_round, match_over, turn_up  # noqa: F401
from .state import State  # noqa: F401
from .turns import advance, begin_turn, play_card, turn_decision  # noqa: F401
from .types import (CHANCE, DRAW, KEEP, MAX_DRAW, MAX_TRIGGER_DEPTH, NO_COLOR, TERMINAL, Action, Attack,  # noqa: F401
                    Decision)
from .views import CardView, Observation  # noqa: F401

__all__ = ["CHANCE", "TERMINAL", "DRAW", "KEEP", "MAX_DRAW", "MAX_TRIGGER_DEPTH", "Action", "Attack", "CardView", "NO_COLOR",
           "Decision", "Game", "IllegalAction", "Observation", "RuleRuntimeError", "State", "advance", "begin_round",
           "begin_turn", "deal", "end_round", "match_over", "play_card", "turn_decision", "turn_up"]
