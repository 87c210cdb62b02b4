"""Scenarios followed in generated code (`unorules test --generated`, run_scenarios(generated=True)):
where the code can go on from a scenario's given position (`start: turn`, a rulebook the step code
covers), it is sent the script's answers beside the engine and must offer the same decisions and
reach the same positions, at every decision, checkpoint and the end; so every shipped scenario
pins the simulators' code as it pins the engine."""
from __future__ import annotations

import re
import textwrap

import unorules.codegen.generated as generated
from unorules.testing import report, run_scenario, run_scenarios

from helpers import ROOT, run_cli, write

SHIPPED = ROOT / "tests" / "scenarios"

SCORED = """\
name: seat 0 goes out and scores the other hand
rulebook: classic
players: 2
given:
  hands: {0: [red 5], 1: [blue 9, wild]}
  discard: [red 3]
  draw_pile: [green 1, green 2]
  turn: 0
defaults: {challenge: false, catch: false, jump_in: false, respond: false}
script:
  - {player: 0, play: red 5}
expect: {scores: {0: 59, 1: 0}}
"""


def decisions(result) -> int:
    return int(re.search(r"(\d+) decisions?", result.generated).group(1))


def test_every_shipped_scenario_goes_alike_in_generated_code_where_the_code_can_go_on():
    results = run_scenarios([SHIPPED], generated=True)
    assert not [report(r) for r in results if not r.ok]
    followed = [r for r in results if r.generated.startswith("followed")]
    others = [r for r in results if not r.generated.startswith("followed")]
    assert len(followed) >= 260 and sum(map(decisions, followed)) >= 470     # 268 and 490 when written
    rulebooks = {str(r.scenario.data["rulebook"]) for r in followed}
    assert {"classic", "official", "rlcard", "attack", "hot_death", "killer", "showdown", "mario", "bts",
            "flex", "nonpartisan"} <= rulebooks                                 # the last two: counters
    for r in others:        # each scenario not followed says why
        assert r.generated.startswith("not followed in generated code: ") and len(r.generated) > 36, r.generated


def test_a_followed_scenario_fails_where_generated_code_scores_otherwise(tmp_path, monkeypatch):
    path = write(tmp_path, "s.yaml", SCORED)
    good = run_scenario(path, generated=True)
    assert good.ok and good.generated == "followed in generated code: 1 decision, equal to the engine's"
    assert run_scenario(path).generated == ""            # not asked: the engine alone

    made = generated.generate

    def miscounting(*a, **kw):                           # generated code that scores a point too many
        src = made(*a, **kw)
        src.lines = [line.replace("scores[q] += g", "scores[q] += g + 1") for line in src.lines]
        return src
    monkeypatch.setattr(generated, "generate", miscounting)
    bad = run_scenario(path, generated=True)
    assert not bad.ok
    assert bad.message.startswith("generated code differs from the engine at the end: ") and "(scores)" in bad.message
    assert run_scenario(path).ok                          # the engine's own run is as it was


def test_a_followed_scenario_fails_where_generated_code_offers_other_actions(tmp_path, monkeypatch):
    path = write(tmp_path, "s.yaml", SCORED.replace("red 5], 1", "red 5, blue 7], 1").replace(
        "scores: {0: 59, 1: 0}", "turn: 1"))
    assert run_scenario(path, generated=True).ok
    made = generated.generate

    def no_draw(*a, **kw):                                # generated code that forgets the draw
        src = made(*a, **kw)
        src.lines = [line.replace("ids.append(DRAW_ID)", "pass") for line in src.lines]
        return src
    monkeypatch.setattr(generated, "generate", no_draw)
    bad = run_scenario(path, generated=True)
    assert not bad.ok and "before `play red 5`" in bad.message
    assert ("seat 0 may play red 5, play red 5 and call in generated code, but play red 5, play red 5 and call, "
            "draw on the engine") in bad.message


def test_a_scripted_chance_ends_the_following_and_a_dealt_start_is_followed_from_its_first_turn(tmp_path):
    chance = write(tmp_path, "c.yaml", textwrap.dedent("""\
        name: a chance fixed by the script
        rulebook: attack
        players: 2
        given:
          hands: {0: [red 5, red 6], 1: [blue 9, blue 8]}
          discard: [red 3]
          draw_pile: [green 1, green 2, green 3]
          turn: 0
        defaults: {challenge: false, catch: false, jump_in: false, respond: false}
        script:
          - {player: 0, draw: true}
          - {chance: two_cards}
        """))
    r = run_scenario(chance, generated=True)
    assert r.ok, report(r)
    assert r.generated.startswith("followed in generated code: equal to the engine for 1 decision, then the script "
                                  "fixes a chance outcome")
    dealt = write(tmp_path, "d.yaml", SCORED.replace("  hands: {0: [red 5], 1: [blue 9, wild]}\n", "").replace(
        "  discard: [red 3]\n", "").replace("  turn: 0\n", "").replace("players: 2\n", "players: 2\nstart: deal\n")
        .replace("draw_pile: [green 1, green 2]", "draw_pile: [red 1, red 2, red 3, red 4, red 5, red 6, red 7, "
                 "red 8, red 9, blue 1, blue 2, blue 3, blue 4, blue 5, blue 6, blue 7]")
        .replace("script:\n  - {player: 0, play: red 5}\nexpect: {scores: {0: 59, 1: 0}}\n",
                 "script:\n  - {player: 0, draw: true}\n  - {player: 0, keep: true}\nexpect: {turn: 1}\n"))
    r = run_scenario(dealt, generated=True)
    assert r.ok, report(r)
    # entered where the engine first paused between two turns: after the deal and the turned-up card
    assert r.generated == "followed in generated code: 2 decisions, equal to the engine's"


def test_the_cli_follows_in_generated_code_on_request(tmp_path):
    path = write(tmp_path, "s.yaml", SCORED)
    code, out, _ = run_cli("test", path)
    assert code == 0 and out.strip().splitlines()[-1] == "1 passed, 0 failed"
    code, out, _ = run_cli("test", "--generated", "-v", path)
    assert code == 0 and out.strip().splitlines()[-1] == "1 passed, 0 failed; 1 followed in generated code"
    assert "followed in generated code: 1 decision, equal to the engine's" in out
