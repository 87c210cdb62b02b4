"""Agents: who answers a player's decisions. An agent sees an Observation (its own hand, the
table, hand sizes), never another player's cards.

- random: uniform over the legal actions.
- random_play: RLCard's random player on any rules: a uniformly random play whenever it can play
  (it never draws or keeps a playable drawn card by choice); every other decision uniformly.
- ismcts (search.py): Monte Carlo search over resampled copies of the state (dealt as the public
  play says the others may hold, belief.py), guarded by greedy; `ismcts:N` for N determinizations
  a decision, `ismcts:0.2s` for a time budget.
- greedy: a sensible heuristic: play rather than draw, keep wilds for last, shed high points,
  name the color it holds most, always call and catch, stack and jump in when it can; attack
  (bluffing if need be) when the next player is close to going out; challenge when the attacker's
  hand is big enough that a bluff is likely.

Generated simulators (codegen/turns.py, attacks.py, actions.py) make the choices of
random, random_play and greedy themselves, from the tables: a change to one of these agents must be
made there too (tests/test_codegen.py holds the two to the same games).
"""
from __future__ import annotations

import random

from unorules.engine import Action, Observation


class Agent:
    name = "agent"
    needs_observation = True
    needs_state = False          # a search agent is given the state, and searches only resampled copies of it

    def act(self, state, legal: list[Action]) -> Action:
        """The agent's answer to the state's decision: what the simulation loop and `play` call."""
        if self.needs_state:
            return self.choose_in(state, legal)
        return self.choose(state.observe(state.decision.player) if self.needs_observation else None, legal)

    def __init__(self, rng: random.Random | int = 0):
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def choose(self, obs: Observation | None, legal: list[Action]) -> Action:
        raise NotImplementedError


class RandomAgent(Agent):
    name = "random"
    needs_observation = False

    def choose(self, obs, legal):
        return legal[int(self.rng.random() * len(legal))]


class RandomPlayAgent(Agent):
    name = "random_play"
    needs_observation = False

    def choose(self, obs, legal):
        if legal[-1].kind in ("draw", "keep", "pass") and len(legal) > 1 and legal[0].kind not in ("draw", "keep", "pass"):
            return legal[int(self.rng.random() * (len(legal) - 1))]      # the plays come before draw / keep
        return legal[int(self.rng.random() * len(legal))]


