"""OpenSpiel (extra `unorules[openspiel]`): importing this module registers the Python game
"unorules" with pyspiel, for any rulebook:

    import pyspiel, unorules.envs.openspiel
    game = pyspiel.load_game("unorules", {"rulebook": "official", "players": 4})

Player actions are the rulebook's action ids (spaces.py). The first node of a game is a chance
node that picks the deal (one of DEALS seeds, uniformly), so every episode shuffles anew and the
deal is a chance event as OpenSpiel expects; the rule's own chance events (coin flips, performs,
launchers) are chance nodes with their odds, their outcomes numbered by the same action ids. One
round is one game; returns are the engine's (+1 for each winner, the losers sharing -1 per winner)."""
from __future__ import annotations

import numpy as np
import pyspiel

from . import game_from_parameters

DEALS = 1000                      # the deal's chance outcomes: seeds 0..DEALS-1
MAX_GAME_LENGTH = 100_000         # decisions; a round longer than `turn_cap` turns ends stalled before it

_GAME_TYPE = pyspiel.GameType(
    short_name="unorules", long_name="unorules: any UNO rulebook",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10, min_num_players=2,
    provides_information_state_string=False, provides_information_state_tensor=False,
    provides_observation_string=True, provides_observation_tensor=True,
    # every rule, as strings where OpenSpiel has no list or mapping: `include` and `with` names
    # separated by commas (or a JSON list), `options` a JSON object
    parameter_specification={"rulebook": "official", "players": 4, "include": "", "with": "", "options": "",
                             "rounds": "single", "turn_cap": 2000})


class UnoRulesGame(pyspiel.Game):
    def __init__(self, params=None):
        params = dict(params or {})
        self.engine = game_from_parameters(params, "the OpenSpiel game `unorules`", defaults={"turn_cap": 2000})
        n = self.engine.num_distinct_actions()
        info = pyspiel.GameInfo(num_distinct_actions=n, max_chance_outcomes=max(DEALS, n),
                                num_players=self.engine.players, min_utility=-1.0, max_utility=1.0,
                                utility_sum=0.0, max_game_length=MAX_GAME_LENGTH)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return UnoRulesState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return UnoRulesObserver(self.engine)


class UnoRulesState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self.engine = game.engine
        self.inner = None                   # the engine's state, once the deal's chance node is resolved

    def current_player(self):
        if self.inner is None or self.inner.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        if self.inner.terminal:
            return pyspiel.PlayerId.TERMINAL
        return self.inner.current_player()

    def _legal_actions(self, player):
        return self.inner.legal_action_ids()

    def chance_outcomes(self):
        if self.inner is None:
            return [(i, 1.0 / DEALS) for i in range(DEALS)]
        d = self.inner.decision
        return sorted((self.inner.action_id(a), p) for a, p in zip(d.options, d.probs))

    def _apply_action(self, action):
        if self.inner is None:
            self.inner = self.engine.new_state(int(action))
        else:
            self.inner.apply_action(int(action))

    def _action_to_string(self, player, action):
        if self.inner is None:
            return f"deal {action}"
        return self.engine.action_space.name(action)

    def is_terminal(self):
        return self.inner is not None and self.inner.terminal

    def returns(self):
        if self.inner is None:
            return [0.0] * self.engine.players
        return self.inner.returns()

    def __str__(self):
        if self.inner is None:
            return "(before the deal)"
        from unorules.engine.table_text import table
        return table(self.inner, max(0, self.inner.current_player()))


class UnoRulesObserver:
    """The rulebook's observation tensor for one player (and a short string)."""

    def __init__(self, engine):
        size = engine.observation_tensor_size()
        self.tensor = np.zeros(size, np.float32)
        self._cells = memoryview(self.tensor)      # written cell by cell without numpy's per-item cost
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor.fill(0)
        if state.inner is not None:
            state.inner.observation_tensor(player, self._cells)

    def string_from(self, state, player):
        if state.inner is None:
            return "before the deal"
        s = state.inner
        hand = ", ".join(sorted(s.card_name(c) for c in s.hands[player]))
        top = s.card_name(s.discard[-1]) if s.discard else "nothing"
        return f"p{player} hand: {hand} | top: {top}"


pyspiel.register_game(_GAME_TYPE, UnoRulesGame)
