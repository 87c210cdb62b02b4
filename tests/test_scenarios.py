"""The scenario runner itself: failures that explain themselves, load errors with locations, the
defaults rule, checkpoints, chance and perform outcomes, double-faced cards, the CLI and the API."""
from __future__ import annotations

import json
import textwrap

from unorules.testing import report, run_scenario

from helpers import run_cli, write

D = "defaults: {challenge: false, catch: false, jump_in: false, respond: false}"


def scenario(tmp_path, body, name="s.yaml"):
    return write(tmp_path, name, textwrap.dedent(body).replace("$D", D))


BASIC = """\
name: basic
rulebook: classic
players: 3
given:
  hands: {0: [red 5, blue 2, green 8], 1: [green 3, yellow 7], 2: [blue 9, red 1]}
  discard: [red 3]
  draw_pile: [green 1, green 2]
  turn: 0
$D
script:
  - {player: 0, play: red 5}
"""


def test_a_wrong_expected_hand_size_fails_showing_expected_actual_and_trace(tmp_path):
    p = scenario(tmp_path, BASIC + "expect:\n  hand_sizes: {0: 3}\n")
    r = run_scenario(p)
    assert not r.ok
    text = report(r)
    assert "expect.hand_sizes.0: expected 3, got 2 (blue 2, green 8)" in text
    assert "asked seat 0: turn [play red 5, draw] -> play red 5 (script[0])" in text


def test_an_illegal_scripted_card_fails_with_the_engines_reason(tmp_path):
    p = scenario(tmp_path, BASIC.replace("play: red 5", "play: blue 2"))
    r = run_scenario(p)
    assert not r.ok
    assert "script[0] {player: 0, play: blue 2} was rejected: `blue 2` does not match the top card `red 3` (color red)" \
        in r.message


def test_an_expected_error_that_does_not_happen_fails(tmp_path):
    p = scenario(tmp_path, BASIC + "expect:\n  error: does not match\n")
    r = run_scenario(p)
    assert not r.ok and "expected the last decision to be rejected" in r.message


def test_a_decision_the_script_does_not_expect_fails_naming_both(tmp_path):
    p = scenario(tmp_path, BASIC + "  - {player: 2, play: red 1}\n")
    r = run_scenario(p)
    assert not r.ok
    assert "the engine asked seat 1: turn [draw], but script[1] holds {player: 2, play: red 1}" in r.message


def test_without_defaults_an_optional_decision_must_be_scripted(tmp_path):
    body = BASIC.replace("$D\n", "").replace("[red 5, blue 2, green 8]", "[red 5, blue 2]") + \
        "  - {player: 1, draw: true}\n"
    r = run_scenario(scenario(tmp_path, body))
    assert not r.ok and "the engine asked seat 1: catch [catch seat 0, don't catch]" in r.message
    body2 = body.replace("  - {player: 1, draw: true}\n", "  - {player: 1, catch: false}\n"
                         "  - {player: 2, catch: false}\n  - {player: 1, draw: true}\n")
    assert run_scenario(scenario(tmp_path, body2, "t.yaml")).ok


def test_checkpoints_hold_mid_script(tmp_path):
    body = BASIC + "  - expect: {top: red 5, turn: 1}\n  - {player: 1, draw: true}\nexpect: {turn: 2}\n"
    r = run_scenario(scenario(tmp_path, body))
    assert r.ok, r.message
    bad = BASIC + "  - expect: {top: blue 2}\n"
    r = run_scenario(scenario(tmp_path, bad, "b.yaml"))
    assert not r.ok and "checkpoint script[1]: expect.top: expected blue 2, got red 5" in r.message


def test_unknown_keys_are_reported_with_location_and_a_hint(tmp_path):
    p = scenario(tmp_path, BASIC.replace("given:", "givn:") + "expect: {hand_size: {0: 2}}\n")
    code, out, err = run_cli("test", p)
    assert code == 1
    assert f"{p}:4:1: error[U0801]: unknown key `givn`" in out and "did you mean `given`?" in out
    assert "unknown key `expect.hand_size`" in out and "did you mean `hand_sizes`?" in out


