"""Nothing validates that the engine does not run as explained: values it could not honour and
constructs it does not run are refused with a located error (issue 12, section 1)."""
from __future__ import annotations

import pytest

from helpers import DATA, codes_of, run_cli, write
from unorules.errors import RulebookError
from unorules.language.loader import load


def diagnostics(tmp_path, text, name="house.uno"):
    p = write(tmp_path, name, text)
    try:
        load(p)
    except RulebookError as e:
        return e.diagnostics
    return []


CARD = "rulebook house\nextends classic\ncard wild_customizable {{\n  wild\n  points 40\n  on play: {}\n}}\n" \
       "deck {{ 2 × wild_customizable }}\n"


@pytest.mark.parametrize("rule, message", [
    ("next draw -2", "cannot draw -2 cards"),
    ("next draw 2 - 5", "cannot draw -3 cards"),
    ("next draw 4 / 0", "divides by zero"),
    ("next draw me.hand.size % (2 - 2)", "divides by zero"),
    ("give -1 cards to next", "cannot give -1 cards"),
    ("next perform dance chance 1.5 {} else { draw 2 }", "between 0 and 1"),
    ("next perform dance chance -0.5 {}", "between 0 and 1"),
    ("chance coin { heads weight -1 { draw 1 } tails { draw 2 } }", "weight must not be negative"),
    ("each other attack next { draw 2 }", "takes no subject"),
])
def test_values_the_engine_cannot_honour_are_refused_where_they_stand(tmp_path, rule, message):
    found = diagnostics(tmp_path, CARD.format(rule))
    assert [d.code for d in found] in (["U0303"], ["U0403"]), found
    d = found[0]
    assert message in d.message
    assert d.file.endswith("house.uno") and d.span.line == 6


def test_a_chance_option_is_checked_against_0_to_1(tmp_path):
    text = "rulebook house\nextends classic\noption luck = 3\ncard wild_customizable {\n  wild\n  points 40\n" \
           "  on play: next perform dance chance luck {} else { draw 2 }\n}\ndeck { 2 × wild_customizable }\n"
    found = diagnostics(tmp_path, text)
    assert [d.code for d in found] == ["U0303"] and found[0].span.line == 3 and "`luck` is a chance" in found[0].message


def test_players_below_two_are_refused(tmp_path):
    found = diagnostics(tmp_path, "rulebook house\nextends classic\nplayers 1..4\n")
    assert [d.code for d in found] == ["U0401"] and "at least 2" in found[0].message and found[0].span.line == 3


def test_play_to_the_last_is_accepted_now_that_rounds_go_on(tmp_path):
    assert diagnostics(tmp_path, "rulebook house\nextends classic\nscoring {\n  play to the last\n}\n") == []


@pytest.mark.parametrize("text, code, words, line", [
    ("players 3..3\nteams of 2 partners opposite\n", "U0403", "no player count from 3 to 3", 4),
    ("piles left right\nturn { play same face together }\n", "U0404", "not supported with several piles", 4),
    ("rule a: do b\nrule b: do a\n", "U0701", "does itself", 3),
    ("on play: do nothing_here\n", "U0201", "no rule named `nothing_here`", 3),
    ("on play: flip pile sideways\n", "U0201", "turns `whole` or `top`", 3),
    ('option how = "upside"\non play: flip pile how\n', "U0303", "must be \"whole\" or \"top\"", 4),
    ("piles left left\n", "U0202", "pile `left` is named twice", 3),
])
def test_table_constructs_the_engine_cannot_play_are_refused(tmp_path, text, code, words, line):
    found = diagnostics(tmp_path, "rulebook house\nextends classic\n" + text)
    assert code in [d.code for d in found], found
    d = next(d for d in found if d.code == code)
    assert words in d.message and d.span.line == line and d.file.endswith("house.uno")


def test_a_loop_name_may_not_hide_another_name(tmp_path):
    found = diagnostics(tmp_path, CARD.format("each other as next draw 1"))
    assert [d.code for d in found] == ["U0202"] and "`next` already has a meaning" in found[0].message


