"""State.clone copies by hand what State's attributes hold (engine/state.py): these tests hold it
to what a full deepcopy would give, on every shipped rulebook and on the modules that add state
(counters, shown hands, fronts, attacks), so that a new attribute or a new use of one cannot make
two clones share what they change."""
import random

import pytest

from unorules import load
from unorules.engine import Game, state as state_module
from unorules.engine.compiler import compile_rulebook
from unorules.engine.types import Attack, Decision

from helpers import ROOT

SHIPPED = sorted(p.stem for p in (ROOT / "rulebooks").glob("*.uno"))
MODULES = ("seven_o", "stacking", "jump_in", "partners")
CARDS = ("take_a_card", "shield", "lucky_charm", "give_away")
ATOMIC = (int, bool, float, str, type(None))


def game_of(name, include=(), with_=()):
    rules = compile_rulebook(load(name, include=include, with_=with_), {})
    return Game(rules, max(rules.min_players, min(4, rules.max_players)))


def immutable(x):
    return type(x) in ATOMIC or (isinstance(x, tuple) and all(immutable(y) for y in x))


def plain(x):
    """x as nested tuples of numbers, names and the functions and rules it refers to (never an address)."""
    if type(x) in ATOMIC or callable(x):
        return x
    if isinstance(x, (list, tuple)):
        return (type(x).__name__,) + tuple(plain(y) for y in x)
    if isinstance(x, dict):
        return ("dict",) + tuple((plain(k), plain(v)) for k, v in x.items())
    if isinstance(x, set):
        return ("set",) + tuple(sorted(x))
    if isinstance(x, (Attack, Decision)):
        return (type(x).__name__,) + tuple(plain(getattr(x, a)) for a in type(x).__slots__)
    if isinstance(x, random.Random):
        return x.getstate()
    return x        # what belongs to the compiled rules: the same object in every copy


def snapshot(s):
    """Every attribute of the position as plain values: what a copy must never change."""
    skip = ("game", "rules", "_match", "_views", "team_of", "card_faces", "ccolor", "ckind", "_own_tables")
    return {k: plain(v) for k, v in vars(s).items() if k not in skip}


def random_step(s, rng):
    if s.is_chance_node():
        s.play_chance()
    else:
        s.apply_action(rng.choice(s.legal_action_ids()))


def check_clones(game, seed, steps=240, every=11, ahead=8):
    """Play a random game; every `every` steps check the attributes' kinds, clone, play the clone
    `ahead` random steps, and check the original is as it was and a second clone plays alike."""
    s = game.new_state(seed)
    rng = random.Random(seed)
    for i in range(steps):
        if s.is_terminal():
            break
        if i % every == 0:
            for k in state_module._SCALARS:
                assert immutable(getattr(s, k)), k
            for k in state_module._FLAT_LISTS:
                assert all(immutable(x) for x in getattr(s, k)), k
            before = snapshot(s)
            c, twin = s.clone(), s.clone()
            assert snapshot(c) == before
            assert c.discard is c.piles[c.pile] and c.discard is not s.discard
            assert all(a is not b for a, b in zip(c.hands, s.hands))
            r1, r2 = random.Random(i), random.Random(i)
            for _ in range(ahead):
                if c.is_terminal():
                    break
                random_step(c, r1)
                random_step(twin, r2)
            assert snapshot(s) == before, f"a clone's play changed the original at step {i}"
            assert snapshot(c) == snapshot(twin)
        random_step(s, rng)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_clone_is_the_position_and_never_reaches_the_original(name):
    check_clones(game_of(name), seed=SHIPPED.index(name))


def test_clones_with_modules_that_add_state():
    check_clones(game_of("official", MODULES, CARDS), seed=3, steps=400)


def test_the_scalars_and_the_rest_name_every_attribute_but_the_deep_ones():
    """What is copied deep is what no list names: the agenda, the decision, an attack, an error,
    the event log (and the deck's tables when the deck is the game's own)."""
    s = game_of("official").new_state(1)
    deep = set(vars(s)) - state_module._BY_HAND - state_module._SHARED_DECK
    assert deep == {"agenda", "decision", "attack", "error", "log", "discard", "_own_tables"}
    assert isinstance(s.decision, Decision)
