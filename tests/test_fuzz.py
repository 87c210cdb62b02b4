"""Loader fuzzing (hypothesis): whatever comes in, the result is a valid rulebook or diagnostics,
never another exception, never a hang. Mutations of the shipped rulebooks (delete, duplicate and
swap tokens, splice lines, random bytes) and random IR for the YAML/JSON path. Every input that
once failed is kept under tests/fuzz_corpus/ and replayed by test_corpus."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from unorules.errors import RulebookError
from unorules.language.loader import decode, load, parse_text, shipped_names

CORPUS = Path(__file__).resolve().parent / "fuzz_corpus"
SOURCES = [p.read_text() for p in sorted(shipped_names().values())]
FUZZ = settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow],
                derandomize=True)


def check_input(tmp_path, name: str, data: bytes):
    """Loading `data` as `name` must give a rulebook or a RulebookError: nothing else."""
    path = tmp_path / name
    path.write_bytes(data)
    try:
        load(path)
    except RulebookError as e:
        assert e.diagnostics, "an error with no diagnostic"
        for d in e.diagnostics:
            assert d.code.startswith("U0") and d.message
            d.render(e.texts.get(d.file))          # rendering never fails either
        return
    if path.suffix == ".uno":                      # a valid file formats to text that reads back the same
        from unorules.language.formatter import format_rulebook
        from unorules.language.parser import parse_uno
        ir, spans, _ = parse_uno(data.decode("utf-8"), name)
        assert parse_uno(format_rulebook(ir, spans))[0] == ir


def tokens(text):
    return re.findall(r"\s+|[A-Za-z_0-9]+|.", text)


@st.composite
def mutated_rulebook(draw):
    text = draw(st.sampled_from(SOURCES))
    toks = tokens(text)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "splice", "bytes", "replace"]))
        if not toks:
            break
        i = draw(st.integers(0, len(toks) - 1))
        j = draw(st.integers(0, len(toks) - 1))
        if op == "delete":
            del toks[i:i + draw(st.integers(1, 5))]
        elif op == "duplicate":
            toks[i:i] = toks[i:i + draw(st.integers(1, 8))]
        elif op == "swap":
            toks[i], toks[j] = toks[j], toks[i]
        elif op == "splice":
            lines = "".join(toks).splitlines(keepends=True)
            a, b = sorted((draw(st.integers(0, len(lines))), draw(st.integers(0, len(lines)))))
            lines[a:a] = lines[b:b + draw(st.integers(1, 6))]
            toks = tokens("".join(lines))
        elif op == "replace":
            toks[i] = draw(st.sampled_from(["{", "}", "(", ")", ":", ";", "..", "×", "if", "on", "card", "0",
                                            "-1", "99999999999", "\"", "#", "draw", "me", "."]))
        else:
            toks[i] = draw(st.text(min_size=1, max_size=4))
    return "".join(toks).encode("utf-8", errors="surrogatepass")


@FUZZ
@given(data=mutated_rulebook())
def test_mutated_rulebooks_give_a_rulebook_or_diagnostics(tmp_path_factory, data):
    check_input(tmp_path_factory.mktemp("fuzz"), "house.uno", data)


@FUZZ
@given(data=st.binary(max_size=400))
def test_random_bytes_give_diagnostics(tmp_path_factory, data):
    for name in ("x.uno", "x.yaml", "x.json"):
        check_input(tmp_path_factory.mktemp("bytes"), name, data)


json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**6), st.floats(allow_nan=False, width=32),
                      st.sampled_from(["draw", "number", "name", "play", "red", "wild", "me", "x", "", "copies",
                                       "per_color", "rulebook", "module", "binary", "=="]))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["kind", "name", "cards", "names", "effects", "event", "actions", "count",
                                     "deck", "entries", "faces", "colors", "players", "min", "max", "op", "left",
                                     "right", "value", "subject", "of", "with", "to", "extends", "include"]),
                    inner, max_size=5)), max_leaves=30)


@FUZZ
@given(ir=st.dictionaries(st.sampled_from(["kind", "name", "colors", "cards", "deck", "players", "setup", "turn",
                                           "scoring", "triggers", "reactions", "extends", "include"]),
                          json_value, max_size=7))
def test_random_ir_through_yaml_and_json_gives_a_rulebook_or_diagnostics(tmp_path_factory, ir):
    ir.setdefault("kind", "rulebook")
    ir.setdefault("name", "fuzz")
    tmp = tmp_path_factory.mktemp("ir")
    check_input(tmp, "r.json", json.dumps(ir).encode())
    check_input(tmp, "r.yaml", yaml.safe_dump(ir).encode())


@pytest.mark.parametrize("path", sorted(p for p in CORPUS.glob("*") if p.suffix != ".md"), ids=lambda p: p.name)
def test_corpus(tmp_path, path):
    """Inputs that once broke the loader (kept forever)."""
    check_input(tmp_path, path.name.split("__", 1)[-1], path.read_bytes())


def test_decode_refuses_what_is_not_text():
    with pytest.raises(RulebookError):
        decode(b"\xff\xfe\x00", "x")
    with pytest.raises(RulebookError):
        parse_text("", "x.txt")


# ---- mutated IR: gets past the schema into the checker, the compiler and the engine -------------

IRS = [parse_text(p.read_text(), str(p)).ir for p in sorted(shipped_names().values())]


def _nodes(x, path=()):
    yield path, x
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _nodes(v, path + (i,))


@st.composite
def mutated_ir(draw):
    ir = json.loads(json.dumps(draw(st.sampled_from(IRS))))
    for _ in range(draw(st.integers(1, 3))):
        nodes = list(_nodes(ir))
        path, node = draw(st.sampled_from(nodes[1:]))
        parent = ir
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        op = draw(st.sampled_from(["delete", "transplant", "rename", "number"]))
        if op == "delete":
            if isinstance(parent, dict) and key not in ("kind", "name"):
                del parent[key]
            elif isinstance(parent, list):
                del parent[key]
        elif op == "transplant":
            _, other = draw(st.sampled_from(nodes))
            parent[key] = json.loads(json.dumps(other))
        elif op == "rename" and isinstance(node, str):
            parent[key] = draw(st.sampled_from([n for _, n in nodes if isinstance(n, str)]))
        elif op == "number" and isinstance(node, (int, float)) and not isinstance(node, bool):
            parent[key] = draw(st.sampled_from([0, -1, 1, 2, 10**6]))
    return ir


def play_briefly(rulebook):
    """A loaded mutant must play: a win, a stall, or a named runtime error; never a Python exception."""
    import random
    from unorules.engine.compiler import compile_rulebook
    from unorules.engine import Game
    from unorules.errors import RuleRuntimeError
    try:
        rules = compile_rulebook(rulebook)
        game = Game(rules, max(2, rules.min_players), rounds="single", turn_cap=200)
    except RuleRuntimeError:
        return
    s = game.new_state(1)
    rng = random.Random(1)
    while not s.terminal:
        d = s.decision
        s.apply_action(rng.choices(d.options, d.probs)[0] if d.probs else rng.choice(d.options))
    assert s.outcome in ("win", "stalled", "error"), s.outcome


@FUZZ
@given(ir=mutated_ir())
def test_mutated_ir_gives_diagnostics_or_a_playable_rulebook(tmp_path_factory, ir):
    tmp = tmp_path_factory.mktemp("mir")
    for p in shipped_names().values():                   # extends/include names resolve beside the file
        (tmp / p.name).write_text(p.read_text())
    path = tmp / "mutant.json"
    path.write_text(json.dumps(ir))
    try:
        rb = load(path)
    except RulebookError as e:
        assert e.diagnostics
        return
    play_briefly(rb)