def test_a_loop_name_may_not_hide_a_counter(tmp_path):
    text = CARD.format("each other as table draw 1").replace("extends classic\n", "extends classic\ncounter table\n")
    found = diagnostics(tmp_path, text)
    assert [d.code for d in found] == ["U0202"] and "`table` already has a meaning" in found[0].message


def test_a_loop_name_holds_only_inside_its_action(tmp_path):
    found = diagnostics(tmp_path, CARD.format("each other as p draw 1; p draw 1"))
    assert [d.code for d in found] == ["U0201"] and "`p`" in found[0].message


def test_shipped_rulebooks_still_validate():
    from unorules.language.loader import shipped_names
    for name in shipped_names():
        assert codes_of(name) == [], name


# ---- options of the wrong type or range -----------------------------------------------------------

@pytest.mark.parametrize("value, message", [
    ("abc", "takes a number"), ("1.5", "between 0 and 1"), ("true", "takes a number"), ("-1", "between 0 and 1")])
def test_an_option_of_the_wrong_type_or_range_is_a_usage_error(value, message):
    code, out, err = run_cli("simulate", "bts", "-n", "3", "--option", f"dance_chance={value}")
    assert code == 2 and message in err


def test_a_scenario_option_of_the_wrong_type_is_reported_at_its_key(tmp_path):
    p = write(tmp_path, "opt.yaml", "name: x\nrulebook: bts\nplayers: 2\noptions: {dance_chance: lots}\n"
                                    "given: {hands: {0: [red 1], 1: [red 2]}, discard: [red 3], turn: 0}\n")
    from unorules.testing import run_scenarios
    results = run_scenarios([p])
    assert not results[0].ok and "takes a number" in results[0].message and "opt.yaml:4" in results[0].message


def test_a_scenario_option_changes_the_rules(tmp_path):
    p = write(tmp_path, "opt.yaml", """\
name: a dance that always fails
rulebook: bts
players: 2
options: {dance_chance: 0.0}
given:
  hands: {0: [wild_dance, red 1], 1: [red 2]}
  discard: [red 3]
  draw_pile: [blue 1, blue 2, blue 3, blue 4]
  turn: 0
defaults: {catch: false}
script:
  - {player: 0, play: wild_dance, color: red}
""")
    from unorules.testing import run_scenarios
    results = run_scenarios([p])
    assert results[0].ok, results[0].message
    d = results[0].state.decision            # the dance is asked with the scenario's odds
    assert d.kind == "perform" and d.probs == [0.0, 1.0]


def test_explain_says_what_a_block_with_a_subject_does():
    from unorules.language.explain.rulebook import explain
    text = explain(load(DATA / "loops.uno"))
    assert "for every other player: if the number of cards in your hand is more than 1, they draw 1 card" in text
    assert "every other player (those for whom the number of cards in that player's hand is more than 3) draws as " \
           "many cards as the number of cards in that player's hand minus 3" in text
    assert "the player after the next player loses their next turn" in text
    assert "At the start of every round (you are the dealer): the dealer scores 7 points." in text
    assert "At the end of every round (you are its winner): you score 3 points." in text


def test_fixed_rounds_ends_the_match_after_its_rounds_and_a_module_removes_an_inherited_setting():
    from unorules import simulate
    for option, rounds in ((None, 5), (3, 3)):
        d = simulate("fixed_rounds", games=10, players=4, rounds="match",
                     options={"match_rounds": option} if option else None)
        assert d["rounds_per_game"] == rounds and d["outcomes"] == {"win": 10}
    assert "target" not in load("classic", include=("fixed_rounds",)).ir["scoring"]
    assert load("classic").ir["scoring"]["target"]                 # the base keeps its own


def test_a_module_cannot_remove_what_the_rulebook_it_is_laid_over_lacks(tmp_path):
    write(tmp_path, "drop.uno", "module drop\nremove scoring rounds\n")
    p = write(tmp_path, "house.uno", "rulebook house\nextends classic\ninclude drop\n")
    found = diagnostics(tmp_path, p.read_text())
    assert [d.code for d in found] == ["U0204"] and "no `scoring rounds` to remove" in found[0].message
