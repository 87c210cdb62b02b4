"""What validates runs as written: constructs that used to validate and run otherwise are refused
(fractional counts, a text a choice cannot take, a card no deck holds in a module, a range in a
trigger), a module's `remove card` applies to the rulebook it is laid on, and the warnings tier
(validate --strict, --format json, simulate printing them once)."""
from __future__ import annotations

import json

import pytest

from helpers import codes_of, run_cli, write
from unorules.language.explain.rulebook import explain
from unorules.language.loader import load


def house(tmp_path, body, name="house.uno", head="rulebook house\nextends classic\n"):
    return write(tmp_path, name, head + body + "\n")


# -- counts are whole numbers ---------------------------------------------------------------------

@pytest.mark.parametrize("count", ["2.7", "1.5", "5 * 0.5", "me.hand.size + 0.5"])
def test_a_count_that_can_be_a_fraction_is_refused(tmp_path, count):
    p = house(tmp_path, f"card skip {{ action points 20 on play: draw {count} }}")
    assert codes_of(p) == ["U0303"]


@pytest.mark.parametrize("body", ["attack next penalty 1.5 { draw penalty }", "give 0.5 card to next"])
def test_a_penalty_or_a_gift_that_can_be_a_fraction_is_refused(tmp_path, body):
    assert codes_of(house(tmp_path, f"card skip {{ action points 20 on play: {body} }}")) == ["U0303"]


def test_a_division_of_whole_numbers_rounds_down_and_explain_says_so(tmp_path):
    p = house(tmp_path, "card skip { action points 20 on play: draw me.hand.size / 2 }")
    assert codes_of(p) == []
    assert "as many cards as the number of cards in your hand divided by 2 (rounded down)" in explain(load(p), "skip")


def test_an_option_declared_whole_stays_whole():
    from unorules.language.checker import option_problem
    assert option_problem("deal", 2.5, 7, False) is not None
    assert option_problem("deal", 3.0, 7, False) is None


# -- texts a choice cannot take -----------------------------------------------------------------

def test_a_choice_compared_with_a_text_it_cannot_take_is_refused(tmp_path):
    p = house(tmp_path, 'card skip { action points 20 on play: choose one of low, high as level; '
                        'if level == "hihg" { draw 1 } else { draw 2 } }')
    code, out, err = run_cli("validate", p)
    assert code == 1 and "U0303" in err and "did you mean `high`?" in err
    ok = house(tmp_path, 'card skip { action points 20 on play: choose one of low, high as level; '
                         'if level == "high" { draw 1 } else { draw 2 } }', name="ok.uno")
    assert codes_of(ok) == []


# -- cards no deck holds, and removing cards from a module ------------------------------------------

def test_a_misspelt_card_in_a_module_is_an_error_with_did_you_mean(tmp_path):
    p = write(tmp_path, "typo.uno", "module typo\nfor official\ncard wild_customisable { on play: choose color; "
                                    "each other draw 1 }\n")
    code, out, err = run_cli("validate", p)
    assert code == 1 and "U0505" in err and "did you mean `wild_customizable`?" in err
    code, out, err = run_cli("simulate", "official", "--with", p, "--games", "5")
    assert code == 1 and "U0505" in err


def test_a_card_no_deck_holds_is_a_warning_in_a_rulebook(tmp_path):
    p = house(tmp_path, "card lonely { wild points 5 on play: choose color }")
    rb = load(p)
    assert [w.code for w in rb.warnings] == ["W0107"]


def test_a_module_removes_a_card_of_the_rulebook_it_is_laid_on(tmp_path):
    p = write(tmp_path, "blanks.uno", "module blanks\nfor official\nremove card wild_customizable\n")
    rb = load(p)
    assert "wild_customizable" not in {c["names"][0] for c in rb.ir["cards"]}
    assert sum(1 for c in rb.ir["cards"]) == len(load("official").ir["cards"]) - 1
    rb = load("official", with_=(p,))
    assert "wild_customizable" not in {c["names"][0] for c in rb.ir["cards"]}
    other = write(tmp_path, "none.uno", "module none\nfor classic\nremove card wild_customizable\n")
    assert codes_of(other) == ["U0204"]        # classic has no such card: still refused


def test_a_range_in_a_trigger_is_refused_in_words(tmp_path):
    p = house(tmp_path, "on play of 0..9: draw 1")
    code, out, err = run_cli("validate", p)
    assert code == 1 and "U0404" in err and "a trigger is for one card kind, and `0..9` names 10" in err
    assert "(0, 9" not in err


# -- warnings ---------------------------------------------------------------------------------

WARNED = {
    "W0101": "counter unused",
    "W0102": "option never = 3",
    "W0103": "rule spare: draw 1",
    "W0104": "on play of zap: draw 1\ncard zap { action points 5 }",
    "W0105": "card skip { action points 20 playable when 1 > 2 }",
    "W0106": 'card skip { action points 20 on play: choose one of low, high as level; if level == "low" { draw 1 } }',
    "W0107": "card lonely { wild points 5 }",
    "W0108": "card wild_blank { wild points 50 on play: next draw 1 }\ndeck { 1 × wild_blank }",
}


@pytest.mark.parametrize("code", sorted(WARNED))
def test_each_warning(tmp_path, code):
    rb = load(house(tmp_path, WARNED[code]))
    assert code in [w.code for w in rb.warnings]
    assert all(w.severity == "warning" and w.span is not None for w in rb.warnings)


