"""Nothing runs away (issue: hostile input): rules that expand without bound, loops in loops, values
that grow past any count, long matches, search budgets, many diagnostics, deep expressions and huge
numbers typed in `play` each end with a located error, a usage error, a fallback or `stalled`:
never a hang, a crash or exit 3. The limits are documented in docs/language.md."""
from __future__ import annotations

import pytest

from helpers import codes_of, run_cli, write
from unorules.errors import RulebookError
from unorules.language.loader import MAX_IR_DEPTH, load
from unorules.runs.simulation import RunSpec, make_game, play_one, simulator_for


def house(tmp_path, body, name="house.uno"):
    return write(tmp_path, name, "rulebook house\nextends classic\n" + body + "\n")


def test_named_rules_that_each_do_the_next_twice_are_refused_past_the_block_depth(tmp_path):
    rules = "\n".join(f"rule r{i}: do r{i + 1}; do r{i + 1}" for i in range(20)) + "\nrule r20: draw 1"
    p = house(tmp_path, rules + "\ncard skip { action points 20 on play: do r0 }")
    assert "U0404" in codes_of(p)


def test_checking_rules_that_each_do_the_next_twice_walks_each_rule_a_few_times_not_two_to_the_depth(tmp_path, monkeypatch):
    from unorules.language import nesting
    walks = []
    real = nesting.NestingChecks._nest
    monkeypatch.setattr(nesting.NestingChecks, "_nest", lambda self, actions, *rest: (walks.append(1), real(self, actions, *rest))[1])
    rules = "\n".join(f"rule r{i}: do r{i + 1}; do r{i + 1}" for i in range(16)) + "\nrule r16: draw 1"
    codes_of(house(tmp_path, rules + "\ncard skip { action points 20 on play: do r0 }"))
    assert 0 < len(walks) < 2_000          # 2^16 = 65,536 walks before the walk remembered what it had seen


def test_a_rule_that_expands_too_far_runs_on_the_engine_which_stops_it_at_its_rule(tmp_path, monkeypatch):
    import unorules.engine.state as state
    monkeypatch.setattr(state, "MAX_STEPS", 2_000)          # the engine's bound, made small
    rules = "\n".join(f"rule r{i}: do r{i + 1}; do r{i + 1}" for i in range(10)) + "\nrule r10: add 1 to c"
    p = house(tmp_path, "counter c\n" + rules + "\ncard skip { action points 20 on play: do r0; if c > 5 { draw 1 } }")
    spec = RunSpec(str(p), players=3, agents=("random_play",), rounds="single")
    game = make_game(spec)
    program, why = simulator_for(game, spec)
    assert program is None and "expands to more than 2,000 actions" in why
    outcomes = [play_one(game, spec, i) for i in range(4)]
    errors = [s.error for s in outcomes if s.outcome == "error"]
    assert errors and all("steps of rules without a decision" in str(e) and e.where for e in errors)


def test_loops_in_loops_are_bounded(tmp_path):
    def nested(n):
        body = "draw 1"
        for i in range(n):
            body = f"each player as p{i} {{ {body} }}"
        return f"card skip {{ action points 20 on play: {body} }}"
    assert codes_of(house(tmp_path, nested(4), "four.uno")) == []
    assert codes_of(house(tmp_path, nested(5), "five.uno")) == ["U0404"]
    assert codes_of(house(tmp_path, nested(17), "seventeen.uno")) == ["U0404"]
    sums = "card skip { action points 20 on play: draw " + "".join(f"sum(each player as q{i}: " for i in range(5)) \
        + "1" + ")" * 5 + " }"
    assert codes_of(house(tmp_path, sums, "sums.uno")) == ["U0404"]


def test_attacks_inside_attacks_fall_back_to_the_engine_rather_than_make_endless_code(tmp_path):
    body = "draw penalty"
    for _ in range(8):
        body = f"attack next penalty 1 {{ {body} }}"
    p = house(tmp_path, f"card skip {{ action points 20 on play: {body} }}\nreact to skip with skip: add 1; pass attack to next")
    spec = RunSpec(str(p), players=3, agents=("random_play",), rounds="single")
    program, why = simulator_for(make_game(spec), spec)
    assert program is None and "lines of code" in why


