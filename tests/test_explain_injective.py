"""`explain` never gives one text to two different rules: a property over mutations of every shipped
file's merged IR (a subject swapped, a condition or a sum regrouped, an action moved out of its
block, a number changed) and over pairs of the grammar fuzzer's rulebooks. Whenever two rulebooks
both pass the checker and their canonical IRs differ, their explanations differ.

bench/explain_injectivity.py runs the same property over many more fuzzed pairs."""
from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from unorules.explain import explain
from unorules.loader import load, shipped_names

from ir_mutations import canonical, checked, mutants
from test_fuzz_grammar import rulebook_text

SHIPPED = sorted(shipped_names())


@functools.cache
def _pairs_of(name):
    base = load(name).ir
    text = explain(checked(base))
    pairs = 0
    for how, ir in mutants(base):
        rb = checked(ir)
        if rb is None or canonical(ir) == canonical(base):
            continue
        pairs += 1
        assert explain(rb) != text, f"{name}: `{how}` changes the rules but not the explanation"
    return pairs


@pytest.mark.parametrize("name", SHIPPED)
def test_every_mutation_of_a_shipped_file_reads_differently(name):
    assert _pairs_of(name) > 0


def test_the_shipped_mutations_make_at_least_two_thousand_pairs():
    assert sum(_pairs_of(n) for n in SHIPPED) >= 2000


def test_the_mutations_make_every_kind_of_change():
    kinds = {how.split(" ")[0] for n in SHIPPED for how, _ in mutants(load(n).ir)}
    assert {"number", "subject", "regroup", "move"} <= kinds, kinds
    base = load("official").ir
    for how, ir in mutants(base):
        assert canonical(ir) != canonical(base), how


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