def test_a_wild_that_names_no_color_is_warned_and_explained_as_keeping_the_color(tmp_path):
    """A blank wild whose new rule names no color named none, silently: W0108, and `explain`
    says the color stays; one that does name it (here through a rule it does) is not warned."""
    from unorules.language.explain.rulebook import explain
    rb = load(house(tmp_path, WARNED["W0108"]))
    assert [w.code for w in rb.warnings] == ["W0108"]
    assert "It names no color: the current color stays as it was." in explain(rb, "wild_blank")
    fine = load(house(tmp_path, "rule paint: choose color\ncard wild_blank { wild points 50 on play: do paint }\n"
                                "deck { 1 × wild_blank }"))
    assert fine.warnings == [] and "names no color" not in explain(fine, "wild_blank")


def test_warnings_are_printed_and_strict_makes_them_errors(tmp_path):
    p = house(tmp_path, WARNED["W0101"])
    code, out, err = run_cli("validate", p)
    assert code == 0 and "warning[W0101]" in err and "1 warning" in out + err
    code, out, err = run_cli("validate", "--strict", p)
    assert code == 1 and "warning[W0101]" in err
    code, out, err = run_cli("validate", "--format", "json", p)
    d = json.loads(out)
    assert code == 0 and d["results"][0]["diagnostics"][0]["code"] == "W0101"
    assert d["results"][0]["diagnostics"][0]["severity"] == "warning"


def test_simulate_prints_the_warnings_once(tmp_path):
    p = house(tmp_path, WARNED["W0101"])
    code, out, err = run_cli("simulate", p, "--games", "4", "--workers", "1")
    assert code == 0 and err.count("warning[W0101]") == 1


def test_every_shipped_file_validates_without_a_warning():
    code, out, err = run_cli("validate", "--strict", "rulebooks")
    assert code == 0, err
    assert "warning" not in err


def test_explain_says_what_skip_two_does_with_two_players():
    for rb, card in ((load("all_wild"), "wild_skip_two"), (load("official", with_=("skip_two",)), "wild_customizable")):
        assert "With two players, the player after the next player" in explain(rb, card)
    assert "With two players" not in explain(load("classic"), "skip")


@pytest.mark.parametrize("defaults, message", [
    ("{any_time: true}", "`defaults.any_time` can only be false"),
    ("{play_more: maybe}", "`defaults.play_more` can only be false"),
    ("{choose: red}", "`defaults.choose` answers no decision"),
    ("{challenge: 3}", "`defaults.challenge` can only be true or false"),
])
def test_a_default_no_decision_can_take_is_refused(tmp_path, defaults, message):
    p = write(tmp_path, "s.yaml", f"name: s\nrulebook: classic\nplayers: 2\ndefaults: {defaults}\nscript: []\n"
                                  "expect: {turn: 0}\n")
    code, out, err = run_cli("test", p)
    assert code == 1 and "U0801" in out + err and message in out + err


def test_a_value_kept_for_the_round_starts_every_round_at_zero(tmp_path):
    """`reset each round` across rounds of a match (the scenarios pin the other lifetimes across
    skipped turns, reversals and players out: tests/scenarios/language/lifetimes.yaml)."""
    import random
    import unorules
    from helpers import DATA
    (tmp_path / "lifetimes.uno").write_text((DATA / "lifetimes.uno").read_text())
    p = write(tmp_path, "rounds.uno", "rulebook rounds\nextends lifetimes\nremove card mark_out\n")
    game = unorules.Game(str(p), 3, rounds="match")
    rounds_seen = 0
    for seed in range(6):
        s = game.new_state(seed)
        rng = random.Random(seed)
        current, was_set = s.round, False
        while not s.terminal:
            d = s.decision
            s.apply_action(rng.choices(d.options, d.probs)[0] if d.probs else rng.choice(d.options))
            if s.round != current:
                assert s.memory["this_round"] == [0, 0, 0]
                rounds_seen += was_set
                current = s.round
            was_set = was_set or any(s.memory["this_round"])
            if s.round == current and any(s.memory["this_round"]):
                was_set = True
    assert rounds_seen > 0          # some round ended with a value set, and the next began at zero


def test_a_scenario_that_starts_at_a_turn_no_round_could_reach_is_refused(tmp_path):
    p = write(tmp_path, "s.yaml", "name: s\nrulebook: classic\nplayers: 3\ngiven:\n"
                                  "  hands: {0: [red 1, red 2], 1: [], 2: [blue 9]}\n  discard: [red 3]\n"
                                  "  draw_pile: [yellow 1]\n  turn: 1\nscript: [{player: 1, draw: true}]\nexpect: {turn: 2}\n")
    code, out, err = run_cli("test", p)
    assert code == 1 and "U0801" in out + err and "seat 1 holds no card" in out + err


MULTI = """module multi "three blank cards with a rule, and a base card redeclared as it was"
for official
card wild_customizable, wild_snoop, wild_red_lock {
  wild
  points 50
  on play: choose color; next draw 1
}
card 0 { number points card.rank }
deck {
  1 × wild_snoop
  1 × wild_red_lock
}
"""


def test_compare_tracks_every_card_a_file_adds_or_changes_and_no_other(tmp_path):
    from unorules.runs.simulation import RunSpec, changed_cards
    p = write(tmp_path, "multi.uno", MULTI)
    assert changed_cards(RunSpec("official"), RunSpec("official", with_=(str(p),))) == \
        ["wild_customizable", "wild_snoop", "wild_red_lock"]
    code, out, err = run_cli("compare", "official", "--with", p, "--games", "20", "--workers", "1", "--json")
    d = json.loads(out)
    assert code == 0 and d["cards"] == ["wild_customizable", "wild_snoop", "wild_red_lock"]
    names = [f["figure"] for f in d["comparison"]["figures"]]
    assert "win rate of who plays any of `wild_customizable`, `wild_snoop` or `wild_red_lock`" in names
