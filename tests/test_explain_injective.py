"""`explain` never gives one text to two different rules: a property over mutations of every shipped
file's merged IR (a subject swapped, a condition or a sum regrouped, an action moved out of its
block, a number changed) and over pairs of the grammar fuzzer's rulebooks. Whenever two rulebooks
both pass the checker and their canonical IRs differ, their explanations differ.

bench/explain_injectivity.py runs the same property over many more fuzzed pairs."""
from __future__ import annotations


import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from unorules.language.explain.rulebook import explain
from unorules.language.loader import load, shipped_names

from fuzz_rulebooks import fuzzed_rulebook
from ir_mutations import canonical, checked, mutants, mutation_pairs
from test_fuzz_grammar import rulebook_text

SHIPPED = sorted(shipped_names())


def test_every_mutation_of_every_shipped_file_reads_differently_over_two_thousand_pairs():
    """One test for every file and their total: each file's mutations are checked and explained
    once (the schema and the checker are most of the cost, and a total over tests run by other
    processes would check them twice)."""
    pairs = {}
    for name in SHIPPED:
        pairs[name], same = mutation_pairs(load(name).ir, explain, name)
        assert not same, same[:5]
    assert all(pairs.values()), [n for n, p in pairs.items() if not p]
    assert sum(pairs.values()) >= 2000, pairs


def test_the_mutations_make_every_kind_of_change():
    kinds = {how.split(" ")[0] for n in SHIPPED for how, _ in mutants(load(n).ir)}
    assert {"number", "subject", "regroup", "move"} <= kinds, kinds
    base = load("official").ir
    for how, ir in mutants(base):
        assert canonical(ir) != canonical(base), how


FUZZED_SEEDS = range(40)         # bench/explain_injectivity.py runs many more


def seeded(seed, folder):
    import random
    path = folder / f"fuzzed{seed}.uno"
    path.write_text(fuzzed_rulebook(random.Random(seed)).replace(" x ", " × "), encoding="utf-8")
    return load(path)


def _fuzzed_pairs(seed, folder):
    base = seeded(seed, folder)
    pairs, same = mutation_pairs(base.ir, explain, f"fuzzed rulebook {seed}")
    assert not same, same[:5]
    other = seeded(seed + 1, folder)
    if canonical(other.ir) != canonical(base.ir):
        pairs += 1
        assert explain(other) != explain(base)
    return pairs


@pytest.fixture(scope="module")
def fuzz_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("seeded")


def test_every_mutation_of_a_fuzzed_rulebook_reads_differently_over_two_thousand_pairs(fuzz_folder):
    pairs = {seed: _fuzzed_pairs(seed, fuzz_folder) for seed in FUZZED_SEEDS}
    assert all(pairs.values()), [seed for seed, p in pairs.items() if not p]
    assert sum(pairs.values()) >= 2000, pairs


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


def _load_text(tmp_path_factory, text):
    from unorules.errors import RulebookError
    path = tmp_path_factory.mktemp("inj") / "fuzz.uno"
    path.write_text(text)
    try:
        return load(path)
    except RulebookError:
        return None


@FUZZ
@given(rulebook_text(), rulebook_text())
def test_two_fuzzed_rulebooks_that_differ_read_differently(tmp_path_factory, a, b):
    ra, rb = _load_text(tmp_path_factory, a), _load_text(tmp_path_factory, b)
    if ra is None or rb is None or canonical(ra.ir) == canonical(rb.ir):
        return
    assert explain(ra) != explain(rb), (a, b)


@FUZZ
@given(rulebook_text(), st.integers(0, 10_000))
def test_a_mutated_fuzzed_rulebook_reads_differently(tmp_path_factory, text, pick):
    ra = _load_text(tmp_path_factory, text)
    if ra is None:
        return
    every = list(mutants(ra.ir))
    if not every:
        return
    how, ir = every[pick % len(every)]
    rb = checked(ir)
    if rb is None or canonical(ir) == canonical(ra.ir):
        return
    assert explain(rb) != explain(checked(ra.ir)), (text, how)


# -- the cases the issue names, one by one ------------------------------------------------------