def test_cards_that_the_deck_cannot_supply_are_reported(tmp_path):
    body = BASIC.replace("[red 5, blue 2, green 8]", "[red 0, red 0, purple 5, blu 2]")
    r = run_scenario(scenario(tmp_path, body))
    assert not r.ok
    assert "`red 0` is placed more often than the deck holds it (1)" in r.message
    assert "there is no card `purple 5` in the deck of `classic`" in r.message
    assert "there is no card `blu 2`" in r.message and "did you mean `blue 2`?" in r.message


def test_seats_out_of_range_are_reported(tmp_path):
    body = BASIC.replace("turn: 0", "turn: 7")
    r = run_scenario(scenario(tmp_path, body))
    assert not r.ok and "seat `7` is out of range: seats are 0 to 2" in r.message


CHANCE_BOOK = """\
rulebook coins
extends classic
card wild {
  on play:
    chance coin { heads { next draw 1 } tails { next draw 3 } }
    next perform dance chance 0.5 {} else { draw 2 }
    choose color
}
"""


def test_chance_and_perform_outcomes_are_fixed_by_the_script(tmp_path):
    write(tmp_path, "coins.uno", CHANCE_BOOK)
    body = """\
    name: chance
    rulebook: coins.uno
    players: 2
    given:
      hands: {0: [wild, red 1, red 2], 1: [green 3]}
      discard: [red 3]
      draw_pile: [blue 1, blue 2, blue 3, blue 4, blue 5, blue 6]
      turn: 0
    $D
    script:
      - {player: 0, play: wild}
      - {chance: tails}
      - {player: 1, perform: false}
      - {player: 0, choose: blue}
    expect:
      hand_sizes: {1: 6}
      color: blue
      events: [{type: chance, outcome: tails}, {type: perform, player: 1, success: false}]
    """
    r = run_scenario(scenario(tmp_path, body))
    assert r.ok, report(r)
    r = run_scenario(scenario(tmp_path, body.replace("chance: tails", "chance: edge"), "b.yaml"))
    assert not r.ok and "`edge` is not an outcome of this chance (outcomes: heads, tails)" in r.message


FLIP_LIKE = """\
rulebook two_sides
side light colors red blue
side dark colors pink teal
card 1..5 { number points card.rank }
card turn_over { action points 20 on play: flip }
deck side light { per color: 2 × 1..5, 2 × turn_over }
deck side dark { per color: 2 × 1..5, 2 × turn_over }
"""


def test_double_faced_cards_and_sides(tmp_path):
    write(tmp_path, "two_sides.uno", FLIP_LIKE)
    body = """\
    name: flip
    rulebook: two_sides.uno
    players: 2
    given:
      hands: {0: [red turn_over / teal 2, blue 1 / pink 1], 1: [red 3 / pink 5]}
      discard: [red 2 / teal 4]
      draw_pile: [blue 5 / teal 1]
      turn: 0
      side: light
    $D
    script:
      - {player: 0, play: red turn_over / teal 2}
    expect:
      side: dark
      top: red 2 / teal 4
      color: teal
      hands: {0: [pink 1], 1: [red 3 / pink 5]}
    """
    r = run_scenario(scenario(tmp_path, body))
    assert r.ok, report(r)
    bad = body.replace("[red 3 / pink 5]", "[red 3]").replace("hands: {0: [pink 1], 1: [red 3 / pink 5]}", "turn: 1")
    r = run_scenario(scenario(tmp_path, bad, "b.yaml"))
    assert not r.ok and "this rulebook's cards have 2 faces" in r.message


def test_cli_closing_line_json_and_exit_codes(tmp_path):
    good = scenario(tmp_path, BASIC + "expect: {turn: 1}\n", "good.yaml")
    scenario(tmp_path, BASIC + "expect: {turn: 2}\n", "bad.yaml")
    code, out, err = run_cli("test", good)
    assert code == 0 and out.strip().splitlines()[-1] == "1 passed, 0 failed"
    code, out, err = run_cli("test", tmp_path)
    assert code == 1 and out.strip().splitlines()[-1] == "1 passed, 1 failed"
    assert "FAIL  basic" in out and "expect.turn: expected 2, got 1" in out
    code, out, err = run_cli("test", "--json", tmp_path)
    data = json.loads(out)
    assert (data["passed"], data["failed"]) == (1, 1)
    assert {r["ok"] for r in data["results"]} == {True, False}


