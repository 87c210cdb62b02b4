"""Named triggers and reactions (`on ... as NAME`, `react ... as NAME`), removed or replaced by a
later file (`remove trigger NAME`, `replace reaction NAME ...`), and `on cut` (issue 29, item 5)."""
from __future__ import annotations

from helpers import codes_of, run_cli, write
from unorules.language.loader import load


def test_a_name_given_twice_is_refused_with_the_fix(tmp_path):
    p = write(tmp_path, "twice.uno", 'rulebook twice "x"\nextends classic\non play as bonus: draw 1\n'
                                     'on draw as bonus: draw 1\n')
    code, _, err = run_cli("validate", p)
    assert code == 1 and "U0202" in err and "a trigger named `bonus` is already given" in err
    assert "replace trigger bonus" in err and "twice.uno:4:" in err


def test_removing_a_name_nobody_gave_is_refused_with_a_suggestion(tmp_path):
    p = write(tmp_path, "gone.uno", 'rulebook gone "x"\nextends fast\nremove trigger bet\n')
    code, _, err = run_cli("validate", p)
    assert code == 1 and "U0204" in err and "there is no trigger named `bet` to remove" in err
    assert "bets" in err                                        # did you mean


def test_a_module_keeps_a_removal_for_the_rulebook_it_is_laid_on(tmp_path):
    m = write(tmp_path, "no_bets.uno", 'module no_bets "x"\nfor fast\nremove trigger bets\nremove trigger bets_paid\n')
    assert codes_of(m) == []
    rb = load("fast", with_=(m,))
    assert not any(t.get("name") in ("bets", "bets_paid") for t in rb.ir["triggers"])
    assert any(t.get("name") == "bets" for t in load("fast").ir["triggers"])


def test_a_replaced_trigger_keeps_its_event_and_place(tmp_path):
    m = write(tmp_path, "calm.uno", 'module calm "x"\nfor fast\nreplace trigger bets_paid if false: draw 1\n')
    before = [t.get("name") for t in load("fast").ir["triggers"]]
    after = load("fast", with_=(m,)).ir["triggers"]
    assert [t.get("name") for t in after] == before
    replaced = next(t for t in after if t.get("name") == "bets_paid")
    assert replaced["event"] == "round_start" and replaced["if"] == {"kind": "bool", "value": False}
    assert replaced["actions"][0]["kind"] == "draw"


def test_on_cut_needs_a_cut(tmp_path):
    p = write(tmp_path, "nocut.uno", 'rulebook nocut "x"\nextends classic\non cut: draw 1\n')
    code, _, err = run_cli("validate", p)
    assert code == 1 and "U0403" in err and "no cut" in err


import pytest  # noqa: E402


@pytest.mark.parametrize("where", ["on round_start: do outer", "on turn_start: do spin", "on round_end: do outer",
                                   "turn { draw with { do spin } }", "declare uno at 1 card: do spin"])
def test_an_attack_in_a_named_rule_done_where_no_card_is_in_play_is_refused(tmp_path, where):
    """U0403 caught an attack written in a trigger, never one in a named rule it did: that game
    then failed at run time (exit 3) for want of a card to attack with."""
    path = write(tmp_path, "spin.uno", "module spin \"s\"\nrule spin: attack next penalty 2 { draw penalty; lose turn }\n"
                 f"rule outer: do spin\n{where}\n")
    code, out, err = run_cli("simulate", "classic", "--with", path, "-n", "3")
    assert code == 1 and "U0403" in err and "makes an attack" in err and "internal error" not in err


def test_an_attack_in_a_named_rule_a_card_does_is_allowed(tmp_path):
    path = write(tmp_path, "spin.uno", "module spin \"s\"\nrule spin: attack next penalty 2 { draw penalty; lose turn }\n"
                 "card spinner { action  points 20\n  on play: do spin }\ndeck { per color: 2 × spinner }\n")
    code, out, err = run_cli("simulate", "classic", "--with", path, "-n", "3")
    assert code == 0, err
