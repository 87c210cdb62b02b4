"""Agents to play against, in any adapter: the engine's agents (`random`, `random_play`, `greedy`,
`ismcts`, `ismcts:N`, `ismcts:0.2s`) choosing an action id for the seat whose decision it is.

    from unorules.envs.policies import Policy
    greedy = Policy("greedy", seed=0)
    action = greedy(engine_state)          # an action id of the state's legal_action_ids()

The adapters give the game's state: PettingZoo's `env.unwrapped.state`, OpenSpiel's
`state.inner` (once the deal's chance node is played), and RLCard's state dict's
`"unorules_state"` (unorules.envs.rlcard.PolicyAgent wraps a Policy as an RLCard agent); a state
of generated code (steps on generated code) is read through the engine's state of its position. An agent
reads what its seat may see; the search agent searches copies dealt again from what it knows."""
from __future__ import annotations

import random

from unorules.agents.base import make_agent
from unorules.agents.search import use_generated_playouts
from unorules.codegen.playouts import playouts_for

use_generated_playouts(playouts_for)       # a search's playouts go on in generated code (agents/search.py)


class Policy:
    """One engine agent by name, answering decisions as action ids."""

    def __init__(self, name: str = "greedy", seed: int = 0):
        self.name = name
        self.agent = make_agent(name, random.Random(seed))

    def __call__(self, state) -> int:
        """The action id this agent chooses at `state`'s decision (a player's, not chance). A
        state of generated code (codegen/steps.py) is read through its engine state."""
        if hasattr(state, "engine_state"):
            state = state.engine_state()
        d = state.decision
        if d is None or d.probs is not None:
            raise ValueError("the state asks no player: nothing for an agent to choose")
        return state.action_id(self.agent.act(state, d.options))


def pettingzoo_action(env, policy: Policy) -> int:
    """The policy's action for the agent whose turn it is in a unorules PettingZoo environment."""
    return policy(env.unwrapped.state)


def openspiel_action(state, policy: Policy) -> int:
    """The policy's action at an OpenSpiel `unorules` state (a player node)."""
    if state.inner is None or state.is_chance_node():
        raise ValueError("a chance node: OpenSpiel's chance outcomes are played, not chosen")
    return policy(state.inner)
