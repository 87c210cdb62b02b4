"""Authoring custom cards: `new`, `--with`, `explain`, `play` (driven through standard input), `compare`."""
from __future__ import annotations

import json

import pytest

from unorules.language.loader import load, parse_file, shipped_names

from helpers import ROOT, run_cli, write

CUSTOM = sorted(p for p in shipped_names().values() if p.parent.name == "custom")


def test_the_custom_cards_ship_and_validate():
    assert [p.stem for p in CUSTOM] == sorted(
        ["everyone_draws", "give_away", "rock_paper_scissors", "swap_with_fewest", "tribute",            # tutorial
         "skip_two", "name_a_number", "take_a_card", "draw_to_color", "two_more_plays",             # loops, memory
         "shield", "red_lock", "double_next_draw", "lucky_charm", "last_of_a_color"])             # issue 29
    for p in CUSTOM:
        assert run_cli("validate", "official", "--with", p)[0] == 0
        assert run_cli("validate", p.stem)[0] == 0                    # a module checked over the rulebook it is for


@pytest.mark.parametrize("name", ["my_card", "wild_customizable"])
def test_new_card_output_validates_unchanged(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli("new", "card", name)
    assert code == 0 and (tmp_path / f"{name}.uno").is_file()
    assert run_cli("validate", "official", "--with", f"{name}.uno")[0] == 0
    assert run_cli("validate", f"{name}.uno")[0] == 0
    text = (tmp_path / f"{name}.uno").read_text()
    assert "choose color" in text and "next draw 1" in text and "# if me.hand.size" in text
    assert run_cli("new", "card", name)[0] == 2                    # no silent overwrite
    assert run_cli("new", "card", name, "--force")[0] == 0


def test_new_card_rejects_a_bad_name():
    code, out, err = run_cli("new", "card", "My Card", "--stdout")
    assert code == 2 and "not a valid card name" in err


def test_with_errors_point_into_the_fragment_with_base_names_as_hints(tmp_path):
    p = write(tmp_path, "mine.uno", "module mine\nfor official\ncard wild_customizable {\n  on play: next draw_too 2\n}\n")
    code, out, err = run_cli("validate", "official", "--with", p)
    assert code == 1 and "mine.uno:4:17: error[U0101]: unexpected `draw_too`" in err
    p = write(tmp_path, "mine2.uno", "module mine2\ncard wild_customizable {\n  on play: set color bleu\n}\n")
    code, out, err = run_cli("validate", "official", "--with", p)
    assert code == 1 and "mine2.uno:3:22: error[U0203]: unknown color `bleu`" in err and "did you mean `blue`?" in err


def test_a_fragment_can_add_a_new_card_with_its_count(tmp_path):
    p = write(tmp_path, "plus_one.uno", "module plus_one\ncard wild_plus_one {\n  wild\n  points 30\n"
                                        "  on play: choose color; next draw 1\n}\ndeck {\n  2 × wild_plus_one\n}\n")
    rb = load("official", with_=(p,))
    assert "wild_plus_one" in [c["names"][0] for c in rb.ir["cards"]]
    from unorules.engine.compiler import compile_rulebook
    assert len(compile_rulebook(rb).deck[0]) == 114


def all_rulebooks():
    return sorted(shipped_names())


@pytest.mark.parametrize("name", all_rulebooks())
def test_explain_covers_every_card(name):
    code, out, err = run_cli("explain", name)
    assert code == 0, err
    rb = load(name)
    for card in rb.ir["cards"]:
        assert f"`{card['names'][0]}`" in out, card["names"][0]
    assert "## Setup" in out and "## Your turn" in out and "## Winning and scoring" in out


def test_explain_a_custom_card_in_plain_words():
    code, out, err = run_cli("explain", "official", "--with", "everyone_draws", "--card", "wild_customizable")
    assert code == 0
    assert "When you play it: you name the next color; then every other player draws 1 card." in out
    code, out, err = run_cli("explain", "official", "--with", "swap_with_fewest", "--card", "wild_customizable")
    assert "you choose another player such that the number of cards in that player's hand is the fewest cards " \
           "any other player holds; then you swap hands with the chosen player" in out
    code, out, err = run_cli("explain", "official", "--card", "wild_draw_for")
    assert code == 2 and "did you mean `wild_draw_four`?" in err


def test_explain_reactions_challenges_and_house_rules():
    out = run_cli("explain", "classic", "--include", "stacking", "--include", "seven_o")[1]
    assert "answer a `draw_two` with a `draw_two`" in out and "the attack passes to the next player" in out
    assert "Whenever you play a `0`" in out
    out = run_cli("explain", "classic")[1]
    assert "It is legal only when you hold no card of the current color" in out
    assert "If the attacked player challenges it" in out
    assert 'call "UNO!"' in out


def test_play_end_to_end_through_standard_input():
    code, out, err = run_cli("play", "official", "--seed", "3", "--players", "3", "--with", "everyone_draws",
                             input="1\n" * 600)
    assert code == 0, err
    assert "Your hand:" in out and "Your turn:" in out and "Game over:" in out
    assert "Seat 1 plays" in out or "Seat 2 plays" in out
    for line in out.splitlines():                       # no other hand is ever shown
        assert "hand:" not in line.lower() or line.startswith("Your hand:") or "their hand:" in line


def test_play_handles_bad_input_quit_and_end_of_input():
    code, out, err = run_cli("play", "classic", "--seed", "1", "--players", "2", input="x\n99\nq\n")
    assert code == 0 and "Please type a number from 1 to" in out and "You left the game." in out
    code, out, err = run_cli("play", "classic", "--seed", "1", "--players", "2", input="")
    assert code == 0 and "Input ended" in out


def test_play_is_repeatable_with_a_seed():
    a = run_cli("play", "flip", "--seed", "5", "--players", "2", input="1\n" * 400)[1]
    b = run_cli("play", "flip", "--seed", "5", "--players", "2", input="1\n" * 400)[1]
    assert a == b and "Side: " in a


def test_compare_with_a_custom_card_reports_both_variants_and_a_verdict():
    code, out, err = run_cli("compare", "official", "--with", "everyone_draws", "--games", "300", "--json")
    assert code == 0
    d = json.loads(out)
    assert [v["label"] for v in d["variants"]] == ["official", "official + everyone_draws"]
    assert d["cards"] == ["wild_customizable"]
    first, second = d["results"]
    assert first["games"] == second["games"] == 300
    assert first["tracked_card"]["players"] > 0 and second["tracked_card"]["players"] > 0
    assert isinstance(d["verdicts"], list)
    code, out, err = run_cli("compare", "official", "--with", "everyone_draws", "--games", "300")
    assert "turns per round (mean)" in out and "played `wild_customizable`: won" in out and "verdict:" in out


def test_compare_two_rulebooks_and_usage():
    code, out, err = run_cli("compare", "classic", "killer", "--games", "50", "--json")
    assert code == 0 and [v["label"] for v in json.loads(out)["variants"]] == ["classic", "killer"]
    assert run_cli("compare", "classic")[0] == 2


def test_the_tutorial_walks_through_the_five_cards():
    text = (ROOT / "docs" / "tutorial.md").read_text()
    for p in CUSTOM:
        assert f"rulebooks/custom/{p.name}" in text
        ir = parse_file(p).ir
        assert ir["cards"][0]["names"] == ["wild_customizable"] if "cards" in ir else ir["play_rules"]  # or a table rule


@pytest.mark.parametrize("card", [p.stem for p in CUSTOM])
def test_each_tutorial_card_plays_in_the_terminal(card):
    code, out, err = run_cli("play", "official", "--with", card, "--seed", "11", "--players", "3",
                             input="1\n" * 800)
    assert code == 0, err
    assert "Game over" in out or "Input ended" in out
    assert "Your hand:" in out


def test_the_readme_python_example_ends_its_game():
    import re
    text = (ROOT / "README.md").read_text()
    code = re.search(r"## Python API\n\n```python\n(.*?)```", text, re.S).group(1)
    code = code.split("summary = unorules.simulate")[0]          # the game part
    scope: dict = {}
    exec(compile(code.replace("print(", "result = ("), "README.md", "exec"), scope)   # noqa: S102 - our own README
    outcome, winner, returns = scope["result"]
    assert outcome == "win" and winner is not None and sum(returns) == pytest.approx(0)


def test_the_package_docstring_example_runs():
    import doctest
    import unorules
    failures, tried = doctest.testmod(unorules, verbose=False)
    assert tried >= 7 and failures == 0


BASES = sorted(n for n, p in shipped_names().items() if p.parent.name == "rulebooks")


@pytest.mark.parametrize("base", BASES)
def test_new_card_for_every_base_and_option_validates_or_is_refused(tmp_path, base):
    """Every card of every shipped box, overridden or replaced (1 copy, all of them, more than the
    box holds): the file validates, or new card says why not (six option sets wrote files that did
    not validate: `choose color` without colors, a per-color kind, one the box never deals, ...)."""
    from unorules.errors import RulebookError
    from unorules.language.authoring import box_of, new_card
    ir = load(base).ir
    box = box_of(ir)
    existing = {c["names"][0] for c in ir["cards"]}
    wrote = 0
    for kind in sorted(existing):
        asks = [("mine", kind, copies) for copies in (1, box.colorless.get(kind, 1), 1000)]
        asks.append((kind, None, 1))
        for name, replace, copies in asks:
            try:
                text = new_card(name, base, f"{name}.uno", existing, replace, copies, box)
            except ValueError as e:
                assert str(e)
                continue
            path = tmp_path / f"{name}.uno"
            path.write_text(text)
            try:
                load(base, with_=(str(path),))
            except RulebookError as e:
                pytest.fail(f"{name} --replace {replace} --copies {copies} on {base}: {e.diagnostics[0].message}")
            wrote += 1
    assert wrote


@pytest.mark.parametrize("args, said", [
    (["--base", "attack", "--replace", "discard_all"], "dealt once per color"),
    (["--base", "official", "--replace", "wild", "--copies", "9"], "holds 4 × `wild`, not 9"),
    (["--base", "official", "--replace", "5"], "dealt once per color"),
    (["--base", "flip", "--replace", "wild"], "double-faced"),
])
def test_new_card_refuses_a_replace_the_box_cannot_give(tmp_path, monkeypatch, args, said):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli("new", "card", "mine", *args)
    assert code == 2 and said in err
    assert not (tmp_path / "mine.uno").exists()


def test_a_replaced_blank_keeps_its_points_and_a_colorless_box_chooses_no_color(tmp_path):
    code, out, err = run_cli("new", "card", "blank_swap", "--replace", "wild_customizable", "--stdout")
    assert code == 0 and "points 40" in out                     # the blank it replaces is worth 40, not 50
    code, out, err = run_cli("new", "card", "wild", "--base", "all_wild", "--stdout")
    assert code == 0 and "choose color" not in out


def test_compare_says_its_rounds_and_each_variants_simulator_and_warns_of_scores_in_single_rounds():
    """Issue 60: a score card in single rounds measures nothing: warned; which simulator ran for
    each variant, in the text and the JSON; the header says one round a game."""
    code, out, err = run_cli("compare", "official", "--with", "lucky_charm", "-n", "30", "--workers", "1")
    assert code == 0, err
    assert "one round a game (--rounds single)" in out.splitlines()[0]
    assert "score points, and each game is one round" in err and "--rounds rulebook" in err
    lines = [ln for ln in out.splitlines() if ln.startswith("simulator for ")]
    assert len(lines) == 2 and "front" in lines[1]            # lucky_charm keeps a card in front: the engine
    assert "not the same deals" in out.splitlines()[0]        # counted code's stream against the engine's
    code, out, err = run_cli("compare", "official", "--with", "lucky_charm", "-n", "10", "--workers", "1",
                             "--rounds", "rulebook", "--json")
    assert "score points" not in err
    assert all(v["simulator"] for v in json.loads(out)["variants"])
    code, out, err = run_cli("compare", "official", "--with", "everyone_draws", "-n", "10", "--workers", "1")
    assert "score points" not in err
    assert "same seeds for both" in out.splitlines()[0]       # both counted: the same deals
