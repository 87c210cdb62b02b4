"""`unorules play`: every event of every shipped rulebook is told in words, the menu follows
legal_actions() with one line per wild, and the table between rounds (issue 17, section 4)."""
from __future__ import annotations

import pytest

from helpers import run_cli
from unorules.engine.compiler import compile_rulebook
from unorules.engine import Game
from unorules.language.loader import load, shipped_names
from unorules.cli.play import play_game
from unorules.engine.table_text import SILENT, menu, narrate


def _play(name, seed, players=4, rounds="single"):
    game = Game(compile_rulebook(load(name)), players, rounds=rounds, log_events=True)
    lines = []
    answers = iter(["1"] * 20000)
    s = play_game(game, seed=seed, you=0, agents=("greedy",), read=lambda prompt: next(answers), write=lines.append)
    return s, lines


@pytest.mark.parametrize("name", sorted(shipped_names()))
def test_every_event_of_every_shipped_rulebook_has_a_line(name):
    seen = set()
    for seed in (1, 2, 3):
        s, lines = _play(name, seed)
        assert "Your hand:" in "\n".join(lines)
        for ev in s.log:
            seen.add(ev["type"])
            if ev["type"] not in SILENT:
                text = narrate(s, ev, 0)
                assert text, f"{name}: no words for a `{ev['type']}` event: {ev}"
    assert {"play", "draw", "deal", "turn_up", "round_end"} <= seen


def test_the_menu_follows_legal_actions_with_one_line_per_wild():
    game = Game(compile_rulebook(load("classic")), 2, log_events=True)
    for seed in range(40):
        s = game.new_state(seed)
        d = s.decision
        if d.kind == "turn" and any(a.color is not None for a in d.options):
            entries = menu(s, d)
            flat = [a for _, acts in entries for a in acts]
            assert flat == s.legal_actions()
            wilds = [label for label, acts in entries if len(acts) > 1]
            assert wilds and all("(red, yellow, green, blue)" in w for w in wilds)
            return
    pytest.fail("no seed gave a wild in the first hand")


def test_a_match_shows_the_scores_and_pauses_between_rounds():
    s, lines = _play("classic", 5, players=2, rounds="match")
    text = "\n".join(lines)
    assert "Scores: you" in text and "=== Round 2" in text


def test_a_jump_in_is_told_once():
    for seed in range(30):
        s, lines = _play("killer", seed, players=3)
        for i, line in enumerate(lines):
            if " in with " in line:
                assert " plays " not in lines[i + 1] and " play " not in lines[i + 1]
                return
    pytest.fail("no jump-in in 30 games")


def test_one_option_asks_for_1_not_a_range():
    code, out, err = run_cli("play", "classic", "--seed", "1", "--players", "2", input="1\n" * 400)
    assert "[1-1" not in out


def test_the_stakes_are_told_before_a_challenge():
    from unorules.engine.table_text import stakes
    game = Game(compile_rulebook(load("classic")), 2, log_events=True)
    from unorules.agents.base import make_agents
    for seed in range(200):
        s = game.new_state(seed)
        bots = make_agents(["greedy", "greedy"], seed)
        while not s.terminal:
            d = s.decision
            if d.probs is not None:
                s.apply_action(s.rng.choices(d.options, d.probs)[0])
                continue
            if d.kind == "challenge":
                text = stakes(s, d, d.player)
                assert "wild_draw_four (penalty 4)" in text and "If you challenge" in text
                assert "the attacked player draws 2 cards" in text
                return
            s.apply_action(bots[d.player].choose(s.observe(d.player), d.options))
    pytest.fail("no challenge offered in 200 games")