@pytest.mark.parametrize("simulator", ["engine", "generated", "counted"])
def test_a_value_that_grows_past_the_bound_stops_the_game_at_its_rule(tmp_path, simulator):
    p = house(tmp_path, "counter c\ncard skip { action points 20 on play: set c to c * 1000 + 7; draw c % 3 }")
    code, out, err = run_cli("simulate", p, "--games", "6", "--workers", "1", "--simulator", simulator)
    assert code == 1, err                 # a rule failed: exit 1, with the rule's place
    assert f"{p}:4:" in out and "values lie within ±1,000,000,000" in out


def test_a_negative_weight_stops_the_game_at_its_rule_and_options_are_finite(tmp_path):
    p = house(tmp_path, "option odds = 0.5\non turn_start: chance coin { heads weight odds {} tails weight 1 - odds {} }")
    code, out, err = run_cli("simulate", p, "--option", "odds=1.5", "--games", "4", "--workers", "1")
    assert code == 1 and "house.uno:" in out and "has a weight of -0.5" in out
    code, out, err = run_cli("simulate", "fast", "--option", "cut_chance=1.5", "--games", "2")
    assert code == 2 and "option `cut_chance` is a chance: it must lie between 0 and 1, not 1.5" in err
    for value in ("inf", "nan", "1e300", "-1e10"):
        code, out, err = run_cli("simulate", "fast", "--option", f"cut_chance={value}", "--games", "2")
        assert code in (1, 2) and "cut_chance" in err and "Traceback" not in err


def test_a_game_of_many_rounds_is_bounded_in_turns():
    from unorules.engine.types import MAX_GAME_TURNS
    from unorules.engine.rounds import MAX_ROUNDS
    assert MAX_GAME_TURNS < MAX_ROUNDS * 10_000       # a match of long rounds ends before hours pass
    # (tests/test_codegen.py plays a match to the cap in both runners)


@pytest.mark.parametrize("budget", ["ismcts:infs", "ismcts:1e309s", "ismcts:99999999999999999999", "ismcts:nans",
                                    "ismcts:0", "ismcts:-3s"])
def test_a_search_budget_that_would_never_end_is_a_usage_error(budget):
    code, out, err = run_cli("simulate", "official", "--games", "1", "--agents", budget)
    assert code == 2 and "budget" in err
    from unorules.agents.search import search_budget
    with pytest.raises(ValueError):
        search_budget(budget)


def test_many_diagnostics_stop_the_check_and_show_a_few(tmp_path):
    p = house(tmp_path, "\n".join(f"card c{i} {{ wild on play: draw bleu{i % 7} }}" for i in range(2000)))
    code, out, err = run_cli("validate", p)
    assert code == 1 and err.count("error[U0201]") <= 200 and "more (the first 200 are shown" in err
    with pytest.raises(RulebookError) as e:
        load(p)
    assert len(e.value.diagnostics) == 301
    assert any("checking stopped after 300 errors" in d.message for d in e.value.diagnostics)
    from unorules.errors import did_you_mean
    assert did_you_mean("blue", [f"c{i}" for i in range(10_000)] + ["blue_ish", "blu"]) is not None


def test_the_deepest_expression_accepted_runs_everywhere_and_a_deeper_one_is_refused(tmp_path):
    terms = 85
    p = house(tmp_path, "card skip { action points 20 on play: draw (" + " + ".join(["1"] * terms) + ") % 3 }")
    rb = load(p)
    for args in (("validate", p), ("explain", p, "--card", "skip"), ("fmt", "--check", p),
                 ("simulate", p, "--games", "2", "--workers", "1", "--simulator", "engine"),
                 ("simulate", p, "--games", "2", "--workers", "1", "--simulator", "generated")):
        code, out, err = run_cli(*args)
        assert code in (0, 1) and "internal error" not in err, (args, err)
    assert rb is not None
    deep = house(tmp_path, "card skip { action points 20 on play: draw " + " + ".join(["1"] * 150) + " }", "deep.uno")
    with pytest.raises(RulebookError) as e:
        load(deep)
    assert e.value.diagnostics[0].code == "U0003" and e.value.diagnostics[0].span is not None
    assert f"nested more than {MAX_IR_DEPTH} deep" in e.value.diagnostics[0].message


def test_play_takes_a_line_of_thousands_of_digits_as_a_wrong_answer():
    from unorules.cli.play import _choose_line
    answers = iter(["9" * 5000, "2"])
    said = []
    assert _choose_line(lambda prompt: next(answers), said.append, 3) == 1
    assert said == ["Please type a number from 1 to 3."]
