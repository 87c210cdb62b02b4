"""A search agent (issue 15): information-set Monte Carlo tree search at the root information set.

At each decision it samples a determinization of what it cannot see (`State.resample_hidden`: the
other hands and the draw pile dealt again at random, its own knowledge kept, a fresh random
generator, so no true future draw is seen), picks one of its legal actions by UCB1 over the
statistics all determinizations share (an action counts as available only where it is legal),
plays it out to the end of the round with every seat on the greedy heuristic (the playout policy), and credits the action with
the round's return. After the budget (iterations, or seconds) it plays the most visited action.
It only ever reads determinized copies, never the true hidden cards."""
from __future__ import annotations

import math
import time

from .agents import Agent

PLAYOUT_STEPS = 400            # a playout that runs this long without the round ending counts 0


def _playout(s, rng, policy):
    """Play on, every seat by the playout policy (the greedy heuristic by default)."""
    for _ in range(PLAYOUT_STEPS):
        if s.terminal:
            return
        d = s.decision
        if d.probs is not None:
            s.apply_unchecked(rng.choices(d.options, d.probs)[0])
            continue
        s.apply_unchecked(policy.act(s, d.options))


class ISMCTSAgent(Agent):
    name = "ismcts"
    needs_observation = False
    needs_state = True

    def __init__(self, rng=0, iterations: int = 60, seconds: float | None = None, exploration: float = 0.7,
                 playout: str = "greedy"):
        super().__init__(rng)
        self.iterations, self.seconds, self.c = iterations, seconds, exploration
        from .agents import make_agent
        self.policy = make_agent(playout, self.rng)

    def choose_in(self, state, legal):
        if len(legal) == 1:
            return legal[0]
        me = state.decision.player
        space = state.game.action_space
        ids = {space.id_of(state, a): a for a in legal}
        visits = dict.fromkeys(ids, 0)
        value = dict.fromkeys(ids, 0.0)
        available = dict.fromkeys(ids, 0)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        n = 0
        while (n < self.iterations) if deadline is None else (time.perf_counter() < deadline or n < 2):
            n += 1
            det = state.resample_hidden(me, self.rng)
            here = {space.id_of(det, a): a for a in det.decision.options}
            options = [i for i in ids if i in here]
            for i in options:
                available[i] += 1
            unvisited = [i for i in options if visits[i] == 0]
            if unvisited:
                pick = unvisited[0]
            else:
                pick = max(options, key=lambda i: value[i] / visits[i]
                           + self.c * math.sqrt(math.log(available[i]) / visits[i]))
            det.apply_unchecked(here[pick])
            _playout(det, self.rng, self.policy)
            visits[pick] += 1
            value[pick] += det.returns()[me] if det.terminal else 0.0
        best = max(ids, key=lambda i: (visits[i], value[i]))
        return ids[best]

    def choose(self, obs, legal):                 # without a state there is nothing to search
        return legal[0]


def make_search_agent(name: str, rng):
    """`ismcts`, `ismcts:ITERATIONS` or `ismcts:SECONDSs` (e.g. `ismcts:0.2s`)."""
    _, _, budget = name.partition(":")
    if budget.endswith("s"):
        return ISMCTSAgent(rng, seconds=float(budget[:-1]))
    return ISMCTSAgent(rng, iterations=int(budget) if budget else 60)

