"""The place in front of each player (engine/fronts.py): public in every observation and in
`play`'s table, told in words, kept by clones, and every card stays in exactly one zone through
whole games of the shipped cards that use it."""
from __future__ import annotations

import copy
import random

import pytest

from unorules.engine import CHANCE, Game
from unorules.engine.compiler import compile_rulebook
from unorules.engine.table_text import narrate, table
from unorules.language.loader import load


def _game(*with_, players=3):
    return Game(compile_rulebook(load("official", with_=with_)), players, log_events=True)


def _random_game(game, seed):
    s = game.new_state(seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        legal = s.legal_actions()
        if s.current_player() == CHANCE:
            s.apply_action(rng.choice(legal))
        else:
            s.apply_action(rng.choice(legal))
        assert s.invariant_violations() == []
        yield s


@pytest.mark.parametrize("module", ["shield", "lucky_charm"])
def test_whole_games_keep_every_card_in_one_zone_and_show_the_fronts_to_everyone(module):
    game = _game(module)
    seen_front = False
    for seed in range(6):
        for s in _random_game(game, seed):
            fronts = [list(f) for f in s.fronts]
            if any(fronts):
                seen_front = True
                for p in range(s.n):
                    obs = s.observe(p)
                    assert [[v.card for v in f] for f in obs.fronts] == fronts     # public to every player
                assert "In front of" in table(s, 0)
    assert seen_front
    names = {ev["type"] for ev in s.log}
    for ev in s.log:
        if ev["type"] in ("front", "discard_front", "front_to_hand"):
            assert narrate(s, ev, 0)
    assert "front" in names


def test_a_rulebook_without_fronts_shows_none():
    s = _game().new_state(1)
    assert s.observe(0).fronts == ()


def test_a_clone_keeps_its_own_fronts():
    game = _game("shield")
    s = game.new_state(3)
    s.fronts[0].append(s.hands[0].pop())
    c = copy.deepcopy(s)
    c.fronts[0].clear()
    assert s.fronts[0] and not c.fronts[0]
    assert c.fronts is not s.fronts


def test_a_new_round_shuffles_the_fronts_back_into_the_deck():
    game = _game("lucky_charm", players=2)
    s = game.new_state(5)
    s.fronts[1].append(s.hands[1].pop())
    from unorules.engine.rounds import begin_round
    begin_round(s)
    assert s.fronts == [[], []]
    assert sorted(s.draw_pile + [c for h in s.hands for c in h] + [c for p in s.piles for c in p]) == list(range(s.ncards))


import pytest  # noqa: E402


@pytest.mark.parametrize("rule", ["on turn_start: put top in front of me",
                                  "card grab { action  points 20\n  on play: put top in front of me; put top in front of me; put top in front of me }\n"
                                  "deck { per color: 4 × grab }",
                                  "on attacked: take back card\non turn_start: put top in front of me"])
def test_a_discard_pile_always_keeps_its_last_card(tmp_path, rule):
    """`put top in front of me` and `take back card` could take a pile's last card: generated code
    then failed and a later read of the top was exit 3; the invariant is checked after every action."""
    import random as random_
    from unorules.engine import Game
    from unorules.engine.compiler import compile_rulebook
    from unorules.language.loader import load
    path = tmp_path / "hoard.uno"
    path.write_text(f'module hoard "h"\n{rule}\n')
    game = Game(compile_rulebook(load("classic", with_=(str(path),))), 3, rounds="single")
    actions = 0
    for seed in range(12):
        s = game.new_state(seed)
        rng = random_.Random(seed)
        while not s.terminal and actions < 40_000:
            d = s.decision
            s.apply_action(rng.choice(d.options) if d.probs is None else rng.choices(d.options, d.probs)[0])
            actions += 1
            assert s.invariant_violations() == [], (seed, s.invariant_violations())
            if not s.terminal:
                assert s.observe(s.decision.player if s.decision.player is not None else 0).top is not None
    assert actions > 500
