"""The rule language: every grammar construct, the IR it builds, round trips, the YAML/JSON twins."""
from __future__ import annotations

import json

import pytest

from unorules.errors import RulebookError
import yaml
from lark import Lark

from unorules.language.formatter import format_rulebook
from unorules.language.loader import load, parse_file, shipped_names
from unorules.language.parser import grammar_text, parse_uno
from unorules.language.schema import schema_diagnostics, validator

from helpers import DATA, run_cli


def ir_of(text):
    ir, spans, problems = parse_uno(text)
    assert problems == []
    return ir


def actions_of(text):
    """The IR of the actions of `on play:` of a one-card rulebook."""
    ir = ir_of(f"rulebook t\ncard c {{ wild\n on play: {text} }}")
    return ir["cards"][0]["effects"][0]["actions"]


def expr_of(text):
    ir = ir_of(f"rulebook t\ncard c {{ points {text} }}")
    return ir["cards"][0]["points"]


def test_grammar_is_lalr_without_conflicts():
    Lark(grammar_text(), parser="lalr", strict=True)      # raises on any conflict or collision


N = lambda name: {"kind": "name", "name": name}           # noqa: E731
NUM = lambda v: {"kind": "number", "value": v}             # noqa: E731


@pytest.mark.parametrize("text, want", [
    ("draw 2", [{"kind": "draw", "count": NUM(2)}]),
    ("next draw 2", [{"kind": "draw", "count": NUM(2), "subject": N("next")}]),
    ("each other draw 1", [{"kind": "draw", "count": NUM(1), "subject": {"kind": "each_other"}}]),
    ("each player lose turn", [{"kind": "lose_turn", "subject": {"kind": "each_player"}}]),
    ("draw until color red", [{"kind": "draw_until_color", "color": N("red")}]),
    ("draw until playable", [{"kind": "draw_until_playable"}]),
    ("lose turn; play again; reverse", [{"kind": "lose_turn"}, {"kind": "play_again"}, {"kind": "reverse"}]),
    ("choose color", [{"kind": "choose_color"}]),
    ("set color blue", [{"kind": "set_color", "color": N("blue")}]),
    ("cycle color", [{"kind": "cycle_color"}]),
    ("choose player", [{"kind": "choose_player", "other": False}]),
    ("choose other player where candidate.seat > 0",
     [{"kind": "choose_player", "other": True, "where": {"kind": "binary", "op": ">", "left":
       {"kind": "attr", "of": N("candidate"), "name": "seat"}, "right": NUM(0)}}]),
    ("swap hands with next", [{"kind": "swap_hands", "with": N("next")}]),
    ("pass hands", [{"kind": "pass_hands"}]),
    ("shuffle hands", [{"kind": "shuffle_hands"}]),
    ("flip", [{"kind": "flip"}]),
    ("give 2 cards to next", [{"kind": "give", "count": NUM(2), "to": N("next")}]),
    ("give 1 card to next", [{"kind": "give", "count": NUM(1), "to": N("next")}]),
    ("give hand to next", [{"kind": "give_hand", "to": N("next")}]),
    ("exchange card with previous", [{"kind": "exchange", "with": N("previous")}]),
    ("discard all red", [{"kind": "discard_all", "what": N("red")}]),
    ("score 10", [{"kind": "score", "amount": NUM(10)}]),
    ("eliminate", [{"kind": "eliminate"}]),
    ("swap seats with dealer", [{"kind": "swap_seats", "with": N("dealer")}]),
    ("reveal", [{"kind": "reveal"}]),
    ("redraw", [{"kind": "redraw"}]),
    ("attack next penalty 2 { draw penalty }",
     [{"kind": "attack", "target": N("next"), "penalty": NUM(2), "actions": [{"kind": "draw", "count": N("penalty")}]}]),
    ("attack next { lose turn }", [{"kind": "attack", "target": N("next"), "actions": [{"kind": "lose_turn"}]}]),
    ("add 2", [{"kind": "add_penalty", "amount": NUM(2)}]),
    ("pass attack to attacker", [{"kind": "pass_attack", "to": N("attacker")}]),
    ("cancel attack; resolve attack; take back card",
     [{"kind": "cancel_attack"}, {"kind": "resolve_attack"}, {"kind": "take_back"}]),
    ("if true { flip } else if false { reverse } else { eliminate }",
     [{"kind": "if", "branches": [{"when": {"kind": "bool", "value": True}, "then": [{"kind": "flip"}]},
                                  {"when": {"kind": "bool", "value": False}, "then": [{"kind": "reverse"}]}],
       "otherwise": [{"kind": "eliminate"}]}]),
    ("chance coin { heads { flip } tails weight 2 { } }",
     [{"kind": "chance", "name": "coin", "outcomes": [
         {"name": "heads", "actions": [{"kind": "flip"}]}, {"name": "tails", "weight": NUM(2), "actions": []}]}]),
    ("perform dance chance 0.5 { } else { draw 3 }",
     [{"kind": "perform", "name": "dance", "chance": NUM(0.5), "actions": [],
       "otherwise": [{"kind": "draw", "count": NUM(3)}]}]),
])
def test_every_action_builds_its_ir(text, want):
    assert actions_of(text) == want


