"""Diagnostics: every error code has a failing example (and its fix validates); the full rendered
message of a representative set; hostile input ends in a clear error, never a traceback or a hang."""
from __future__ import annotations

import pytest

from unorules.errors import CODES

from helpers import codes_of, run_cli, write

BASE = "rulebook t\ncolors red blue\ncard 1..9 { number points card.rank }\ncard w { wild points 50 on play: choose color }\n" \
       "deck { per color: 2 × 1..9\n 4 × w }\n"

# code -> (failing text appended to BASE, the fixed text). Whole files where BASE does not fit.
CASES = {
    "U0101": (BASE + "card x { points }\n", BASE + "card x { wild points 1 }\n"),
    "U0102": (BASE + "card x { wild\n", BASE + "card x { wild }\n"),
    "U0201": (BASE + "card x { wild on play: draw bonus }\n", BASE + "option bonus = 1\ncard x { wild on play: draw bonus }\n"),
    "U0202": (BASE.replace("colors red blue", "colors red blue red"), BASE),
    "U0203": (BASE + "card x { wild on play: set color bleu }\n", BASE + "card x { wild on play: set color blue }\n"),
    "U0204": (BASE + "deck { 2 × wilde }\n", BASE + "deck { 2 × w }\n"),
    "U0205": (BASE + "on plays: reverse\n", BASE + "on play: reverse\n"),
    "U0206": (BASE + "include no_such_module\n", BASE),
    "U0207": (BASE + "card x { wild on play: chosen lose turn }\n",
              BASE + "card x { wild on play: choose player; chosen lose turn }\n"),
    "U0301": (BASE + "card x { wild on play: draw me.hand }\n", BASE + "card x { wild on play: draw me.hand.size }\n"),
    "U0302": (BASE + "card x { wild on play: draw me.hand.length }\n", BASE + "card x { wild on play: draw me.hand.size }\n"),
    "U0402": (BASE + "setup { hand 5 hand 6 }\n", BASE + "setup { hand 5 }\n"),
    "U0403": (BASE + "card x { wild on play: add 2 }\n", BASE + "card x { wild on play: draw 2 }\n"),
    "U0501": (BASE + "setup { hand 30 }\n", BASE + "setup { hand 7 }\n"),
    "U0502": (BASE + "deck { 2 × 5 }\n", BASE + "deck { per color: 2 × 5 }\n"),
    "U0503": (BASE + "card 12..10 { number }\n", BASE + "card 10..12 { number }\n"),
    "U0504": (BASE + "deck { per color: 1000 × 1..9 }\n", BASE + "deck { per color: 10 × 1..9 }\n"),
    "U0701": (BASE + "rule press: draw 1; do press\n", BASE + "rule press: draw 1\n"),
    "U0702": (BASE + "react to w with w: add 1\nreact to w with w: add 2\n", BASE + "react to w with w: add 1\n"),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_error_code_fails_and_its_fix_validates(tmp_path, code):
    bad, good = CASES[code]
    assert code in codes_of(write(tmp_path, "bad.uno", bad))
    assert codes_of(write(tmp_path, "good.uno", good)) == []


def test_file_level_codes(tmp_path):
    assert codes_of(tmp_path / "missing.uno") == ["U0001"]
    assert codes_of(write(tmp_path, "b.uno", b"rulebook t\0\0", "wb")) == ["U0002"]
    assert codes_of(write(tmp_path, "c.uno", b"rulebook t \xff\xfe", "wb")) == ["U0002"]
    assert codes_of(write(tmp_path, "d.uno", "rulebook t\n#" + "x" * 30000)) == ["U0003"]
    assert codes_of(write(tmp_path, "e.txt", "rulebook t")) == ["U0004"]
    assert codes_of(write(tmp_path, "f.yaml", "kind: [unclosed")) == ["U0103"]
    assert codes_of(write(tmp_path, "g.yaml", "kind: !!python/object/apply:os.system ['echo hi']")) == ["U0104"]
    assert codes_of(write(tmp_path, "h.yaml", "kind: rulebook\nname: 5\n")) == ["U0401"]


def test_extends_cycles_and_kinds(tmp_path):
    write(tmp_path, "a.uno", "rulebook a\nextends b\n")
    write(tmp_path, "b.uno", "rulebook b\nextends a\n")
    assert "U0601" in codes_of(tmp_path / "a.uno")
    write(tmp_path, "m.uno", "module m\n")
    write(tmp_path, "c.uno", BASE.replace("rulebook t", "rulebook c") + "extends m\n")
    assert "U0602" in codes_of(tmp_path / "c.uno")
    write(tmp_path, "d.uno", BASE.replace("rulebook t", "rulebook d") + "include m\n")
    assert codes_of(tmp_path / "d.uno") == []


def test_every_code_is_documented_and_explained():
    code, out, err = run_cli("errors")
    assert code == 0 and all(c in out for c in CODES)
    code, out, err = run_cli("errors", "U0203")
    assert code == 0 and out.startswith("U0203: unknown color")
    code, out, err = run_cli("errors", "U9999")
    assert code == 2


def rendered(tmp_path, text, name="house.uno"):
    p = write(tmp_path, name, text)
    code, out, err = run_cli("validate", p)
    assert code == 1
    return err.replace(str(p), name)


def test_rendered_unknown_color(tmp_path):
    err = rendered(tmp_path, BASE + "card x { wild\n  on play: set color bleu }\n")
    assert err == (
        "house.uno:8:22: error[U0203]: unknown color `bleu`\n"
        "  |\n"
        "8 |   on play: set color bleu }\n"
        "  |                      ^^^^ not a color\n"
        "   = help: did you mean `blue`?\n"
        "\n"
        "1 of 1 invalid, 1 error\n")


def test_rendered_syntax_error_says_what_was_expected(tmp_path):
    err = rendered(tmp_path, "rulebook t\ncard skip {\n  on play: next lose\n}\n")
    assert err.startswith(
        "house.uno:4:1: error[U0101]: unexpected `}`\n"
        "  |\n"
        "4 | }\n"
        "  | ^ not expected here\n"
        "   = help: expected `turn`\n")


def test_rendered_missing_brace(tmp_path):
    err = rendered(tmp_path, "rulebook t\ncard skip {\n  points 20\n")
    assert err.startswith(
        "house.uno:2:11: error[U0102]: unclosed `{` opened at 2:11\n"
        "  |\n"
        "2 | card skip {\n"
        "  |           ^ this `{` is never closed\n"
        "   = note: the file ends at 3:12 inside this block\n"
        "   = help: add its `}` where the block ends\n")


def test_rendered_deck_too_small(tmp_path):
    err = rendered(tmp_path, BASE + "setup { hand 30 }\n")
    assert "error[U0501]: the deck has 40 cards: too few to deal 30 to 2 players and turn one up" in err
    assert "= help: it needs at least 61 cards" in err


def test_all_errors_of_a_file_are_reported_sorted(tmp_path):
    err = rendered(tmp_path, BASE + "card x { wild on play: set color bleu\n draw me.hand\n chosen lose turn }\n"
                              "deck { 2 × wilde }\n")
    lines = [l for l in err.splitlines() if "error[" in l]
    assert [l.split("error[")[1][:5] for l in lines] == ["U0203", "U0301", "U0207", "U0204"]
    assert err.rstrip().endswith("1 of 1 invalid, 4 errors")


def test_errors_in_an_included_module_point_into_the_module(tmp_path):
    write(tmp_path, "mod.uno", "module mod\non play of 7: swap hands with chosen\n")
    err = rendered(tmp_path, BASE + "include mod\n")
    assert "/mod.uno:2:31: error[U0207]: `chosen` has no value here" in err


# ---- hostile input -------------------------------------------------------------------------------

HOSTILE = {
    "empty.uno": b"",
    "empty.yaml": b"",
    "binary.uno": bytes(range(256)) * 4,
    "latin1.uno": "rulebook café".encode("latin-1"),
    "longline.uno": b"rulebook t\n" + b"#" * 1_100_000,
    "nested.uno": b"rulebook t\ncard c { wild on play: " + b"if true { " * 5000 + b"}" * 5000 + b" }",
    "nested_expr.uno": b"rulebook t\ncard c { points " + b"(" * 5000 + b"1" + b")" * 5000 + b" }",
    "tag.yaml": b"!!python/object/new:os.system [echo pwned]",
    "bomb.yaml": b"a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                 b"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
    "list.yaml": b"- kind: rulebook\n- name: x\n",
    "list.json": b"[1, 2, 3]",
    "types.json": b'{"kind": "rulebook", "name": "x", "players": {"min": "two", "max": 4}, "cards": {}}',
    "deep.json": b"[" * 10000 + b"]" * 10000,
    "scalar.yaml": b"just text",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_files_end_in_a_clear_error(tmp_path, name):
    p = write(tmp_path, name, HOSTILE[name], "wb")
    code, out, err = run_cli("validate", p)
    assert code == 1
    assert "Traceback" not in out + err and "internal error" not in err
    assert "error[U0" in err


def test_a_yaml_tag_is_refused_before_anything_runs(tmp_path):
    marker = tmp_path / "pwned"
    p = write(tmp_path, "x.yaml", f"kind: !!python/object/apply:os.system ['touch {marker}']\n")
    code, out, err = run_cli("validate", p)
    assert code == 1 and "U0104" in err and not marker.exists()


def test_missing_paths_and_usage_errors():
    code, out, err = run_cli("validate", "no/such/file.uno")
    assert code == 1 and "no such file" in err
    code, out, err = run_cli("validate", "nosuchbook")
    assert code == 1 and "no rulebook named `nosuchbook`" in err
    code, out, err = run_cli("validate")
    assert code == 2
    code, out, err = run_cli("simulate", "classic", "--games", "0")
    assert code == 2


def test_the_language_reference_documents_every_code_and_action():
    from unorules.language.parser import grammar_text
    from unorules.language.resources import docs_file
    text = docs_file().read_text()
    for code in CODES:
        assert f"### {code}" in text, code
    import re
    aliases = set(re.findall(r"->\s*([a-z_]+)", grammar_text()))
    documented = {"draw", "lose turn", "play again", "reverse", "choose color", "set color", "cycle color",
                  "swap hands", "pass hands", "shuffle hands", "flip", "give", "exchange card", "discard all", "score",
                  "eliminate", "swap seats", "reveal", "redraw", "attack", "add", "pass attack", "cancel attack",
                  "take back card", "chance", "perform", "react to", "declare", "jump in", "option", "remove card"}
    for word in documented:
        assert f"`{word}" in text, word
    assert len(aliases) > 80


def test_every_keyword_of_the_grammar_is_in_the_language_reference():
    import re
    from unorules.language.parser import grammar_text
    from unorules.language.resources import docs_file
    text = docs_file().read_text()
    keywords = set(re.findall(r'"([a-z_]+)"', grammar_text())) - {"x"}
    missing = sorted(k for k in keywords if not re.search(rf"\b{k}\b", text))
    assert missing == []


def test_a_file_with_twelve_different_errors_reports_all_twelve():
    from helpers import DATA
    from unorules.errors import RulebookError
    from unorules.language.loader import load
    with pytest.raises(RulebookError) as e:
        load(DATA / "twelve_errors.uno")
    found = [(d.code, d.span.line) for d in e.value.diagnostics]
    assert found == [("U0503", 5), ("U0301", 8), ("U0203", 9), ("U0202", 11), ("U0303", 15), ("U0302", 16),
                     ("U0201", 17), ("U0402", 21), ("U0204", 24), ("U0701", 25), ("U0301", 26), ("U0204", 27)]
    assert len(str(e.value).splitlines()) == 12          # str() carries every diagnostic


def test_a_missing_brace_says_where_its_block_opened(tmp_path):
    from helpers import write
    p = write(tmp_path, "open.uno", "rulebook x\nextends classic\ncard a {\n  wild\n  on play: if true { draw 1 }\n"
                                    "  # a { in a comment\n")
    code, out, err = run_cli("validate", p)
    assert code == 1 and "open.uno:3:8: error[U0102]: unclosed `{` opened at 3:8" in err
    assert "the file ends at 6:" in err


def test_a_bad_key_does_not_hide_bad_cards_in_a_scenario(tmp_path):
    from helpers import write
    p = write(tmp_path, "k.yaml", "name: x\nrulebook: classic\nplayers: 2\n"
                                  "given: {hands: {0: [red 1, purple 9]}, discard: [red 2], tunr: 0}\n"
                                  "expect: {hand_size: {0: 1}}\n")
    code, out, err = run_cli("test", p)
    assert code == 1
    assert "no card `purple 9`" in out and "unknown key `given.tunr`" in out and "unknown key `expect.hand_size`" in out


def _int_paths(node, path=()):
    """Every path to a whole number in an IR, deepest first."""
    if isinstance(node, dict):
        items = node.items()
    elif isinstance(node, list):
        items = enumerate(node)
    else:
        return []
    out = []
    for k, v in items:
        if isinstance(v, int) and not isinstance(v, bool):
            out.append(path + (k,))
        out += _int_paths(v, path + (k,))
    return sorted(out, key=len, reverse=True)


def _get(ir, path):
    for k in path:
        ir = ir[k]
    return ir


def _set(ir, path, value):
    for k in path[:-1]:
        ir = ir[k]
    ir[path[-1]] = value


def test_validation_remembers_what_passed_and_never_what_failed(monkeypatch):
    """The schema walks a node that passed once only once: a second look at the same rulebook
    walks no definition, one with a single number changed walks a few; and a node that equals
    one that passed under `==` but not in type (2.0, True for 2) is still refused, with the very
    errors a fresh validator gives."""
    import copy
    from unorules.language import schema
    from unorules.language.loader import load
    from unorules.language.spans import Spans

    walks, real = [], schema._REF

    def counted(*args):
        walks.append(1)
        yield from real(*args)

    monkeypatch.setattr(schema, "_REF", counted)
    ir = copy.deepcopy(load("official").ir)

    def errors(node):
        walks.clear()
        found = [(d.message, d.help) for d in schema.schema_diagnostics(node, Spans(), "x")]
        return found, len(walks)

    schema._PASSED.clear()
    found, fresh = errors(ir)
    assert found == [] and fresh > 100
    assert errors(ir) == ([], 0)

    def refused_as_float(path):      # a whole number the schema wants whole, and 1 more is fine
        value = _get(ir, path)
        _set(ir, path, float(value))
        refused = bool(schema.schema_diagnostics(ir, Spans(), "x"))
        _set(ir, path, value + 1)
        refused = refused and not schema.schema_diagnostics(ir, Spans(), "x")
        _set(ir, path, value)
        return refused

    deep = next(p for p in _int_paths(ir) if len(p) >= 4 and refused_as_float(p))
    value = _get(ir, deep)
    schema._PASSED.clear()
    errors(ir)
    _set(ir, deep, value + 1)
    found, walked = errors(ir)
    assert found == [] and 0 < walked < fresh / 5, (walked, fresh)
    for wrong in (float(value), True):
        _set(ir, deep, value)
        errors(ir)
        assert errors(ir) == ([], 0)
        _set(ir, deep, wrong)
        found, _ = errors(ir)
        remembered = len(schema._PASSED)
        schema._PASSED.clear()
        assert found and found == errors(ir)[0], (wrong, found)
        assert remembered > 0


PHRASED = [   # what a first-time author writes, where it goes wrong (line:column), what it said
    ("next draw 2 cards", "8:17", "write `draw 2`"),
    ("next draw 2 and lose turn", "8:17", "`next draw 2; next lose turn`"),
    ("skip next", "8:5", "write `next lose turn`"),
    ("every other player draw 1", "8:5", "write `each other`"),
    ("all players draw 1", "8:5", "write `each player`"),
    ("draw 2 then next lose turn", "8:12", "separate them with `;`"),
]


@pytest.mark.parametrize("body, where, hint", PHRASED)
def test_phrasings_first_time_authors_write_get_what_was_probably_meant_at_their_place(tmp_path, body, where, hint):
    """`next draw 2 cards` was reported at the next line's `}`, and the others said only what the
    grammar expected: each is now said where it is, with the probable phrasing."""
    p = write(tmp_path, "card.uno", f'rulebook t "t"\nextends classic\ncard wild_x {{\n  wild\n  points 50\n'
                                    f"  on play:\n    choose color\n    {body}\n}}\ndeck {{ 1 × wild_x }}\n")
    code, out, err = run_cli("validate", p)
    assert code == 1 and f"card.uno:{where}: error[U0101]" in err and hint in err, err


def test_a_phrase_inside_quoted_text_on_the_line_before_is_not_blamed(tmp_path):
    p = write(tmp_path, "card.uno", 'rulebook t "t"\nextends classic\noption x = 1 "every player draws"\n'
                                    "next lose turn\n")
    code, out, err = run_cli("validate", p)
    assert code == 1 and "card.uno:4:1: error[U0101]" in err and "each player" not in err, err
