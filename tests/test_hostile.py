"""Hostile rules and untrusted input: caught by the checker where it can be, otherwise ended with
a named runtime error or a `stalled` outcome within the caps; never a hang, never a leak; names
resolve only beside the including file, in --path folders and among the shipped rulebooks."""
from __future__ import annotations

import random
import tracemalloc

import unorules

from helpers import codes_of as codes, run_cli, write


def play_out(path, players=2, seeds=range(5), cap=None):
    game = unorules.Game(str(path), players, rounds="single", **({"turn_cap": cap} if cap else {}))
    out = []
    for seed in seeds:
        s = game.new_state(seed)
        rng = random.Random(seed)
        while not s.terminal:
            d = s.decision
            s.apply_action(rng.choices(d.options, d.probs)[0] if d.probs else rng.choice(d.options))
            assert s.invariant_violations() == []
        out.append(s)
    return out


def test_a_trigger_that_plays_again_forever_ends_as_stalled(tmp_path):
    p = write(tmp_path, "again.uno", "rulebook again\nextends classic\non turn_start: play again\n")
    for s in play_out(p, cap=300):
        assert s.outcome in ("stalled", "win")


def test_a_draw_trigger_that_draws_is_no_loop(tmp_path):
    # `on draw` fires on the turn's draw only: a rule's draws never fire it, so this ends
    p = write(tmp_path, "loop.uno", "rulebook loop\nextends classic\non draw: each player draw 1\n")
    assert codes(p) == []
    for s in play_out(p, cap=300):
        assert s.outcome in ("stalled", "win")


def test_conditional_trigger_chains_stop_at_the_depth_cap(tmp_path):
    p = write(tmp_path, "chain.uno", "rulebook chain\nextends classic\non draw if player_count > 1: next draw 1\n")
    states = play_out(p, seeds=range(3))
    assert all(s.outcome in ("error", "win", "stalled") for s in states)
    errs = [str(s.error) for s in states if s.error]
    assert all("triggered each other more than 32 deep" in e for e in errs)


def test_drawing_until_a_color_no_card_has_ends(tmp_path):
    p = write(tmp_path, "nored.uno", "rulebook nored\ncolors red blue\ncard 1..9 { number }\n"
                                     "card w { wild on play: next draw until color red }\n"
                                     "deck { per color: 2 × 1..9\n 4 × w }\n")
    # once the red cards are in hands, drawing until red empties the pile and stops
    for s in play_out(p, seeds=range(5)):
        assert s.outcome in ("win", "stalled")


def test_drawing_more_cards_than_exist_is_cut_short(tmp_path):
    p = write(tmp_path, "flood.uno", "rulebook flood\nextends classic\ncard wild { on play: next draw 100000 }\n")
    game = unorules.Game(str(p), 3, rounds="single", log_events=True)
    seen_short = False
    for seed in range(10):
        s = game.new_state(seed)
        rng = random.Random(seed)
        while not s.terminal:
            d = s.decision
            s.apply_action(rng.choices(d.options, d.probs)[0] if d.probs else rng.choice(d.options))
        seen_short |= any(e["type"] == "draw_short" for e in s.log)
        assert s.invariant_violations() == []
    assert seen_short


def test_removing_every_card_is_caught_by_the_checker(tmp_path):
    p = write(tmp_path, "empty.uno", "rulebook empty\nextends classic\n"
                                     "remove card 0..9, skip, reverse, draw_two, wild, wild_draw_four\n"
                                     "card blank { wild }\ndeck { 1 × blank }\n")
    assert "U0501" in codes(p)


def test_choosing_from_an_empty_set_chooses_nobody(tmp_path):
    p = write(tmp_path, "nobody.uno", "rulebook nobody\nextends classic\n"
                                      "card wild { on play: choose other player where false; swap hands with chosen }\n")
    for s in play_out(p, seeds=range(5)):
        assert s.outcome in ("win", "stalled")


def test_memory_stays_flat_across_games():
    from unorules.runs.simulation import RunSpec, run_range
    spec = RunSpec("official", players=4, agents=("greedy",), rounds="single")
    run_range(spec, 0, 50)
    tracemalloc.start()
    run_range(spec, 50, 100)
    first, _ = tracemalloc.get_traced_memory()
    run_range(spec, 100, 400)
    second, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert second - first < 1_000_000          # 300 more games add no lasting memory


def test_names_resolve_only_beside_the_file_on_path_and_shipped(tmp_path):
    outer = tmp_path / "outer"
    inner = outer / "inner"
    inner.mkdir(parents=True)
    write(outer, "secret.uno", "rulebook secret\nextends classic\n")
    p = write(inner, "house.uno", "rulebook house\nextends secret\n")
    assert "U0206" in codes(p)                                 # not found in a parent folder
    assert run_cli("validate", p, "--path", outer)[0] == 0     # found when the folder is given


def test_a_path_is_not_a_name(tmp_path):
    p = write(tmp_path, "sneaky.json", '{"kind": "rulebook", "name": "sneaky", "extends": "../../etc/passwd"}')
    assert codes(p) == ["U0401"]
    p = write(tmp_path, "sneaky.uno", 'rulebook sneaky\nextends "../classic.uno"\n')
    assert codes(p) == ["U0101"]


def test_numbers_that_would_exhaust_memory_are_refused_or_capped(tmp_path):
    p = write(tmp_path, "huge.json", '{"kind": "rulebook", "name": "huge", "extends": "classic", '
                                     '"deck": [{"entries": [{"kind": "copies", "count": 10000000, "faces": ["wild"]}]}]}')
    assert "U0401" in codes(p)


def test_the_grammar_cache_lives_only_where_no_one_else_can_write(tmp_path, monkeypatch):
    import os
    from unorules.language.parser import _cache_file
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = _cache_file("grammar text")
    assert path is not None and path.startswith(str(tmp_path / "unorules"))
    assert not os.stat(tmp_path / "unorules").st_mode & 0o077
    os.chmod(tmp_path / "unorules", 0o777)                 # someone else could plant a pickle here
    assert _cache_file("grammar text") is None