@pytest.mark.parametrize("text, want", [
    ("1 + 2 * 3", {"kind": "binary", "op": "+", "left": NUM(1),
                   "right": {"kind": "binary", "op": "*", "left": NUM(2), "right": NUM(3)}}),
    ("(1 + 2) * 3", {"kind": "binary", "op": "*", "left": {"kind": "binary", "op": "+", "left": NUM(1), "right": NUM(2)},
                     "right": NUM(3)}),
    ("-card.rank", {"kind": "neg", "of": {"kind": "attr", "of": N("card"), "name": "rank"}}),
    ("me.hand.count(card.wild)", {"kind": "call", "of": {"kind": "attr", "of": N("me"), "name": "hand"},
                                  "name": "count", "arg": {"kind": "attr", "of": N("card"), "name": "wild"}}),
    ("not true or false and true", {"kind": "binary", "op": "or", "left": {"kind": "not", "of": {"kind": "bool", "value": True}},
                                    "right": {"kind": "binary", "op": "and", "left": {"kind": "bool", "value": False},
                                              "right": {"kind": "bool", "value": True}}}),
    ("\"text\"", {"kind": "string", "value": "text"}),
    ("10 % 3 - 7 / 2", {"kind": "binary", "op": "-", "left": {"kind": "binary", "op": "%", "left": NUM(10), "right": NUM(3)},
                        "right": {"kind": "binary", "op": "/", "left": NUM(7), "right": NUM(2)}}),
])
def test_expressions_build_their_ir_with_precedence(text, want):
    assert expr_of(text) == want


def test_top_level_items_build_their_ir():
    ir = ir_of('''
        rulebook t "T" extends classic include a, b
        players 2..5
        side light colors red blue
        option x = true "help"
        remove card skip
        deck side light { per color: 2 × 1..3, 1 × skip  4 x wild }
        pair sides shuffled
        setup { hand 5 cut chance 0.1: score 1 }
        turn { draw only when stuck drawn card is kept cap 9 turns }
        react to a with b if true: add 1
        on play of red 7 if false: pass hands
        declare uno at 1 card: draw 2
        jump in
        scoring { winner scores others target 500 single round }
    ''')
    assert ir["title"] == "T" and ir["extends"] == "classic" and ir["include"] == ["a", "b"]
    assert ir["players"] == {"min": 2, "max": 5}
    assert ir["sides"] == [{"name": "light", "colors": ["red", "blue"]}]
    assert ir["options"] == [{"name": "x", "value": {"kind": "bool", "value": True}, "help": "help"}]
    assert ir["remove_cards"] == [{"names": ["skip"]}]
    assert ir["deck"] == [{"side": "light", "entries": [
        {"kind": "per_color", "copies": [{"kind": "copies", "count": 2, "faces": ["1", "2", "3"]},
                                         {"kind": "copies", "count": 1, "faces": ["skip"]}]},
        {"kind": "copies", "count": 4, "faces": ["wild"]}]}]
    assert ir["pair_sides"] == "shuffled"
    assert ir["setup"] == {"hand": NUM(5), "cut": {"chance": NUM(0.1), "actions": [{"kind": "score", "amount": NUM(1)}]}}
    assert ir["turn"] == {"draw_only_when_stuck": True, "drawn_card": "is_kept", "turn_cap": 9}
    assert ir["reactions"] == [{"to": ["a"], "with": ["b"], "if": {"kind": "bool", "value": True},
                                "actions": [{"kind": "add_penalty", "amount": NUM(1)}]}]
    assert ir["triggers"] == [{"event": "play", "of": {"color": "red", "face": "7"},
                               "if": {"kind": "bool", "value": False}, "actions": [{"kind": "pass_hands"}]}]
    assert ir["declarations"] == [{"name": "uno", "at": 1, "actions": [{"kind": "draw", "count": NUM(2)}]}]
    assert ir["jump_in"] == {}
    assert ir["scoring"] == {"method": "winner_scores_others", "target": NUM(500), "single_round": True}


