"""A search's playouts in generated code (codegen/playouts.py): the engine plays to the first pause
between turns, generated code plays on from the State's position. Held equal to the engine's
playouts, seat for seat, from positions of random games of every shipped rulebook it covers; and
a search with them chooses exactly as a search on the engine."""
import random

import pytest

from helpers import ROOT
from unorules import load
from unorules.agents import search
from unorules.agents.base import make_agent
from unorules.agents.search import ISMCTSAgent, _playout
from unorules.codegen.playouts import Playouts, playouts_for
from unorules.engine import Game
from unorules.engine.compiler import compile_rulebook

search.use_generated_playouts(playouts_for)       # as unorules.runs and unorules.envs do

SHIPPED = sorted(p.stem for p in (ROOT / "rulebooks").glob("*.uno"))
# why the rest play their playouts on the engine
ENGINE_ONLY = {"emoji": "may play", "flip": "double-faced cards", "no_mercy": "`on hand reaches N`",
               "triple_play": "several discard piles"}


def game_of(name, include=(), with_=(), rounds="rulebook"):
    rules = compile_rulebook(load(name, include=include, with_=with_), {})
    return Game(rules, max(rules.min_players, min(4, rules.max_players)), rounds=rounds)


class Counting:
    """Playouts that count their hand-offs to generated code."""

    def __init__(self, fast):
        self.fast, self.entered = fast, 0

    def can_enter(self, s):
        return self.fast.can_enter(s)

    def play_from(self, s, seed):
        self.entered += 1
        return self.fast.play_from(s, seed)


def both_playouts(game, fast, seed, positions=40, every=4):
    """From positions of a random game: the engine's playout and the generated one, for a random
    action and every seat; how many were handed on to generated code."""
    s = game.new_state(seed)
    rng = random.Random(seed)
    fast = Counting(fast)
    pairs, steps = [], 0
    while not s.terminal and len(pairs) < positions:
        steps += 1
        if s.is_chance_node():
            s.play_chance()
            continue
        if steps % every == 0:
            action = rng.choice(s.decision.options)
            for me in range(s.n):
                a, b = s.clone(), s.clone()
                seed_here = rng.random()
                for c in (a, b):
                    c.rng.seed(seed_here)
                rounds = len(s.turns_per_round)
                a.apply_unchecked(action)
                engine = _playout(a, make_agent("greedy", random.Random(1)), me, rounds)
                b.pause_before_turn = True
                b.apply_unchecked(action)
                generated = _playout(b, make_agent("greedy", random.Random(1)), me, rounds, fast, seed_here)
                pairs.append((engine, generated))
        s.apply_action(rng.choice(s.legal_action_ids()))
    return pairs, fast.entered


@pytest.fixture
def unbounded_playouts(monkeypatch):
    # the engine's playouts stop at PLAYOUT_STEPS (a return of 0), the generated ones at the turn cap
    monkeypatch.setattr(search, "PLAYOUT_STEPS", 100_000)


@pytest.mark.parametrize("name", [n for n in SHIPPED if n not in ENGINE_ONLY])
def test_generated_playouts_give_the_engines_returns(name, unbounded_playouts):
    game = game_of(name)
    fast = playouts_for(game, "greedy")
    assert isinstance(fast, Playouts), fast
    pairs, entered = both_playouts(game, fast, seed=SHIPPED.index(name))
    assert len(pairs) >= 40 and entered >= len(pairs) * 3 // 4     # most end in generated code
    assert [e for e, _ in pairs] == [g for _, g in pairs]
    assert len({e for e, _ in pairs}) > 1          # the playouts do not all end alike


@pytest.mark.parametrize("include, with_", [(("stacking", "seven_o", "jump_in"), ()),
                                           (("partners",), ()),
                                           ((), ("everyone_draws", "skip_two", "take_a_card")),
                                           ((), ("double_next_draw",))])
def test_generated_playouts_with_modules_and_custom_cards(include, with_, unbounded_playouts):
    game = game_of("official", include, with_)
    fast = playouts_for(game, "greedy")
    if isinstance(fast, str):                    # a module the generator does not cover: said, not guessed
        assert (include, fast) == (("partners",), "teams")
        return
    pairs, _ = both_playouts(game, fast, seed=5)
    assert [e for e, _ in pairs] == [g for _, g in pairs]


def test_a_match_playout_ends_with_its_round(unbounded_playouts):
    game = game_of("official", rounds="match")
    pairs, entered = both_playouts(game, playouts_for(game, "greedy"), seed=2)
    assert entered and [e for e, _ in pairs] == [g for _, g in pairs]


@pytest.mark.parametrize("name", sorted(ENGINE_ONLY))
def test_the_rest_say_why_their_playouts_run_on_the_engine(name):
    why = playouts_for(game_of(name), "greedy")
    assert isinstance(why, str) and ENGINE_ONLY[name] in why
    agent = ISMCTSAgent(0, determinizations=2)
    assert agent.fast_playouts(game_of(name)) is None and ENGINE_ONLY[name] in agent.slow_why


def test_a_position_code_cannot_hold_plays_on_to_the_next_pause(monkeypatch, unbounded_playouts):
    """Where can_enter says no (here: every other pause), the engine plays on to the next."""
    game = game_of("official")
    fast = playouts_for(game, "greedy")
    calls = []

    def every_other(s):
        calls.append(s.turns)
        return len(calls) % 2 == 0
    monkeypatch.setattr(fast, "can_enter", every_other)
    pairs, _ = both_playouts(game, fast, seed=8, positions=20)
    assert [e for e, _ in pairs] == [g for _, g in pairs]
    assert len(calls) >= 2 * 20 and len(set(calls)) > 1


def test_a_search_on_generated_playouts_chooses_as_on_the_engine():
    """Every playout returns what the engine's would: so the searches play the very same games."""
    game = game_of("official", rounds="single")

    def played(generated):
        s = game.new_state(4)
        me = ISMCTSAgent(random.Random(9), determinizations=3, generated=generated)
        seats = [me] + [make_agent("greedy", random.Random(k)) for k in (2, 3, 4)]
        while not s.terminal:
            d = s.decision
            if d.probs is not None:
                s.apply_unchecked(s.rng.choices(d.options, d.probs)[0])
                continue
            s.apply_unchecked(seats[d.player].act(s, d.options))
        return s.history(), me

    (fast_history, fast), (slow_history, slow) = played(True), played(False)
    assert fast.slow_why is None and slow.slow_why == "generated playouts are off"
    assert fast.searched == slow.searched > 3
    assert fast_history == slow_history


def test_the_game_keeps_one_playout_program_per_policy():
    game = game_of("official")
    assert playouts_for(game, "greedy") is playouts_for(game, "greedy")
    assert "playout policy `ismcts`" in playouts_for(game, "ismcts")
