"""A search agent (issue 15): Monte Carlo search at the root information set, guarded by the
playout policy.

At each decision it asks the playout policy (the greedy heuristic) for its choice: the default.
Then, for each determinization (the other hands and the draw pile dealt again at random, as
`State.resample_hidden` deals them but keeping to what the public play tells of each hand,
belief.py; its own knowledge kept, a fresh random generator, so no true future draw is seen), it
plays every legal action out to the end of the round with every seat on the playout
policy, all from the same random seed (common random numbers), and records each action's return
minus the default's. After the budget (determinizations, or seconds) it plays the action whose
mean gain over the default is largest, but only when that gain is positive beyond
`confidence` standard errors; otherwise it plays the default. Its playouts only ever read
determinized copies, never the true hidden cards; the belief reads the public record of the play
(belief.py says how).

Why the guard: in UNO the actions of one decision differ in winning chances by a few hundredths,
while one playout's return varies by about 0.6; a few dozen playouts cannot rank them, and the
unguarded argmax of noisy means plays worse than the heuristic it searches with (measured in
issue 15's closing notes). With the guard the search keeps the heuristic's play and overrides it
where the evidence is clear: an immediate win, a card that must not be kept, a blunder."""
from __future__ import annotations

import math
import time

from unorules.engine.turns import advance
from unorules.engine.types import PAUSED
from .base import Agent, add_budgeted, make_agent
from .belief import Belief

PLAYOUT_STEPS = 400            # a playout that runs this long without the round ending counts 0
DEFAULT_DETERMINIZATIONS = 20  # `ismcts` without a budget: each plays out every legal action (about 0.07 s in official)


# Generated playouts come from codegen (codegen/playouts.py), a stage beside this one that this one
# may not import: what builds the runs and the environments (unorules.runs, unorules.envs) hands
# its `playouts_for` in. Without it, or where the generator does not cover the rules, the engine
# plays the playouts whole.
_playouts_for = None


def use_generated_playouts(playouts_for):
    """Let searches hand their playouts to generated code: `playouts_for(game, policy_name)` gives
    an object with `can_enter(state)` and `play_from(state, seed)`, or a string saying why not."""
    global _playouts_for
    _playouts_for = playouts_for


def _playout(s, policy, me, rounds: int, fast=None, seed=None) -> float:
    """Play on to the end of the round (the state had ended `rounds` rounds), every seat by the
    playout policy (the greedy heuristic by default); me's return. A round that ends the game
    counts the game's returns; one that does not counts as the game's returns would if it had
    been the last (a match's later rounds are not played). Chance is drawn on the state's own
    generator (as `simulate` draws it). `fast`: the game's generated playouts, which play on
    from the first point between turns where the State (paused there) can be handed on; the
    engine's PLAYOUT_STEPS bound the engine's part, the turn cap the rest."""
    for step in range(PLAYOUT_STEPS + 1):
        if s.terminal:
            return s.returns()[me]
        if len(s.turns_per_round) > rounds:
            return _round_return(s, me)
        if step == PLAYOUT_STEPS:
            return 0.0
        d = s.decision
        if d is PAUSED:
            if fast.can_enter(s):
                outcome, winner, round_winner = fast.play_from(s, seed)
                if outcome is None or outcome == "win":
                    return _winner_return(s, me, round_winner if outcome is None else winner)
                return 0.0                   # stalled or an error: no winner
            s.decision = None                # not a position generated code holds: on to the next pause
            advance(s)
            s.run()
            continue
        if d.probs is not None:
            s.apply_unchecked(s.rng.choices(d.options, d.probs)[0])
            continue
        s.apply_unchecked(policy.act(s, d.options))


def _round_return(s, me) -> float:
    """+1 if me's team won the round just ended, else the losers' share (State.returns' shape)."""
    return _winner_return(s, me, s.round_winner)


def _winner_return(s, me, w) -> float:
    """+1 if me is on w's team, else the losers' share of -1 (State.returns' shape); 0 for no winner."""
    if w is None:
        return 0.0
    team = s.team_of
    k = sum(1 for q in range(s.n) if team[q] == team[w] and not s.eliminated[q])
    if team[me] == team[w]:
        return 1.0
    return -k / (s.n - k) if s.n > k else 0.0


