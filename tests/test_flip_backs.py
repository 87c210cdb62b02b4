"""Flip's public backs (issue 29, item 12): with double-faced cards the other side of every card
in every hand, and of the draw pile's top, is in every player's observation and in `play`'s
table, and a search's redeal keeps them."""
from __future__ import annotations

import random

from unorules.engine import Game
from unorules.engine.compiler import compile_rulebook
from unorules.engine.table_text import table
from unorules.language.loader import load


def _states(name, seeds=4, players=3):
    game = Game(compile_rulebook(load(name)), players)
    for seed in range(seeds):
        s = game.new_state(seed)
        rng = random.Random(seed)
        steps = 0
        while not s.is_terminal() and steps < 400:
            yield s
            s.apply_action(rng.choice(s.legal_actions()))
            steps += 1


def _back(s, c):
    return s.rules.face_names[s.card_faces[(s.side + 1) % 2][c]]


def test_every_player_sees_the_backs_of_every_hand_and_of_the_pile_top():
    flipped = False
    for s in _states("flip"):
        flipped |= s.side == 1
        for p in range(s.n):
            obs = s.observe(p)
            assert [[v.name for v in h] for h in obs.backs] == [[_back(s, c) for c in h] for h in s.hands]
            assert (obs.draw_pile_back.name if obs.draw_pile_back else None) == \
                (_back(s, s.draw_pile[-1]) if s.draw_pile else None)
            assert [v.card for v in obs.hand] == s.hands[p]          # the fronts stay the holder's own
    assert flipped                                                  # the backs follow a flip too


def test_play_shows_the_backs():
    s = next(iter(_states("flip", seeds=1)))
    assert "Backs:" in table(s, 0) and "Draw pile's back:" in table(s, 0)


def test_a_one_sided_rulebook_shows_no_backs():
    s = next(iter(_states("classic", seeds=1)))
    assert s.observe(0).backs == () and s.observe(0).draw_pile_back is None


def test_a_redeal_keeps_every_public_back():
    rng = random.Random(5)
    checked = 0
    for s in _states("flip", seeds=2):
        if s.current_player() < 0 or checked > 60:
            continue
        p = s.current_player()
        r = s.resample_hidden(p, rng)
        for q in range(s.n):
            assert sorted(_back(r, c) for c in r.hands[q]) == sorted(_back(s, c) for c in s.hands[q])
        if s.draw_pile:
            assert _back(r, r.draw_pile[-1]) == _back(s, s.draw_pile[-1])
        assert r.hands[p] == s.hands[p]
        checked += 1
    assert checked > 20


def test_the_observation_tensor_carries_the_backs():
    for s in _states("flip", seeds=1):
        if s.is_terminal() or len(s.hands[1]) < 1 or len(s.hands[2]) < 1:
            continue
        back = s.card_faces[(s.side + 1) % 2]
        pair = next(((i, j) for i, x in enumerate(s.hands[1]) for j, y in enumerate(s.hands[2]) if back[x] != back[y]), None)
        if pair is None:
            continue
        t = s.clone()
        i, j = pair
        t.hands[1][i], t.hands[2][j] = t.hands[2][j], t.hands[1][i]
        assert t.observation_tensor(0) != s.observation_tensor(0)
        parts = dict(s.game.observation_layout.parts)
        assert parts["backs"] == len(s.rules.faces) * s.n and parts["draw_pile_back"] == len(s.rules.faces)
        return
    raise AssertionError("no state with two hands of different backs")
