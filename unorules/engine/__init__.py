"""The compiled rules and the generic interpreter that runs them, one module per seam (from the
bottom: nothing imports a module above it; docs/architecture.md draws them):

    types.py      Action, Decision, Attack, NO_COLOR, CHANCE, the bounds, Flow: plain types
    compiled.py   the compiled rulebook (what compiler.py makes and everything else reads)
    table.py      seats, teams, zones, matching          views.py   what a player or a person is shown
    hands.py      cards moved between hands and piles    spaces.py  the fixed action and observation spaces
    state.py      a State: the agenda, decisions, triggers, events (OpenSpiel's surface)
    attacks.py    attack windows: answers, challenges, resolution
    rounds.py     the deal, the first card, a round's end and the match
    primitives.py what each rule action does             expressions.py  what each expression does
    turns.py      turns, plays and their windows         compiler.py  checked IR -> closures over the primitives
    game.py       a Game: given compiled rules, makes states and gives them the turn flow (types.Flow)
    table_text.py a state and its events in words, for a person

This package's face: `from unorules.engine import Game, State, Action, ...`. It may use the
language (unorules.language) and unorules.errors, nothing above.

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