def test_a_file_may_hold_a_list_of_scenarios(tmp_path):
    one = textwrap.indent(BASIC.replace("$D", D) + "expect: {turn: 1}\n", "    ").replace("    name:", "  - name:", 1)
    p = write(tmp_path, "many.yaml", "scenarios:\n" + one)
    code, out, err = run_cli("test", p)
    assert code == 0 and "1 passed, 0 failed" in out


def test_every_seat_a_scenario_names_is_checked_against_its_players(tmp_path):
    """expect.front of seat 9 was an internal error, and seat -1 read as the last seat; a
    script's checkpoints and the lists of seats are checked the same way."""
    f = tmp_path / "seats.yaml"
    f.write_text("scenarios:\n"
                 "  - name: nine\n    rulebook: official\n    players: 3\n"
                 "    given: {hands: {0: [red 5], 1: [blue 3], 2: [green 2]}, discard: [red 1], front: {5: [red 2]}}\n"
                 "    expect: {front: {9: [red 5]}}\n"
                 "  - name: minus one\n    rulebook: official\n    players: 3\n"
                 "    given: {hands: {0: [red 5], 1: [blue 3], 2: [green 2]}, discard: [red 1]}\n"
                 "    script:\n      - expect: {front: {-1: []}, eliminated: [7], next_dealer: 4}\n")
    code, out, err = run_cli("test", f)
    text = out + err
    assert code == 1 and "internal error" not in text
    for said in ("`front`: seat `9` is out of range", "`front`: seat `5` is out of range",
                 "`script[0].expect.front`: seat `-1` is out of range",
                 "`script[0].expect.eliminated[0]`: seat `7`", "`script[0].expect.next_dealer`: seat `4`"):
        assert said in text, said


def test_validate_of_a_folder_skips_its_scenario_files(tmp_path):
    """A folder of cards and their scenarios gave a bogus error per scenario file (the shipped
    tests/scenarios/custom: "5 of 5 invalid"): they are skipped, and said to be."""
    import shutil
    from helpers import ROOT
    shutil.copy(ROOT / "rulebooks" / "custom" / "shield.uno", tmp_path)
    shutil.copy(ROOT / "tests" / "scenarios" / "custom" / "front_cards.yaml", tmp_path)
    write(tmp_path, "rules.yaml", "kind: module\nname: rules\nfor: classic\n")
    code, out, err = run_cli("validate", tmp_path)
    assert code == 0 and "shield.uno" in out and "rules.yaml" in out and "front_cards" not in out
    assert "1 YAML/JSON file" in err and "declares no rulebook" in err and "unorules test" in err
    code, out, err = run_cli("validate", ROOT / "tests" / "scenarios" / "custom")
    assert code == 2 and "no rulebook files" in err and "scenario files are run by `unorules test`" in err


def test_a_color_or_target_nothing_asks_for_is_refused_where_it_is_written(tmp_path):
    """`color:` with a play of a card that names no color was dropped without a word: it is
    U0801 at its line and column, and a color a wild's play does ask for still answers it."""
    base = ("name: {name}\nrulebook: official\nplayers: 3\n"
            "given: {{hands: {{0: [red 5, wild, blue 1], 1: [green 3, yellow 7], 2: [blue 9]}}, discard: [red 3],"
            " draw_pile: [red 9, green 1], turn: 0}}\n"
            "defaults: {{challenge: false, catch: false, jump_in: false, respond: false}}\n"
            "script:\n  - {{player: 0, play: {card}, {extra}}}\n  - {{player: 1, draw: true}}\n")
    bad = write(tmp_path, "bad.yaml", base.format(name="dropped", card="red 5", extra="color: blue"))
    code, out, err = run_cli("test", bad)
    assert code == 1 and "error[U0801]" in out and "bad.yaml:7:37" in out and "asks for no color" in out
    target = write(tmp_path, "target.yaml", base.format(name="no target", card="red 5", extra="target: 2"))
    code, out, err = run_cli("test", target)
    assert code == 1 and "error[U0801]" in out and "asks for no player" in out
    good = write(tmp_path, "good.yaml", base.format(name="asked", card="wild", extra="color: blue"))
    code, out, err = run_cli("test", good)
    assert code == 0, out