class ISMCTSAgent(Agent):
    name = "ismcts"
    needs_observation = False
    needs_state = True

    def __init__(self, rng=0, determinizations: int = DEFAULT_DETERMINIZATIONS, seconds: float | None = None,
                 confidence: float | None = 2.0, playout: str = "greedy", infer: bool = True, generated: bool = True):
        """`generated`: play the playouts on in generated code where the rules allow (codegen/playouts.py)."""
        super().__init__(rng)
        self.generated = generated
        self.slow_why = None                         # why the playouts run on the engine, when they do
        self.determinizations, self.seconds, self.confidence = determinizations, seconds, confidence
        self.infer = infer
        self.belief = None                           # belief.Belief, once it follows a game
        self.policy = make_agent(playout, self.rng)
        self.searched = self.overridden = 0          # decisions searched, and those where the search won

    def determinize(self, state, me):
        """A copy of the state as `me` may imagine it: with what the public play tells of the
        other hands (belief.py) when the state's history can be followed, else resample_hidden.
        (bench/search_strength.py gives other searches more to see, to measure what hidden
        information costs.)"""
        if self.belief is not None and self.belief.follows(state, me):
            return self.belief.deal(state, self.rng)
        return state.resample_hidden(me, self.rng)

    def follow(self, state, me):
        """Bring the belief up to the state's history, before a search."""
        if not self.infer:
            return
        if self.belief is None or self.belief.me != me:
            self.belief = Belief(me, self.policy)
        self.belief.follow(state)

    def fast_playouts(self, game):
        """The game's generated playouts for this search's policy, or None (and `slow_why` says why)."""
        if not self.generated or _playouts_for is None:
            self.slow_why = "generated playouts are off" if not self.generated else "no generated playouts here"
            return None
        fast = _playouts_for(game, self.policy.name)
        if isinstance(fast, str):
            self.slow_why = fast
            return None
        self.slow_why = None
        return fast

    def _value(self, det, action, seed, me) -> float:
        s = det.clone()
        s.rng.seed(seed)
        rounds = len(s.turns_per_round)
        fast = self.fast_playouts(s.game)
        s.pause_before_turn = fast is not None
        s.apply_unchecked(action)
        return _playout(s, self.policy, me, rounds, fast, seed)

    def gains(self, state, legal):
        """For each legal action's id: (determinizations, mean gain over the default, its standard
        error); the default's id; and the legal actions by id."""
        me = state.decision.player
        space = state.game.action_space
        ids = {space.id_of(state, a): a for a in legal}
        default = space.id_of(state, self.policy.act(state, legal))
        n = dict.fromkeys(ids, 0)
        total = dict.fromkeys(ids, 0.0)
        squares = dict.fromkeys(ids, 0.0)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        self.follow(state, me)
        done = 0
        while (done < self.determinizations) if deadline is None else (time.perf_counter() < deadline or done < 2):
            done += 1
            det = self.determinize(state, me)
            here = {space.id_of(det, a): a for a in det.decision.options}
            if default not in here:
                continue
            seed = self.rng.random()
            base = self._value(det, here[default], seed, me)
            for i in ids:
                if i != default and i in here:
                    d = self._value(det, here[i], seed, me) - base
                    n[i] += 1
                    total[i] += d
                    squares[i] += d * d
        out = {}
        for i in ids:
            if i == default or n[i] < 2:
                out[i] = (n[i], 0.0, math.inf)
                continue
            mean = total[i] / n[i]
            var = max(0.0, (squares[i] - n[i] * mean * mean) / (n[i] - 1))
            out[i] = (n[i], mean, math.sqrt(var / n[i]))
        return out, default, ids

    def choose_in(self, state, legal):
        if len(legal) == 1:
            return legal[0]
        gains, default, ids = self.gains(state, legal)
        self.searched += 1
        best, best_lower = default, 0.0
        for i, (n, mean, se) in gains.items():
            margin = 0.0 if self.confidence is None else self.confidence * se   # None: unguarded (bench)
            if n and mean - margin > best_lower:
                best, best_lower = i, mean - margin
        if best != default:
            self.overridden += 1
        return ids[best]

    def choose(self, obs, legal):                 # without a state there is nothing to search
        return legal[0]


MAX_DETERMINIZATIONS = 100_000     # a decision's budget: at most this many determinizations,
MAX_SECONDS = 600.0                # or this many seconds


def search_budget(name: str) -> dict:
    """The budget of `ismcts`, `ismcts:DETERMINIZATIONS` or `ismcts:SECONDSs` (e.g. `ismcts:0.2s`),
    as ISMCTSAgent's keyword; raises ValueError for one that is not a positive, bounded number."""
    _, _, budget = name.partition(":")
    if not budget:
        return {"determinizations": DEFAULT_DETERMINIZATIONS}
    if len(budget) > 20:
        raise ValueError(f"the search budget `{budget[:20]}...` is too long")
    if budget.endswith("s"):
        seconds = float(budget[:-1])
        if not 0 < seconds <= MAX_SECONDS:         # also refuses inf and nan
            raise ValueError(f"a search budget of {budget}: seconds lie above 0 and at most {MAX_SECONDS:g}")
        return {"seconds": seconds}
    n = int(budget)
    if not 0 < n <= MAX_DETERMINIZATIONS:
        raise ValueError(f"a search budget of {budget} determinizations: from 1 to {MAX_DETERMINIZATIONS:,}")
    return {"determinizations": n}


def make_search_agent(name: str, rng):
    """`ismcts`, `ismcts:DETERMINIZATIONS` or `ismcts:SECONDSs` (e.g. `ismcts:0.2s`)."""
    return ISMCTSAgent(rng, **search_budget(name))


add_budgeted("ismcts", make_search_agent)