def test_card_items_build_their_ir():
    ir = ir_of("rulebook t card 0..2, skip { number side dark points 1 playable when true legal when false "
               "on play: flip on turn_up: redraw challenge: cancel attack }")
    card = ir["cards"][0]
    assert card == {"names": ["0", "1", "2", "skip"], "category": "number", "side": "dark", "points": NUM(1),
                    "playable_when": {"kind": "bool", "value": True}, "legal_when": {"kind": "bool", "value": False},
                    "effects": [{"event": "play", "actions": [{"kind": "flip"}]},
                                {"event": "turn_up", "actions": [{"kind": "redraw"}]}],
                    "challenge": [{"kind": "cancel_attack"}]}


def test_comments_and_semicolons_are_white_space():
    a = ir_of("rulebook t # a comment\ncard c { wild; points 1 } # another\n")
    b = ir_of("rulebook t\ncard c {\n  wild\n  points 1\n}")
    assert a == b


def rulebook_files():
    """Every shipped file and every test rulebook (together they use every construct)."""
    return sorted(shipped_names().values()) + sorted(p for p in DATA.glob("*.uno") if p.name != "twelve_errors.uno")


@pytest.mark.parametrize("path", rulebook_files(), ids=lambda p: p.stem)
def test_format_round_trip(path):
    ir, _, _ = parse_uno(path.read_text())
    assert parse_uno(format_rulebook(ir))[0] == ir


@pytest.mark.parametrize("path", rulebook_files(), ids=lambda p: p.stem)
def test_shipped_and_fixture_files_are_canonical(path):
    code, out, err = run_cli("fmt", "--check", path)
    assert code == 0, err


@pytest.mark.parametrize("fmt", ["yaml", "json"])
@pytest.mark.parametrize("path", rulebook_files(), ids=lambda p: p.stem)
def test_export_round_trip_through_yaml_and_json(tmp_path, path, fmt):
    code, out, err = run_cli("export", path, "--format", fmt)
    assert code == 0, err
    twin = tmp_path / f"{path.stem}.{fmt}"
    twin.write_text(out)
    assert parse_file(twin).ir == parse_file(path).ir
    # and the twin loads to the same merged rulebook (extends/includes resolved beside the original)
    if path.parent == DATA:
        for p in DATA.glob("*.uno"):                       # what the fixtures extend and include
            if p.name != path.name:
                (tmp_path / p.name).write_text(p.read_text())
    try:
        original = load(path).ir
    except RulebookError as e:                              # a module with no `for`: the same errors
        with pytest.raises(RulebookError) as again:
            load(twin)
        assert sorted(d.code for d in again.value.diagnostics) == sorted(d.code for d in e.diagnostics)
        return
    assert load(twin).ir == original


def test_yaml_rulebooks_get_the_same_checks_with_positions(tmp_path):
    p = tmp_path / "house.yaml"
    p.write_text("kind: rulebook\nname: house\nextends: classic\ncards:\n  - names: [wild_customizable]\n"
                 "    category: wild\n    effects:\n      - event: play\n        actions:\n"
                 "          - {kind: set_color, color: {kind: name, name: bleu}}\ndeck: []\n")
    code, out, err = run_cli("validate", p)
    assert code == 1
    assert f"{p}:10:" in err and "unknown color `bleu`" in err and "did you mean `blue`?" in err