def _explain(tmp_path, body, card=None):
    path = tmp_path / "house.uno"
    path.write_text("rulebook house\nextends classic\nflag red_only per player reset after next turn\n" + body + "\n")
    return explain(load(path), card=card)


@pytest.mark.parametrize("a, b", [
    ("(me.hand.size > 3 or card.color == red) and card.rank == 5", "me.hand.size > 3 or card.color == red and card.rank == 5"),
    ("(me.hand.size + 2) * 3 > 4", "me.hand.size + 2 * 3 > 4"),
    ("not (me.hand.size > 3 and card.wild)", "not me.hand.size > 3 and card.wild"),
])
def test_grouping_is_said(tmp_path, a, b):
    ta = _explain(tmp_path, f"card 5 {{ number points 5 playable when {a} }}", "5")
    tb = _explain(tmp_path, f"card 5 {{ number points 5 playable when {b} }}", "5")
    assert ta != tb


def test_grouping_reads_as_written(tmp_path):
    text = _explain(tmp_path, "card 5 { number points 5 on play: draw (me.hand.size + 2) * 3 }", "5")
    assert "as many cards as (the number of cards in your hand plus 2) times 3" in text


def test_the_subject_of_set_add_and_clear_is_said(tmp_path):
    texts = {subject: _explain(tmp_path, f"card 5 {{ number points 5 on play: choose player; {subject}set red_only }}", "5")
             for subject in ("", "next ", "previous ", "each other ", "chosen ")}
    assert len(set(texts.values())) == len(texts)
    assert "the next player's `red_only` is set" in texts["next "]
    assert "for every other player: their `red_only` is set" in texts["each other "]


def test_where_a_block_ends_is_shown():
    text = explain(load("dare"), card="wild_draw_four") if False else explain(load("dare"))
    assert "if they fail, (they draw 2 cards; then they lose their next turn)" in text


def test_a_block_and_what_follows_it_read_differently(tmp_path):
    inside = _explain(tmp_path, "card 5 { number points 5 on play: next perform dare chance 0.5 { } else { draw 2; lose turn } }", "5")
    after = _explain(tmp_path, "card 5 { number points 5 on play: next perform dare chance 0.5 { } else { draw 2 }; next lose turn }", "5")
    assert inside != after
    nested = _explain(tmp_path, "card 5 { number points 5 on play: if me.hand.size > 1 { if card.wild { draw 1 } else { draw 2 } } }", "5")
    dangling = _explain(tmp_path, "card 5 { number points 5 on play: if me.hand.size > 1 { if card.wild { draw 1 } } else { draw 2 } }", "5")
    assert nested != dangling


def test_flags_and_trigger_conditions_read_rightly(tmp_path):
    text = _explain(tmp_path, "card reverse { action points 20 playable when count(each player as p where p.red_only) == 0 "
                              "or card.color == red }\non turn_start if me.red_only: clear red_only")
    assert "(the number of players for whom that player's `red_only` is set) is 0 or the color of the card is red" in text
    assert "At the start of your turn (every player's), if your `red_only` is set: your `red_only` is cleared." in text
    assert " p " not in text and "p's" not in text          # the loop's name is not prose


def test_odds_of_weights_that_are_not_literals(tmp_path):
    text = _explain(tmp_path, "card 5 { number points 5 on play: chance coin { heads weight 3 { draw 1 } "
                              "tails weight me.hand.size { draw 2 } } }", "5")
    assert "(3/3)" not in text
    assert "on heads (weight 3)" in text and "on tails (weight the number of cards in your hand)" in text
    literal = _explain(tmp_path, "card 5 { number points 5 on play: chance coin { heads weight 3 { draw 1 } "
                                 "tails weight 1 { draw 2 } } }", "5")
    assert "on heads (3/4)" in literal and "on tails (1/4)" in literal


def test_trigger_words_say_which_plays_and_draws_fire(tmp_path):
    text = _explain(tmp_path, "on play of draw_two: draw 1\non draw: draw 1")
    assert "Whenever you play a `draw_two` (not in answer to an attack)" in text
    assert "Whenever your turn's draw brings a card (the last card it draws; penalties and rules that make you draw " \
           "do not count)" in text
