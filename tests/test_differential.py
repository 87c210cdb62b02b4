"""The differential fuzz, standing: grammar-wide random rulebooks (tests/fuzz_rulebooks.py: nested
blocks under subjects and loops, choices that rebind names inside blocks, named rules, triggers of
every event, reactions, places, teams) played by the engine and the generated code on the same seeds
and agents, event for event; where hands counted per face cover the rules, the counted code against
its reference too. A rulebook the generator does not cover must say why, and the engine must play
it to an outcome. bench/differential.py runs thousands and reports the counts."""
from __future__ import annotations

import random

import pytest

from fuzz_rulebooks import grammar_rulebook
from test_codegen import AGENT_MIXES, same_games
from unorules.errors import RulebookError, RuleRuntimeError, UnorulesError
from unorules.runs.simulation import RunSpec, make_game, play_one, simulator_for

SEEDS = range(300)          # bench/differential.py runs many more


def differential(seed: int, folder, games: int = 3) -> str:
    """Play rulebook `seed` both ways; returns `invalid`, `generated` or `engine` (not covered)."""
    rng = random.Random(seed)
    text = grammar_rulebook(rng)
    if "cap " not in text:
        text += "turn { cap 120 turns }\n"        # short rounds: many rulebooks, few seconds
    path = folder / f"fuzz{seed}.uno"
    path.write_text(text, encoding="utf-8")
    players = 4 if "teams of" in text else rng.randint(2, 5)
    spec = RunSpec(str(path), players=players, seed=seed, agents=rng.choice(AGENT_MIXES),
                   rounds=rng.choice(["rulebook", "single"]), simulator="generated")
    try:
        game = make_game(spec, log_events=True)
    except RulebookError:
        return "invalid"
    try:
        program, why = simulator_for(game, spec)
    except UnorulesError as e:               # `--simulator generated` refuses what it does not cover, saying why
        program, why = None, str(e)
    if program is None:
        assert "the code generator does not cover " in why, why
        for i in range(games):
            s = play_one(game, spec, i)
            assert s.outcome in ("win", "stalled", "error"), s.outcome
            if s.outcome == "error":
                assert isinstance(s.error, RuleRuntimeError) and s.error.where, (text, s.error)
        return "engine"
    same_games(spec, games=games)
    return "generated"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("differential")


@pytest.mark.parametrize("seed", SEEDS)
def test_the_engine_and_the_generated_code_play_the_same_games(seed, folder):
    differential(seed, folder)


def test_the_differential_fuzz_covers_most_rulebooks_with_generated_code(folder):
    kinds = [differential(seed, folder, games=1) for seed in range(80)]     # (120 seeds: 62 generated, 13 invalid)
    assert kinds.count("generated") >= 30, kinds
    assert kinds.count("invalid") <= 16, kinds