def test_yaml_schema_errors_are_plain_words_at_the_key(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("kind: rulebook\nname: bad\nplayrs: {min: 2, max: 4}\ncolors: [red]\n")
    code, out, err = run_cli("validate", p)
    assert code == 1
    assert f"{p}:3:1: error[U0401]: unknown key `playrs` in the top level" in err
    assert "did you mean `players`?" in err


def test_schema_command_prints_a_valid_draft_2020_12_schema():
    code, out, err = run_cli("schema")
    assert code == 0
    schema = json.loads(out)
    assert schema["$schema"].endswith("2020-12/schema")
    from jsonschema import Draft202012Validator
    Draft202012Validator.check_schema(schema)
    validator()
    ir, spans, _ = parse_uno((DATA / "everything.uno").read_text())
    assert schema_diagnostics(ir, spans, "x") == []


def test_schema_rejects_unknown_action_kind_with_a_located_message(tmp_path):
    p = tmp_path / "x.json"
    p.write_text(json.dumps({"kind": "rulebook", "name": "x", "cards": [{"names": ["c"], "effects": [
        {"event": "play", "actions": [{"kind": "teleport"}]}]}]}, indent=1))
    code, out, err = run_cli("validate", p)
    assert code == 1
    assert "cards[0].effects[0].actions[0].kind must be one of" in err and "not the text `teleport`" in err


def test_validate_shipped_names_and_folders():
    code, out, err = run_cli("validate", "classic", "official")
    assert code == 0 and out.splitlines() == ["ok    classic", "ok    official"]
    code, out, err = run_cli("validate", "rulebooks")
    assert code == 0 and "rulebooks/classic.uno" in out


def test_validate_json_format_lists_diagnostics(tmp_path):
    p = tmp_path / "x.uno"
    p.write_text("rulebook x\ncolors red\ncard c { wild on play: set color bleu }\ndeck { 9 × c }\n")
    code, out, err = run_cli("validate", "--format", "json", p)
    assert code == 1
    data = json.loads(out)
    d = data["results"][0]["diagnostics"][0]
    assert (d["code"], d["line"], d["column"], d["message"]) == ("U0203", 3, 34, "unknown color `bleu`")


def test_export_resolved_gives_the_merged_rulebook():
    code, out, err = run_cli("export", "official", "--resolved", "--format", "json")
    assert code == 0
    ir = json.loads(out)
    names = [c["names"][0] for c in ir["cards"]]
    assert "wild_draw_four" in names and "wild_shuffle_hands" in names


def test_official_deck_has_112_cards_and_classic_108():
    from unorules.engine.compiler import compile_rulebook
    assert len(compile_rulebook(load("classic")).deck[0]) == 108
    assert len(compile_rulebook(load("official")).deck[0]) == 112


def test_yaml_export_is_plain_safe_yaml():
    code, out, err = run_cli("export", "classic")
    assert yaml.safe_load(out)["name"] == "classic"


def test_on_hand_reaches_is_written_formatted_checked_and_completed(tmp_path):
    """`on hand reaches N` (issue 58): its own words in the grammar, the formatter and completion;
    written as a plain event name it is refused with how to write it."""
    from unorules.language.formatter import format_rulebook
    from unorules.lsp.completion import completions
    from helpers import codes_of, write
    src = 'rulebook t "t"\n\nextends classic\noption at = 12 "x"\n\non hand reaches at if at > 0: eliminate from round\n'
    rb = load(write(tmp_path, "t.uno", src))
    t = rb.ir["triggers"][0]
    assert t["event"] == "hand_reaches" and t["count"] == {"kind": "name", "name": "at"}
    assert t["actions"] == [{"kind": "eliminate", "from": "round"}]
    assert format_rulebook(parse_uno(src)[0]) == src
    assert codes_of(write(tmp_path, "bad.uno", 'rulebook t "t"\nextends classic\non hand_reaches: draw 1\n')) == ["U0205"]
    from pathlib import Path
    from unorules.lsp.workspace import Workspace
    ws, mine = Workspace(), Path("/nonexistent/mine.uno")
    ws.open(mine, 'rulebook t "t"\nextends classic\non \n')
    ws.check(mine)
    words = [c.label for c in completions(ws, mine, 2, 3)]
    assert "hand reaches" in words and "hand_reaches" not in words and "turn_start" in words
