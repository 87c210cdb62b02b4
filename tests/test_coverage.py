"""Every construct of the language is pinned: each IR kind the schema allows occurs in a rulebook
that some scenario under tests/scenarios/ plays, and `explain` has words for each one (never a
fallback). Every shipped file's explanation reads as prose, without the old slips."""
from __future__ import annotations

import functools
import inspect
import re

import pytest

from helpers import ROOT
from unorules.language.explain import rulebook as explain_module
from unorules.language.explain.rulebook import explain
from unorules.language.loader import load, parse_text, shipped_names
from unorules.scenarios.runner import load_scenarios, rulebook_of
from unorules.language.schema import schema
from unorules.language.vocab import TRIGGER_EVENTS


def _walk(node, out):
    if isinstance(node, dict):
        kind = node.get("kind")
        if isinstance(kind, str):
            out.add(kind)
        for k, v in node.items():
            out.add(f"key:{k}")
            if k in ("reset", "per", "direction", "op", "block", "event", "method") and isinstance(v, str):
                out.add(f"{k}:{v}")
            _walk(v, out)
    elif isinstance(node, list):
        for v in node:
            _walk(v, out)


@functools.cache
def scenario_constructs() -> frozenset:
    found: set[str] = set()
    seen = set()
    for path in sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")):
        for sc in load_scenarios(path):
            key = (sc.data["rulebook"], str(path.parent), tuple(sc.data.get("include") or ()), tuple(sc.data.get("with") or ()))
            if key in seen:
                continue
            seen.add(key)
            rb = rulebook_of(sc)
            _walk(rb.ir, found)
            for file, text in rb.files.items():           # removals are applied when merging: see each file
                _walk(parse_text(text, file).ir, found)
    return frozenset(found)


def _enum(defn):
    return defn["properties"]["kind"]["enum"]


ACTION_KINDS = _enum(schema()["$defs"]["action"])
EXPR_KINDS = [k for k in _enum(schema()["$defs"]["expr"]) if k not in ("each_other", "each_player")]
TOP_KEYS = [k for k in schema()["properties"] if k not in ("kind", "name", "title", "extends", "for", "include")]
SETTINGS = [f"key:{k}" for block in ("setup", "turn", "scoring")
            for k in schema()["$defs"][block]["properties"]]
VALUES = ["reset:turn", "reset:round", "reset:next_turn", "reset:at_next_turn", "per:player", "per:game", "direction:counterclockwise",
          "op:sum", "op:max", "op:count", "op:fewest", "block:scoring", "key:at_once", "key:hidden", "key:where",
          "key:as"] + [f"event:{e}" for e in sorted(TRIGGER_EVENTS)]
REFUSED: set[str] = set()            # settings the checker refuses (none now), so no scenario can use them


@pytest.mark.parametrize("kind", ACTION_KINDS + EXPR_KINDS)
def test_every_action_and_expression_kind_is_played_by_a_scenario(kind):
    assert kind in scenario_constructs(), f"no scenario's rulebook uses `{kind}`"


@pytest.mark.parametrize("key", [f"key:{k}" for k in TOP_KEYS] + [s for s in SETTINGS if s not in REFUSED] + VALUES)
def test_every_item_setting_and_variant_is_played_by_a_scenario(key):
    assert key in scenario_constructs(), f"no scenario's rulebook uses `{key}`"


@pytest.mark.parametrize("kind", ACTION_KINDS + EXPR_KINDS)
def test_explain_has_words_for_every_kind(kind):
    source = inspect.getsource(explain_module.Words)
    assert f'"{kind}"' in source, f"explain has no words of its own for `{kind}`"


SLIPS = [r"\btheir the\b", r"\byour the\b", r"hand cards\b", r"\bcards cards\b", r"\bplayer player\b",
         r"\ba the\b", r"\?", r"\bgrows by minus\b", r"\bnot \(", r"\b[a-z]+_[a-z_]+\b(?![^`]*`)"]


@pytest.mark.parametrize("name", sorted(shipped_names()))
def test_explain_reads_as_prose(name):
    text = explain(load(name))
    prose = re.sub(r"`[^`]*`", "", text)                 # names in backticks are quoted on purpose
    prose = re.sub(r' — "[^"]*"', "", prose)            # and so is an option's help, the author's own words
    prose = "\n".join(line for line in prose.splitlines() if not line.startswith("#"))
    for slip in SLIPS:
        m = re.search(slip, prose)
        assert m is None, f"{name}: `{m.group(0)}` in: {prose[max(0, m.start() - 80):m.end() + 40]}"


def test_a_match_of_a_fixed_number_of_rounds_ends_after_them():
    from unorules import simulate
    summary = simulate(ROOT / "tests" / "data" / "extras.uno", games=30, players=3, agents=("greedy",), rounds="match")
    assert summary["outcomes"].get("win") == 30
    assert 1 <= summary["rounds_per_game"] <= 3          # `rounds 3`, or earlier when players are out


# issue 29's constructs: each has a docs/language.md entry (its syntax as the reference writes it)
# and a scenario key where a state needs one (docs/scenarios.md)
LANGUAGE_ENTRIES = ["on attacked", "double penalty", "play only when COND", "may play on anything when COND",
                    "reset at next turn", "put C in front of P", "discard K from P.front",
                    "move K from P.front to hand", "`P.front`", "winner scores EXPR", "`no points`",
                    "set score of P to", "let NAME", "remove trigger", "replace trigger", "`cut`",
                    "repeat until C at most N", "by anyone", "may pass", "false NAME call",
                    "when the draw pile runs out: new deck", "replace N × KIND with NAME", "C is number",
                    "shows hand until", "`backs`", "count(c where"]
SCENARIO_KEYS = ["`front`", "`team_scores`", "`open_hands`", "given.front"]


@pytest.mark.parametrize("syntax", LANGUAGE_ENTRIES)
def test_each_construct_of_issue_29_has_a_language_reference_entry(syntax):
    assert syntax in (ROOT / "docs" / "language.md").read_text(), f"docs/language.md says nothing of `{syntax}`"


@pytest.mark.parametrize("key", SCENARIO_KEYS)
def test_each_scenario_key_of_issue_29_is_documented_and_read(key):
    from unorules.scenarios.format import EXPECT_KEYS, GIVEN_KEYS
    docs = (ROOT / "docs" / "scenarios.md").read_text()
    assert key in docs or key.split(".")[-1] in docs
    name = key.strip("`").split(".")[-1]
    assert name in EXPECT_KEYS or name in GIVEN_KEYS
