"""Grammar fuzzing (hypothesis): rulebooks built from the language's own constructs (cards,
actions with subjects, loops and blocks, expressions with aggregates and conditionals, triggers,
reactions, counters, settings), some valid and some not. Each one loads to a rulebook or to
diagnostics, never another exception; a rulebook formats and reads back to the same IR; and it
plays a few games with random agents to an outcome (a win, a stall or a reported rule error).
Inputs that once failed are kept in tests/fuzz_corpus/ (test_fuzz.py replays them)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from unorules.engine.compiler import compile_rulebook
from unorules.engine import Game
from unorules.errors import RulebookError, RuleRuntimeError
from unorules.language.formatter import format_rulebook
from unorules.language.loader import load
from unorules.language.parser import parse_uno

FUZZ = settings(max_examples=120, deadline=5000, suppress_health_check=[HealthCheck.too_slow], derandomize=True)

PLAYERS = ["me", "next", "previous", "dealer", "chosen", "next.next", "me.previous", "p"]
KINDS = ["0", "7", "skip", "reverse", "draw_two", "wild", "boom", "zap"]
NUMBERS = ["0", "1", "2", "3", "-1", "me.hand.size", "p.hand.size", "me.plays", "table", "penalty",
           "player_count", "streak", "me.hand.points", "me.score", "fewest_cards"]
COLORS = ["red", "blue", "current_color", "card.color", "top.color", "bleu"]


def expr_number(depth):
    leaf = st.sampled_from(NUMBERS)
    if depth <= 0:
        return leaf
    sub = expr_number(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(sub, st.sampled_from(["+", "-", "*", "/", "%"]), sub).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(expr_bool(depth - 1), sub, sub).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        st.tuples(st.sampled_from(["sum", "max", "min"]), st.sampled_from(["other", "player"]), sub).map(
            lambda t: f"{t[0]}(each {t[1]} as q: {t[2].replace('p.', 'q.')})"),
        st.sampled_from(["count(each player as q where q.hand.size > 1)", "me.hand.count(card.color == red)"]))


def expr_bool(depth):
    leaf = st.sampled_from(["true", "false", "clockwise", "first_card", "me.marked", "me.hand.has(7)",
                            "me.hand.any(card.wild)", "card.kind == 7", "guess == \"exact\""])
    if depth <= 0:
        return leaf
    return st.one_of(
        leaf,
        st.tuples(expr_number(depth - 1), st.sampled_from(["==", "!=", "<", ">=", ">"]), expr_number(depth - 1)).map(
            lambda t: f"{t[0]} {t[1]} {t[2]}"),
        st.tuples(expr_bool(depth - 1), st.sampled_from(["and", "or"]), expr_bool(depth - 1)).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"),
        expr_bool(depth - 1).map(lambda b: f"not {b}"))


SUBJECTS = st.sampled_from(["", "next ", "previous ", "chosen ", "next.next ", "each other ", "each player ",
                            "each other as p ", "each player as p where p.hand.size > 0 ", "dealer "])


def simple_action():
    n = expr_number(1)
    return st.one_of(
        st.sampled_from(["lose turn", "play again", "reverse", "choose color", "cycle color", "pass hands",
                         "pass hands counterclockwise", "shuffle hands", "choose other player", "choose player as p2",
                         "choose one of exact, missed as guess", "choose number as n", "choose kind as k",
                         "choose number from 1 to 3 as m", "set marked", "clear marked", "add 1 to plays",
                         "look at chosen.hand", "take 1 card from chosen", "give 1 card to next at once",
                         "give 1 card where card.wild to next", "discard all red", "discard all 7", "reveal",
                         "draw until playable", "eliminate", "eliminate from round", "flip", "redraw", "add 2",
                         "cancel attack"]),
        n.map(lambda x: f"draw {x}"),
        n.map(lambda x: f"score {x}"),
        n.map(lambda x: f"set table to {x}"),
        st.sampled_from(COLORS).map(lambda c: f"set color {c}"),
        st.sampled_from(COLORS).map(lambda c: f"draw until color {c}"),
        st.sampled_from(PLAYERS).map(lambda p: f"swap hands with {p}"),
        st.sampled_from(PLAYERS).map(lambda p: f"give 1 card to {p}"))


def actions(depth):
    one = st.tuples(SUBJECTS, simple_action()).map(lambda t: t[0] + t[1])
    if depth > 0:
        inner = actions(depth - 1).map(lambda a: "; ".join(a))
        one = st.one_of(
            one,
            st.tuples(SUBJECTS, expr_bool(1), inner, inner).map(lambda t: f"{t[0]}if {t[1]} {{ {t[2]} }} else {{ {t[3]} }}"),
            st.tuples(SUBJECTS, inner).map(lambda t: f"{t[0]}{{ {t[1]} }}"),
            st.tuples(SUBJECTS, inner).map(lambda t: f"{t[0]}chance coin {{ heads {{ {t[1]} }} tails {{}} }}"),
            st.tuples(SUBJECTS, inner).map(lambda t: f"{t[0]}perform dance chance 0.5 {{ {t[1]} }} else {{ draw 1 }}"),
            inner.map(lambda a: f"attack next penalty 2 {{ {a} }}"))
    return st.lists(one, min_size=1, max_size=3)


@st.composite
def rulebook_text(draw):
    lines = ["rulebook fuzz", "extends classic", "counter plays per player", "counter table",
             "flag marked per player reset after next turn"]
    if draw(st.booleans()):
        lines.append("option luck = 0.5")
    for name in ("boom", "zap")[:draw(st.integers(0, 2))]:
        cat = draw(st.sampled_from(["wild", "action"]))
        body = [cat, f"points {draw(expr_number(1))}"]
        if draw(st.booleans()):
            body.append(f"playable when {draw(expr_bool(1))}")
        body.append("on play: " + "; ".join(draw(actions(2))))
        lines.append(f"card {name} {{ " + " ; ".join(body) + " }")
        lines.append(f"deck {{ {'2 × ' + name if cat == 'wild' else 'per color: 1 × ' + name} }}")
    for _ in range(draw(st.integers(0, 2))):
        event = draw(st.sampled_from(["play", "draw", "turn_start", "round_start", "round_end", "play of 7"]))
        cond = f" if {draw(expr_bool(1))}" if draw(st.booleans()) else ""
        lines.append(f"on {event}{cond}: " + "; ".join(draw(actions(1))))
    if draw(st.booleans()):
        lines.append(f"react to {draw(st.sampled_from(['draw_two', 'skip, reverse']))} with "
                     f"{draw(st.sampled_from(['draw_two', '0..3', 'any number', 'any action']))}: "
                     + "; ".join(draw(actions(0))) + "; pass attack to next")
    if draw(st.booleans()):
        lines.append(draw(st.sampled_from(["remove scoring target", "remove turn drawn_card", "turn { cap 300 turns }",
                                           "scoring { each scores own hand rounds 2 }", "jump in"])))
    return "\n".join(lines) + "\n"


@FUZZ
@given(rulebook_text())
def test_rulebooks_built_from_the_grammar_load_format_and_play(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("g") / "fuzz.uno"
    path.write_text(text)
    try:
        rb = load(path)
    except RulebookError as e:
        assert e.diagnostics and all(d.code.startswith("U0") and d.span is not None for d in e.diagnostics
                                     if d.code not in ("U0206",)), e.render()
        e.render()
        return
    ir, spans, _ = parse_uno(text, str(path))
    assert parse_uno(format_rulebook(ir, spans))[0] == ir             # formatting reads back
    rules = compile_rulebook(rb)
    game = Game(rules, 3, rounds="single", turn_cap=400)
    from unorules.agents.base import make_agents
    for seed in range(2):
        s = game.new_state(seed)
        agents = make_agents(["random"] * 3, seed)
        steps = 0
        while not s.terminal and steps < 5000:
            d = s.decision
            a = s.rng.choices(d.options, d.probs)[0] if d.probs is not None else agents[d.player].choose(None, d.options)
            s.apply_action(a)
            steps += 1
            assert not s.invariant_violations(), (text, s.invariant_violations())
        if s.outcome == "error":
            assert isinstance(s.error, RuleRuntimeError) and s.error.where, s.error