class GreedyAgent(Agent):
    name = "greedy"
    plays_when_it_can = True       # never draws on a turn it could play (what belief.py infers from)

    @staticmethod
    def surely_prefers(state, p, card, played) -> bool:
        """Whether p, playing as greedy, would have played `card` rather than `played` (both
        playable at a turn), whatever else p held: the leading terms of _play's ranking (an attack
        when the next player is close, not a wild, points) read nothing of the rest of the hand."""
        urgent = len(state.hands[state.next_of(p)]) <= 2
        a, b = state.card_view(p, card), state.card_view(p, played)
        return (urgent and a.attacks, not a.wild, a.points) > (urgent and b.attacks, not b.wild, b.points)

    def act(self, state, legal):
        d = state.decision
        if d.kind in ("turn", "drawn", "play_more"):     # reads only the hand and the next hand's size
            p, views = d.player, state._views
            hand = [views[c] or state.card_view(p, c) for c in state.hands[p]]
            decl = state.game.declaration
            return self._play(hand, len(state.hands[state.next_of(p)]), legal, decl[1] if decl else None)
        if d.worth is not None and legal == d.options:
            return self.worthiest(legal, d.worth)
        return super().act(state, legal)

    def worthiest(self, legal, worth):
        """A named option or a number: the one the rules make worth most to its chooser
        (language/worth.py); among equals, one at random, uniformly."""
        best = max(worth)
        tied = [a for a, w in zip(legal, worth) if w == best]
        return tied[0] if len(tied) == 1 else tied[int(self.rng.random() * len(tied))]

    def choose(self, obs: Observation, legal):
        kind = obs.decision
        if kind in ("turn", "drawn", "play_more"):
            return self._play(obs.hand, obs.hand_sizes[obs.next], legal, obs.call_at)
        if kind == "color":
            counts = {c: 0 for c in obs.colors}
            for cv in obs.hand:
                if cv.color in counts:
                    counts[cv.color] += 1
            best = max(obs.colors, key=lambda c: (counts[c], -obs.colors.index(c)))
            return next((a for a in legal if a.value == best), legal[0])
        if kind == "player":          # the player with fewest cards, an opponent before a partner
            teams = obs.teams
            return min(legal, key=lambda a: (bool(teams) and teams[a.value] == teams[obs.player],
                                             obs.hand_sizes[a.value], a.value))
        if kind == "card":          # give away: keep wilds, shed points
            by_card = {cv.card: cv for cv in obs.hand}
            return max(legal, key=lambda a: (not by_card[a.value].wild, by_card[a.value].points, -a.value))
        if kind == "take":          # take the best card shown: a wild, then points
            seen = {cv.card: cv for cards in obs.shown.values() for cv in cards}
            return max(legal, key=lambda a: (seen[a.value].wild, seen[a.value].points, -a.value)
                       if a.value in seen else (False, 0, -a.value))
        if kind == "kind":          # name the kind it holds most of (to shed them, or to keep them safe)
            held = {}
            for cv in obs.hand:
                held[cv.kind] = held.get(cv.kind, 0) + 1
            return max(legal, key=lambda a: (held.get(a.value, 0), -legal.index(a)))
        if kind in ("option", "number") and obs.worth is not None and len(obs.worth) == len(legal):
            return self.worthiest(legal, obs.worth)
        if kind == "number":
            return legal[-1]
        if kind == "challenge":
            size = obs.hand_sizes[obs.attacker] if obs.attacker is not None else 0
            p_bluff = 1.0 - (0.75 ** size)
            want = p_bluff > 0.6
            return next((a for a in legal if a.value == want), legal[0])
        if kind in ("respond", "jump_in", "any_time"):
            answers = [a for a in legal if a.value is not None]
            if answers:
                return max(answers, key=lambda a: a.call)
            return legal[-1]
        if kind == "catch":
            return next((a for a in legal if a.value is not None), legal[0])
        return legal[0]

    def _play(self, hand, next_size, legal, call_at=None):
        """The best play (or, with none, the first option); a call only where it is true: the
        play leaves `call_at` cards (a rulebook with a false call's price offers it anywhere)."""
        if call_at is not None:
            legal = [a for a in legal if not a.call
                     or len(hand) - (len(a.value) if a.kind == "play_many" else 1) == call_at]
        plays = [a for a in legal if a.kind == "play"]
        if not plays:
            many = [a for a in legal if a.kind == "play_many"]
            return max(many, key=lambda a: (len(a.value), a.call)) if many else legal[0]
        by_card = {cv.card: cv for cv in hand}
        many = [a for a in legal if a.kind == "play_many"]
        if many:
            best = max(many, key=lambda a: (len(a.value), a.call, -a.value[0]))
            if not any(by_card[c].wild for c in best.value):
                return best
        held = {}
        for cv in hand:
            held[cv.color] = held.get(cv.color, 0) + 1

        urgent = next_size <= 2

        def score(a):
            cv = by_card[a.value]
            # a play that names a color names the one held most (other than the card played)
            named = held.get(a.color, 0) - (cv.color == a.color) if a.color is not None else 0
            return (urgent and cv.attacks, not cv.wild, a.call, cv.points, held.get(cv.color, 0), named,
                    -a.value, -(a.color or 0))
        return max(plays, key=score)


class ScriptedAgent(Agent):
    """Plays a fixed list of actions, named as `state.action_name` names them ("play red 5",
    "color blue", "draw", ...), in order; then falls back to another agent (greedy by default).
    Scenario files are the richer form of scripting (unorules.testing)."""
    name = "scripted"

    def __init__(self, script, namer, fallback: Agent | None = None, rng: random.Random | int = 0):
        super().__init__(rng)
        self.script = list(script)
        self.namer = namer                 # state.action_name, bound to the state being played
        self.fallback = fallback or GreedyAgent(self.rng)

    def choose(self, obs, legal):
        if self.script:
            want = self.script[0]
            for a in legal:
                if self.namer(a) == want:
                    self.script.pop(0)
                    return a
            raise ValueError(f"scripted action `{want}` is not legal now; legal: "
                             + ", ".join(self.namer(a) for a in legal))
        return self.fallback.choose(obs, legal)


AGENTS = {"random": RandomAgent, "random_play": RandomPlayAgent, "greedy": GreedyAgent}
BUDGETED = {}        # family -> make(name, rng): agents named with a budget, `family` or `family:BUDGET`


def add_budgeted(family: str, make) -> None:
    """Add a family of agents named with a budget (`ismcts`, `ismcts:20`) to the table; the module
    that defines it calls this, so the table never imports its agents."""
    BUDGETED[family] = make


def make_agent(name: str, rng: random.Random | int) -> Agent:
    family = name.partition(":")[0]
    if family in BUDGETED:
        return BUDGETED[family](name, rng)
    try:
        return AGENTS[name](rng)
    except KeyError:
        raise ValueError(f"unknown agent `{name}` (agents: {', '.join([*AGENTS, *BUDGETED])})") from None


def make_agents(names, seed: int) -> list[Agent]:
    """The agents of one game's seats, in seat order. They share one generator seeded from the
    game's seed (seeding a generator costs as much as a tenth of a short game)."""
    rng = random.Random(seed + 1)
    return [make_agent(name, rng) for name in names]
