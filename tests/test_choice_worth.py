"""The greedy agent answers a named choice and a number by what the rules make each answer worth to
it (language/worth.py), not by the order they are written in (issue 60: a choice card was measured
for its first option only); answers the rules cannot tell apart are taken uniformly; every runner
(engine, generated and native code) answers alike."""
from __future__ import annotations

import os
from collections import Counter

import pytest

from helpers import DATA
from test_codegen import same_games
from unorules.language.loader import load
from unorules.language.worth import choice_worths
from unorules.runs.simulation import RunSpec, make_game, play_one

CARD = (DATA / "choice_worth.uno").read_text("utf-8")


def variant(tmp_path, name, old="", new=""):
    path = tmp_path / f"{name}.uno"
    path.write_text(CARD.replace(old, new), encoding="utf-8")
    return str(path)


def answers(with_, agents=("greedy",), games=40) -> Counter:
    spec = RunSpec("official", with_=(with_,), players=4, agents=agents, rounds="single", seed=3)
    game = make_game(spec, log_events=True)
    out = Counter()
    for i in range(games):
        out.update((e["name"], e["value"]) for e in play_one(game, spec, i).log if e["type"] == "choose")
    return out


def test_the_worth_of_each_option_and_a_numbers_slope_are_read_from_the_rules(tmp_path):
    worths = sorted(choice_worths(load("official", with_=(str(DATA / "choice_worth.uno"),)).ir).values())
    assert worths == [(-1.0, 2.0), (1.0,)]                   # gift: it draws 1; punish: next draws 2; k: next draws k
    mine = variant(tmp_path, "mine", "next draw k", "draw k")
    assert (-1.0,) in choice_worths(load("official", with_=(mine,)).ir).values()


def test_greedy_punishes_whichever_option_is_written_first(tmp_path):
    written = answers(str(DATA / "choice_worth.uno"))
    swapped = answers(variant(tmp_path, "swapped", "gift, punish", "punish, gift"))
    for got in (written, swapped):
        assert got[("mode", "punish")] >= 20 and got[("mode", "gift")] == 0
        assert got[("k", 3)] == got[("mode", "punish")] and got[("k", 1)] == 0


def test_greedy_names_the_lowest_number_when_it_draws_that_many(tmp_path):
    got = answers(variant(tmp_path, "mine", "next draw k", "draw k"))
    assert got[("k", 1)] >= 20 and got[("k", 2)] == got[("k", 3)] == 0


def test_answers_of_equal_worth_are_taken_uniformly_and_random_stays_uniform(tmp_path):
    tie = variant(tmp_path, "tie", "else { draw 1 }", "else { each other draw 1 }")      # 2 either way
    got = answers(tie, games=60)
    n = got[("mode", "punish")] + got[("mode", "gift")]
    assert n >= 40 and abs(got[("mode", "punish")] - n / 2) < 3 * (n / 4) ** 0.5
    rand = answers(str(DATA / "choice_worth.uno"), agents=("random",), games=80)
    m = rand[("mode", "punish")] + rand[("mode", "gift")]
    assert m >= 20 and min(rand[("mode", "punish")], rand[("mode", "gift")]) > 0
    assert {rand[("k", v)] > 0 for v in (1, 2, 3)} == {True}


@pytest.mark.parametrize("edit", [("", ""), ("gift, punish", "punish, gift"), ("next draw k", "draw k"),
                                  ("else { draw 1 }", "else { each other draw 1 }")])
def test_generated_code_answers_as_the_engine(edit, tmp_path):
    path = variant(tmp_path, "card", *edit)
    same_games(RunSpec("official", with_=(path,), players=4, seed=7, agents=("greedy", "random"), rounds="single"),
               games=20)


def test_native_code_answers_as_its_reference(tmp_path):
    if not os.environ.get("UNORULES_REQUIRE_EXTRAS"):
        pytest.importorskip("numba")
    from unorules.native.program import NativeProgram
    from unorules.runs.simulation import game_seed, seat_agents
    spec = RunSpec("official", with_=(variant(tmp_path, "tie", "else { draw 1 }", "else { each other draw 1 }"),),
                   players=4, agents=("greedy",), rounds="single")
    program = NativeProgram(make_game(spec), tuple(seat_agents(spec)))
    _, wrong = program.differing([game_seed(0, i) for i in range(60)])
    assert not wrong
