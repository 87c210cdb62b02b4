"""`replace N × KIND with NAME` (issue 29, item 9): copies of one kind become a new card, the box
keeps its size, the base rulebook is left as it was; and `new card --replace` writes that form."""
from __future__ import annotations

from collections import Counter

from helpers import run_cli, write
from unorules.engine.compiler import compile_rulebook
from unorules.language.loader import load


def _box(rb):
    rules = compile_rulebook(rb)
    return Counter(rules.kinds[rules.faces[f][1]].name for f in rules.deck[0])


def test_three_blanks_keep_the_box_at_its_size_with_one_copy_each():
    official, blanks = _box(load("official")), _box(load("official", with_=("three_blanks",)))
    assert sum(official.values()) == sum(blanks.values()) == 112
    assert official["wild_customizable"] == 3 and blanks["wild_customizable"] == 0
    assert blanks["blank_skip_two"] == blanks["blank_everyone_draws"] == blanks["blank_swap"] == 1
    assert _box(load("official")) == official            # the base (and its cached IR) is unchanged
    names = [c["names"][0] for c in load("official", with_=("three_blanks",)).ir["cards"]]
    assert "wild_customizable" not in names and "blank_swap" in names    # the module's `remove card` applies


def test_replacing_more_copies_than_the_box_holds_is_refused(tmp_path):
    p = write(tmp_path, "many.uno", 'module many "x"\nfor official\ncard zap { wild; points 1 }\n'
                                    'replace 4 × wild_customizable with zap\n')
    code, _, err = run_cli("validate", "official", "--with", p)
    assert code == 1 and "U0303" in err and "the box holds 3 × wild_customizable, not 4" in err


def test_a_kind_dealt_per_color_is_refused(tmp_path):
    p = write(tmp_path, "col.uno", 'module col "x"\nfor official\ncard zap { wild; points 1 }\nreplace 1 × skip with zap\n')
    code, _, err = run_cli("validate", "official", "--with", p)
    assert code == 1 and "U0403" in err and "`skip` is dealt per color" in err


def test_a_kind_not_in_the_box_is_refused_with_a_suggestion(tmp_path):
    p = write(tmp_path, "typo.uno", 'rulebook typo "x"\nextends official\ncard zap { wild; points 1 }\n'
                                    'replace 1 × wild_customisable with zap\n')
    code, _, err = run_cli("validate", p)
    assert code == 1 and "U0204" in err and "wild_customizable" in err


def test_new_card_replace_writes_a_file_that_keeps_the_box(tmp_path):
    out = tmp_path / "blank_one.uno"
    code, _, err = run_cli("new", "card", "blank_one", "--replace", "wild_customizable", "-o", out)
    assert code == 0, err
    assert "replace 1 × wild_customizable with blank_one" in out.read_text()
    box = _box(load("official", with_=(out,)))
    assert sum(box.values()) == 112 and box["blank_one"] == 1 and box["wild_customizable"] == 2
    code, _, err = run_cli("new", "card", "zap", "--replace", "nope", "--stdout")
    assert code == 2 and "has no card `nope`" in err
