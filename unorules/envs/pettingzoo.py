"""A PettingZoo AEC environment for any rulebook (extra `unorules[pettingzoo]`).

    from unorules.envs.pettingzoo import env
    e = env(rulebook="official", players=4)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Observations are dicts: "observation" (the rulebook's observation tensor, float32) and
"action_mask" (int8, one entry per action id). Chance events (coin flips, launchers, performs)
draw on the game's own stream, seeded from `reset(seed=...)`. Rewards come at the end of the game:
the engine's returns (+1 for each winner, the losers sharing -1 per winner). The steps run on
generated code where the code generator covers the rules (the engine's very games; `steps="engine"`
asks for the engine, `steps="generated"` for generated code or an error saying why not)."""
from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import game_from_parameters, stepper_for


class UnoRulesEnv(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "unorules_v0", "is_parallelizable": False}

    def __init__(self, rulebook="official", players: int = 4, include=(), with_=(), options=None, rounds="single",
                 turn_cap=None, render_mode=None, steps="auto"):
        super().__init__()
        self.game = game_from_parameters(dict(rulebook=rulebook, players=players, include=include, with_=with_,
                                              options=options, rounds=rounds, turn_cap=turn_cap),
                                         "the PettingZoo environment")
        # steps on generated code where it covers the rules (the engine's very games), else the engine
        self.stepper, self.steps_why = stepper_for(self.game, steps)
        self.possible_agents = [f"player_{i}" for i in range(self.game.players)]
        n, size = self.game.num_distinct_actions(), self.game.observation_tensor_size()
        obs = spaces.Dict({"observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                           "action_mask": spaces.Box(0, 1, (n,), np.int8)})
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.render_mode = render_mode
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        p = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if not self.state.terminal and self.state.current_player() == p:
            mask[self.state.legal_action_ids()] = 1
        observation = self.state.observation_tensor(p, np.zeros(self.game.observation_tensor_size(), np.float32))
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed=None, options=None):
        self._rng = random.Random(seed)
        game_seed = self._rng.randrange(2 ** 31)
        if self.stepper is not None:          # chance drawn inside, on the game's own stream
            self.state = self.stepper.new_state(game_seed)
        else:
            self.state = self.game.new_state(game_seed)
            self.state.play_chance()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._settle()

    def _settle(self):
        if self.state.terminal:
            for a, r in zip(self.possible_agents, self.state.returns()):
                self.rewards[a] = r
                self.terminations[a] = True
            self.truncations = {a: self.state.outcome == "stalled" for a in self.agents}
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.state.apply_action(int(action))
        if self.stepper is None:
            self.state.play_chance()
        self._settle()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi" and self.state is not None:
            from unorules.engine.table_text import table
            p = self.state.current_player() if not self.state.terminal else 0
            state = self.state.engine_state() if self.stepper is not None else self.state
            return table(state, p)
        return None

    def close(self):
        pass


def env(**kwargs):
    """The environment with PettingZoo's usual wrappers (illegal moves end the game with a loss)."""
    e = UnoRulesEnv(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


raw_env = UnoRulesEnv
