"""The generated simulator (issue 14): it plays the engine's games (byte-identical event logs, equal
summaries) wherever it covers the rules and agents, falls back to the engine where it does not and
says so, holds no rulebook text in its source, and names the rule in a runtime error."""
from __future__ import annotations

import importlib.util
import io
import os
from dataclasses import replace
import json
import linecache
import random
import sys
import tokenize
import traceback
from pathlib import Path

import pytest

from helpers import DATA, ROOT, run_cli
from unorules.codegen.expressions import NotCovered
from unorules.codegen.generated import Program
from unorules.codegen.generator import EXTERNAL, coverage
from unorules.runs.simulation import RunSpec, game_seed, make_game, play_one, run_range, seat_agents, simulator_for
from unorules.runs.stats import Summary

NATIVE_REQUIRED = bool(os.environ.get("UNORULES_REQUIRE_EXTRAS"))      # CI: native code is measured too
from fuzz_rulebooks import EFFECTS, fuzzed_rulebook  # noqa: E402,F401  (seeded rulebooks of what the generator covers)

sys.path.insert(0, str(ROOT / "bench"))
from counted_vs_engine import measure            # noqa: E402  (the bench script's measurement)

SHIPPED = sorted(p.stem for p in (ROOT / "rulebooks").glob("*.uno"))
MODULES = sorted(p.stem for p in (ROOT / "rulebooks" / "modules").glob("*.uno"))
CUSTOM = sorted((ROOT / "rulebooks" / "custom").glob("*.uno"))
AGENT_MIXES = [("random",), ("random_play",), ("greedy",), ("random_play", "greedy", "random")]


def same_games(spec: RunSpec, games: int = 40):
    """Generated code and the engine, game by game: every event (the deal and every draw among
    them) byte for byte, and the summaries. Where hands counted per face cover the rules too, they
    play their reference's games (same_as_reference)."""
    spec = replace(spec, simulator="generated")
    game = make_game(spec, log_events=True)
    program, why = simulator_for(game, spec)
    assert program is not None, why
    names = seat_agents(spec)
    for i in range(games):
        engine = play_one(game, spec, i)
        ours = program.play(game_seed(spec.seed, i), names, log=True)
        a = "\n".join(json.dumps(e, separators=(",", ":")) for e in engine.log)
        b = "\n".join(json.dumps(e, separators=(",", ":")) for e in ours.log)
        assert a == b, f"game {i} differs"
        assert ours.counts == engine.counts and ours.outcome == engine.outcome and ours.scores == engine.scores
    generated = run_range(spec, 0, games).as_dict(spec.players)
    interpreted = run_range(RunSpec(**{**spec.__dict__, "simulator": "engine"}), 0, games).as_dict(spec.players)
    assert generated == interpreted
    same_as_reference(game, spec, games)
    return program


def same_as_reference(game, spec: RunSpec, games: int):
    """Hands counted per face (simulate's default) against their reference run, the generated
    code that keeps lists of cards in the same face order: byte-identical event logs and equal
    summaries. Returns the counted program, or None where counting does not cover the rules
    (then the reason names it)."""
    names = tuple(seat_agents(spec))
    try:
        counted = Program(game, names, "counted")
    except NotCovered as e:
        assert "counted per face" in str(e) or coverage(game, names) is not None, e
        return None
    reference = Program(game, names, "faces")
    a_sum, b_sum = Summary(), Summary()
    for i in range(games):
        seed = game_seed(spec.seed, i)
        a, b = reference.play(seed, names, log=True), counted.play(seed, names, log=True)
        assert json.dumps(a.log) == json.dumps(b.log), f"game {i} differs"
        assert (a.counts, a.outcome, a.winner, a.scores, a.turns_per_round) == \
            (b.counts, b.outcome, b.winner, b.scores, b.turns_per_round)
        quiet = counted.play(seed, names)            # and without the log, the same game
        assert (quiet.counts, quiet.winner, quiet.scores) == (b.counts, b.winner, b.scores)
        a_sum.add_game(a, names)
        b_sum.add_game(b, names)
    assert a_sum.as_dict(spec.players) == b_sum.as_dict(spec.players)
    assert run_range(replace(spec, simulator="counted"), 0, games).as_dict(spec.players) == b_sum.as_dict(spec.players)
    return counted


@pytest.mark.parametrize("agents", AGENT_MIXES)
@pytest.mark.parametrize("players", [2, 4, 7])
@pytest.mark.parametrize("name", ["rlcard", "classic", "official"])
def test_editions_play_the_engines_games(name, players, agents):
    same_games(RunSpec(name, players=players, seed=11, agents=agents, rounds="rulebook" if players == 4 else "single"),
               games=25)


def test_tracked_cards_are_followed_as_by_the_engine():
    same_games(RunSpec("rlcard", players=3, seed=2, agents=("random_play",), rounds="single",
                       track=("wild", "skip")), games=60)


@pytest.mark.parametrize("agents", [("greedy",), ("random", "random_play")])
def test_the_cut_and_its_bets_play_as_on_the_engine(agents):
    """fast's cut: the `on cut` bets (a choice of each other player), then the cut, a chance drawn
    on the game's stream, exact half the time here; an exact cut scores the dealer -50."""
    spec = RunSpec("fast", players=3, agents=agents, rounds="rulebook", options=(("cut_chance", 0.5),), seed=4)
    program = same_games(spec, games=3)
    cuts = [e["exact"] for i in range(3) for e in program.play(game_seed(spec.seed, i), seat_agents(spec), log=True).log
            if e["type"] == "cut"]
    assert len(cuts) >= 6 and 0 < sum(cuts) < len(cuts)


HOOKS = """module hooks "attack hooks"
for official
on attacked if target.hand.size <= 3: pass attack to next
on attacked if penalty >= 4 and target.hand.size > 5: add 1
"""


@pytest.mark.parametrize("with_", [("double_next_draw",), ("HOOKS",)])
def test_on_attacked_rules_play_as_on_the_engine(with_, tmp_path):
    """`on attacked`: asked before each new target may answer; a hook that passes the attack on
    asks the new target's hooks in turn, one that changes the penalty changes what is drawn."""
    if with_ == ("HOOKS",):
        (tmp_path / "hooks.uno").write_text(HOOKS, encoding="utf-8")
        with_ = (str(tmp_path / "hooks.uno"),)
    spec = RunSpec("official", with_=with_, players=4, agents=("random_play", "greedy"), rounds="single", seed=5)
    program = same_games(spec, games=15)
    kinds = {e["type"] for i in range(15) for e in program.play(game_seed(spec.seed, i), seat_agents(spec), log=True).log}
    assert "attack" in kinds and ("pass_attack" in kinds) == (with_ != ("double_next_draw",))


def test_an_attack_passed_round_and_round_is_the_hooks_error_as_on_the_engine(tmp_path):
    path = tmp_path / "pingpong.uno"
    path.write_text('module pingpong "round and round"\nfor official\non attacked: pass attack to next\n', encoding="utf-8")
    spec = RunSpec("official", with_=(str(path),), players=2, agents=("random",), rounds="single", seed=5)
    program = same_games(spec, games=4)
    record = program.play(game_seed(spec.seed, 0), seat_agents(spec))
    assert record.outcome == "error" and "passed on by `on attacked` rules more than 32" in str(record.error)
    assert record.error.where.endswith("pingpong.uno:3:1")


def test_a_look_at_a_hand_plays_and_logs_as_on_the_engine(tmp_path):
    """`look at`: its event names the hand's cards as the engine's does, in generated code and,
    from its reference, with hands counted per face."""
    path = tmp_path / "look.uno"
    path.write_text('module look "a look"\nfor official\ncard wild_customizable {\n  on play:\n    choose color\n'
                    '    choose other player\n    look at chosen.hand\n}\n', encoding="utf-8")
    spec = RunSpec("official", with_=(str(path),), players=3, agents=("random_play", "greedy"), rounds="single")
    program = same_games(spec, games=30)
    looks = [e for i in range(30) for e in program.play(game_seed(spec.seed, i), seat_agents(spec), log=True).log
             if e["type"] == "look_at"]
    assert looks and all(e["cards"] and e["other"] != e["player"] for e in looks)


def test_every_shipped_rulebook_module_and_custom_card_runs_generated_or_says_why():
    """Each combination the tests use either plays the engine's games as generated code, or falls
    back to the engine with the construct it lacks named; auto never changes the totals."""
    combos = [RunSpec(name, players=3 if name != "showdown" else 2, rounds="single") for name in SHIPPED]
    combos += [RunSpec("classic", include=(m,), players=4, rounds="single") for m in MODULES]
    combos += [RunSpec("official", with_=(str(c),), players=4, rounds="single") for c in CUSTOM]
    generated = 0
    for spec in combos:
        for agents in (("random_play",), ("greedy", "random")):
            spec_ = RunSpec(**{**spec.__dict__, "agents": agents})
            try:
                game = make_game(spec_, log_events=True)
            except Exception as e:            # a module for another edition: not a combination anyone runs
                assert "module" in str(e) or "for" in str(e)
                break
            program, why = simulator_for(game, spec_)
            if program is None:
                assert why and why.startswith("the code generator does not cover ")
                auto = run_range(spec_, 0, 6).as_dict(spec_.players)
                engine = run_range(RunSpec(**{**spec_.__dict__, "simulator": "engine"}), 0, 6).as_dict(spec_.players)
                assert auto == engine
            else:
                generated += 1
                same_games(spec_, games=15)
    assert generated >= 20          # classic, official, rlcard and the modules and cards they take


# ---- fuzzed rulebooks: random combinations of what the generator covers -----------------------

@pytest.mark.parametrize("seed", range(24))
def test_fuzzed_rulebooks_play_the_engines_games(seed, tmp_path):
    rng = random.Random(seed)
    path = tmp_path / "fuzzed.uno"
    path.write_text(fuzzed_rulebook(rng).replace(" x ", " × "), encoding="utf-8")
    spec = RunSpec(str(path), players=rng.randint(2, 6), seed=seed, agents=rng.choice(AGENT_MIXES),
                   rounds=rng.choice(["rulebook", "single"]))
    same_games(spec, games=12)


def test_a_card_played_at_any_time_that_reverses_changes_who_may_play_next_as_in_the_engine(tmp_path):
    """The out-of-turn order before a turn is taken again after each card played at any time:
    one that reverses the direction hands the window on in the new direction."""
    path = tmp_path / "veto.uno"
    path.write_text("""rulebook veto_reverse
extends classic
card veto {
  wild
  points 50
  playable at any time
  on play: reverse
}
deck {
  12 × veto
}
""", encoding="utf-8")
    program = same_games(RunSpec(str(path), players=5, seed=3, agents=("random",), rounds="single"), games=30)
    reversed_in_window = 0
    for i in range(30):
        log = program.play(game_seed(3, i), ("random",) * 5, log=True).log
        reversed_in_window += sum(1 for a, b in zip(log, log[1:]) if a["type"] == "any_time" and b["type"] == "reverse")
    assert reversed_in_window > 20             # the games do play vetoes out of turn, and reverse


def test_a_nearly_empty_draw_pile_refills_and_runs_short_as_in_the_engine(tmp_path):
    path = tmp_path / "big_hands.uno"           # 2 cards left after the deal: reshuffles, and draws cut short
    path.write_text((ROOT / "rulebooks" / "rlcard.uno").read_text().replace("hand 7", "hand 53"))
    same_games(RunSpec(str(path), players=2, agents=("random",), rounds="single"), games=20)


# ---- fallback and the command line -----------------------------------------------------------

def test_uncovered_rules_fall_back_and_simulate_says_which_ran():
    code, out, err = run_cli("simulate", "triple_play", "-n", "20", "--agents", "random_play", "-w", "1")
    assert code == 0 and "simulator: the engine: the code generator does not cover several discard piles" in out
    code, out, err = run_cli("simulate", "rlcard", "-n", "20", "--agents", "random_play", "-w", "1", "--json")
    assert code == 0 and json.loads(out)["simulator"].startswith("generated Python")
    code, out, err = run_cli("simulate", "rlcard", "-n", "20", "--agents", "ismcts:2", "-w", "1")
    assert code == 0 and "simulator: the engine: the code generator does not cover the agent `ismcts:2`" in out


def test_simulator_generated_refuses_what_it_cannot_generate():
    code, out, err = run_cli("simulate", "flip", "-n", "5", "--simulator", "generated")
    assert code == 2 and "cannot run as generated code" in err and "double-faced cards" in err


def test_generated_code_and_the_engine_give_the_same_totals_and_auto_counts_hands():
    outs, used = [], []
    for simulator in ("generated", "engine", "auto", "counted"):
        code, out, err = run_cli("simulate", "rlcard", "-n", "50", "-p", "3", "--agents", "random_play,random",
                                 "--json", "--simulator", simulator, "-w", "1")
        d = json.loads(out)
        d.pop("seconds")
        used.append(d.pop("simulator"))
        outs.append(d)
    assert outs[0] == outs[1] and outs[2] == outs[3]
    assert outs[0] != outs[2]                   # counted hands draw their own random stream
    assert used[2] == used[3] and "hands counted per face" in used[2] and "engine's games" in used[0]


def test_auto_says_why_hands_are_not_counted_where_they_cannot_be():
    # defend_two's guilty wild draw four goes back to the hand: which copy of the face it was is the
    # discard pile's order, which hands counted per face do not keep
    code, out, err = run_cli("simulate", "classic", "--include", "defend_two", "-n", "20", "-w", "1")
    assert code == 0, err
    assert "simulator: generated Python, the engine's games" in out
    assert "hands counted per face do not cover `take back` with hands counted per face" in out
    code, out, err = run_cli("simulate", "classic", "--include", "defend_two", "-n", "5", "--simulator", "counted")
    assert code == 2 and "cannot run as counted code" in err and "`take back`" in err


def counted_against_engine(spec: RunSpec, games: int = 20_000):
    """Counted hands, and native code (issue 31) where numba is installed, play the engine's
    distribution of games: decisions per game and seat 0's win rate within 3 standard errors of
    the engine's, over `games` games each, against the same engine games
    (bench/counted_vs_engine.py measures it with the engine itself, there for any rulebook)."""
    native = NATIVE_REQUIRED or importlib.util.find_spec("numba") is not None
    # the engine's games are played by generated code, held here to the engine game for game over
    # the first 300 (five times faster than the engine, within CI's time; the bench uses the engine)
    same_games(spec, games=300)
    m = measure(spec, games, native=native, engine="generated")
    assert abs(m["z_decisions"]) < 3 and abs(m["z_seat0"]) < 3, m
    assert not m["same_games"]                  # not the engine's games: its own random stream
    if native:
        assert abs(m["z_native_decisions"]) < 3 and abs(m["z_native_seat0"]) < 3, m


@pytest.mark.parametrize("name, agents", [("rlcard", ("random",)), ("official", ("random_play",)),
                                          ("official", ("greedy",))])
def test_counted_hands_play_the_engines_distribution_of_games(name, agents):
    counted_against_engine(RunSpec(name, players=4, seed=5, agents=agents, rounds="single"))


def test_compile_emit_python_prints_the_source_simulate_runs():
    code, out, err = run_cli("compile", "rlcard", "--emit", "python", "-p", "3", "--agents", "random_play")
    assert code == 0
    game = make_game(RunSpec("rlcard", players=3))
    assert out == Program(game, ("random_play",) * 3).source
    compile(out, "<emitted>", "exec")
    code, counted, err = run_cli("compile", "rlcard", "--emit", "python", "-p", "3", "--agents", "random_play", "--counted")
    assert code == 0 and counted == Program(game, ("random_play",) * 3, "counted").source != out
    assert "hm[p] & FACES_TO" in counted and "hands[" not in counted
    code, out, err = run_cli("compile", "flip", "--emit", "python")
    assert code == 1 and "double-faced cards" in err and "Traceback" not in err


def test_a_branch_decided_when_the_code_is_written_is_written_as_the_branch_that_runs():
    """With one agent at every seat, which agent a seat has is known when the code is written:
    the source keeps only what that agent does (no `if False:` blocks), and plays the same games."""
    game = make_game(RunSpec("official", players=4, agents=("greedy",), rounds="single"))
    one = Program(game, ("greedy",) * 4).source
    mixed = Program(game, ("greedy", "random") * 2).source
    assert "if False:" not in one and "if True:" not in one
    assert "if False:" not in mixed
    assert "SIDE_COLORS[int(arnd() * NCOLORS)]" not in one        # random's color, never chosen here
    assert "SIDE_COLORS[int(arnd() * NCOLORS)]" in mixed and "held[m] > held[j]" in mixed
    compile(one, "<emitted>", "exec")
    spec = RunSpec("official", players=4, seed=3, agents=("greedy",), rounds="single")
    runs = {}
    for simulator in ("generated", "engine"):
        wins = []
        run_range(replace(spec, simulator=simulator), 0, 30, on_game=lambda s: wins.append((s.winner, s.counts["decisions"])))
        runs[simulator] = wins
    assert runs["generated"] == runs["engine"]


# ---- what generated source is made of -----------------------------------------------------------

BENIGN = {"rulebook_name": "plain", "title": "A plain game", "red": "red", "blue": "blue",
          "skip": "skip", "wild": "wild", "option": "bonus", "calm": "calm", "loud": "loud", "how": "how",
          "mood": "mood", "text": "quiet", "tally": "tally", "mark": "mark"}
HOSTILE = {"rulebook_name": "__import__", "title": "'); __import__('os').system('rm -rf /') #{} \\ ñandú ✓",
           "red": "exec", "blue": "lambda", "skip": "__builtins__", "wild": "eval", "option": "os",
           "calm": "globals", "loud": "__class__", "how": "compile", "mood": "getattr",
           "text": "\\'); open('/etc/passwd').read() #", "tally": "__dict__", "mark": "setattr"}


def named_rulebook(n: dict) -> str:
    return f"""rulebook {n['rulebook_name']} "{n['title']}"
players 2..6
colors {n['red']} {n['blue']}
option {n['option']} = 2
option {n['mood']} = "{n['loud']}"
counter {n['tally']} per player hidden
flag {n['mark']} reset each turn
card 0..5 {{
  number
  points card.rank
}}
card {n['skip']} {{
  action
  points {n['option']} * 10
  on play:
    next lose turn
    if card.color == {n['red']} {{ next draw {n['option']} }}
  on turn_up: next lose turn
}}
card {n['wild']} {{
  wild
  points 50
  playable when not me.hand.any(card.kind == {n['skip']} or card.color == current_color)
  on play:
    choose color
    set color {n['blue']}
    choose one of {n['calm']}, {n['loud']} as {n['how']}
    if {n['how']} == "{n['calm']}" {{ next draw 1 }}
    if {n['how']} == {n['mood']} {{ reverse }}
    if {n['mood']} == "{n['text']}" {{ play again }}
    add 1 to {n['tally']}
    set {n['mark']}
    if me.{n['tally']} > 2 and {n['mark']} {{ next draw 1 }}
  on turn_up: next choose color
}}
deck {{
  per color: 1 × 0, 2 × 1..5, 2 × {n['skip']}
  4 × {n['wild']}
}}
"""


def test_hostile_names_and_strings_cannot_change_the_generated_source(tmp_path):
    sources, counted, entered, stepped, followed = [], [], [], [], []
    for names in (BENIGN, HOSTILE):
        path = tmp_path / f"{len(sources)}.uno"
        path.write_text(named_rulebook(names), encoding="utf-8")
        spec = RunSpec(str(path), players=3, agents=("random",), rounds="single")
        program = same_games(spec, games=10)             # it runs, and plays the engine's games
        sources.append(program.source)
        counted.append(Program(program.game, ("random",) * 3, "counted").source)
        entered.append(Program(program.game, ("greedy",) * 3, entry=True).source)    # a search's playouts
        stepped.append(Program(program.game, (EXTERNAL,) * 3).source)                # the step API
        followed.append(Program(program.game, (EXTERNAL,) * 3, entry=True).source)   # a scenario followed
    for made in (sources, counted, entered, stepped, followed):
        assert made[0] == made[1]                       # byte for byte
    assert "FMASK" in counted[1]              # the wild's face predicate became a table of face masks
    assert "def play_from(START" in entered[1] and "def play_from(START" in followed[1]
    assert "OPTION_IDS" in stepped[1]         # the named options' choice is a stop, by the options' ids
    assert "(mem0, mem1, )" in stepped[1] and "setmem0, mem1, seats = START" in followed[1]   # counters at stops, entered
    for source in (sources[1], counted[1], entered[1], stepped[1], followed[1]):
        assert_only_made_names(source)


def assert_only_made_names(source: str):
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    assert not [t for t in tokens if t.type == tokenize.STRING]          # no text literal at all
    names = {t.string for t in tokens if t.type == tokenize.NAME}
    for word in ("import", "os", "system", "exec", "eval", "__import__", "__builtins__", "lambda"):
        assert word not in names
    numbers = [t.string for t in tokens if t.type == tokenize.NUMBER]
    assert all(n.replace(".", "", 1).isdigit() for n in numbers)


def test_generated_code_is_registered_with_linecache_and_shows_in_tracebacks():
    game = make_game(RunSpec("rlcard", players=2))
    program = Program(game, ("random", "random"))
    assert linecache.getlines(program.filename) == program.source.splitlines(True)
    with pytest.raises(TypeError) as info:
        program._play(object(), (False, False), None, set())     # a bad seed: fails before the game starts
    text = "".join(traceback.format_tb(info.value.__traceback__))
    assert program.filename in text and "rnd = RANDOM(seed).random" in text


class Boom(list):
    def __getitem__(self, i):
        raise IndexError("boom")


@pytest.mark.parametrize("representation", ["cards", "counted"])
def test_a_runtime_error_in_generated_code_names_the_rule_it_came_from(representation):
    game = make_game(RunSpec("rlcard", players=2))
    program = Program(game, ("random", "random"), representation)
    defaults = dict(zip(program._play.__code__.co_varnames[4:program._play.__code__.co_argcount],
                        program._play.__defaults__))
    defaults["WILD"] = Boom(defaults["WILD"])           # `card.wild` now fails wherever a rule reads it
    program._play.__defaults__ = program._play_quiet.__defaults__ = tuple(defaults.values())
    for table in [t for t in program._play.__globals__ if t.startswith("FMASK")]:
        program._play.__globals__[table] = Boom()       # where the wild's rule became a table of face masks
    records = [program.play(seed, ["random"] * 2) for seed in range(40)]
    failed = [r for r in records if r.outcome == "error"]
    assert failed
    rlcard = (ROOT / "rulebooks" / "rlcard.uno").read_text().splitlines()
    where = failed[0].error.where
    file, line, col = where.rsplit(":", 2)
    assert Path(file).name == "rlcard.uno" and "card.wild" in rlcard[int(line) - 1]
    assert str(failed[0].error).startswith(where) and "the rule failed: boom" in str(failed[0].error)


def test_not_covered_is_a_reason_in_words():
    from unorules.codegen.generator import coverage
    assert coverage(make_game(RunSpec("rlcard", players=2)), ("random", "random")) is None
    assert coverage(make_game(RunSpec("flip", players=2)), ("random",) * 2) == "double-faced cards"
    with pytest.raises(NotCovered):
        Program(make_game(RunSpec("rlcard", players=2)), ("ismcts", "random"))
    with pytest.raises(ValueError):           # code generated for some agents plays only those
        Program(make_game(RunSpec("rlcard", players=2)), ("random", "random")).play(1, ("greedy", "greedy"))


def test_an_events_file_written_by_generated_code_is_the_engines_byte_for_byte(tmp_path):
    files = []
    for simulator in ("generated", "engine"):
        path = tmp_path / f"{simulator}.jsonl"
        code, out, err = run_cli("simulate", "official", "-n", "12", "-p", "3", "--agents", "greedy,random_play",
                                 "--rounds", "rulebook", "--events", path, "--simulator", simulator)
        assert code == 0, err
        files.append(path.read_bytes())
    assert files[0] == files[1] and files[0].count(b"\n") > 1000
    code, out, err = run_cli("replay", tmp_path / "generated.jsonl")
    assert code == 0 and "every event replays the same" in out


def test_an_events_file_of_counted_hands_says_so_and_replays_with_them(tmp_path):
    path = tmp_path / "counted.jsonl"
    code, out, err = run_cli("simulate", "official", "-n", "12", "-p", "3", "--agents", "greedy,random_play",
                             "--rounds", "rulebook", "--events", path)
    assert code == 0, err
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["simulator"] == "counted" and len(lines) > 1000
    code, out, err = run_cli("replay", path)
    assert code == 0 and "every event replays the same" in out
    k = next(k for k, line in enumerate(lines) if '"type":"turn","round":1,"player":1' in line)
    seq = json.loads(lines[k])["seq"]
    lines[k] = lines[k].replace('"player":1', '"player":2')          # a tampered file does not replay
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run_cli("replay", path)
    assert code != 0 and f"game 0, event {seq}" in (out + err)


def test_next_inside_a_loop_is_the_loop_players_own_as_in_the_engine():
    """`each player give 1 card to next`: every card goes to its giver's next player, in generated
    code as in the engine (tests/scenarios/language/loops.yaml pins the ring)."""
    for agents in (("random_play",), ("greedy", "random")):
        same_games(RunSpec(str(DATA / "ring.uno"), players=4, rounds="single", agents=agents), games=15)


@pytest.mark.parametrize("agents", [("random",), ("greedy", "random_play")])
def test_the_house_rules_constructs_play_the_engine_s_games(agents):
    """tests/data/house_rules.uno (the constructs of issue 29, pinned by tests/scenarios/house/):
    generated code plays the engine's games."""
    same_games(RunSpec(str(DATA / "house_rules.uno"), players=3, rounds="single", agents=agents), games=30)


@pytest.mark.parametrize("source, include, with_", [
    ("official", ("lazy_scoring",), ()),                 # `no points`, one round
    ("official", ("average_scoring",), ()),              # `winner scores EXPR`, shipped
    ("official", (), ("three_blanks",)),                 # `replace N × KIND with NAME`
    ("attack", (), ()),                                  # `repeat until ... at most N` and `let`, shipped
])
def test_the_shipped_files_of_issue_29_play_the_engine_s_games(source, include, with_):
    same_games(RunSpec(source, include=include, with_=with_, players=3, rounds="single", agents=("random",)),
               games=20)


def test_a_skipped_turn_ends_a_value_kept_until_the_next_turn_as_in_the_engine(tmp_path):
    """A skipped turn is that player's turn (turns.advance): generated code clears the values kept
    until it the same way (tests/scenarios/language/lifetimes.yaml pins the engine's)."""
    (tmp_path / "lifetimes.uno").write_text((DATA / "lifetimes.uno").read_text())
    p = tmp_path / "skips.uno"
    p.write_text("rulebook skips\nextends lifetimes\nremove card mark_out\n")
    for agents in (("random_play",), ("greedy", "random")):
        same_games(RunSpec(str(p), players=3, rounds="single", agents=agents), games=20)


# ---- the implementation's names live apart from the rulebook's ---------------------------------

def test_every_internal_key_of_an_env_or_scope_is_unreachable_from_the_language():
    """Every key the engine or the generator reads or writes in a rule's env or scope is a name of
    the language's vocabulary or starts with `@`, which no rulebook name can: a rulebook's `choose
    ... as NAME` or loop name can never overwrite the implementation's own."""
    import re
    from unorules.language.vocab import GLOBAL_NAMES, SCOPED_NAMES
    pattern = re.compile(r'\b(?:env|scope|inner|fired|tenv|env_q)(?:\.get\(|\.pop\(|\[)"([^"]+)"')
    literal = re.compile(r'\{\*\*(?:env|scope|inner), ((?:"[^"]+": [^,}]+,? ?)+)\}')
    keys = set()
    package = ROOT / "unorules"             # where rules run (not the checker or explain)
    runtime = [*package.glob("engine/*.py"), *package.glob("codegen/*.py"), package / "agents/search.py",
               package / "agents/belief.py"]
    assert len(runtime) > 20 and all(p.is_file() for p in runtime)
    for path in runtime:
        text = path.read_text()
        keys |= set(pattern.findall(text))
        for group in literal.findall(text):
            keys |= set(re.findall(r'"([^"]+)":', group))
    assert keys, "the scan found no keys"
    internal = {k for k in keys if k not in GLOBAL_NAMES and k not in SCOPED_NAMES}
    assert internal and all(k.startswith("@") for k in internal), sorted(internal)
    from unorules.errors import RulebookError
    from unorules.language.parser import parse_uno
    for k in internal:                    # and no rulebook can spell one
        try:
            _, _, problems = parse_uno(f"rulebook r\nextends classic\ncard skip {{ on play: choose one of a, b as {k} }}\n")
        except RulebookError:
            continue
        assert problems, k


def _named_rulebook(n):
    return (f"rulebook named\nextends official\ncard wild_customizable {{\n  on play:\n    choose color\n"
            f"    choose one of calm, loud as {n}\n    if {n} == \"loud\" {{ next draw 1 }}\n"
            f"    each other as {n}x {{ draw 1 }}\n}}\n")


def _named_logs(folder, n):
    """The engine's logs of 8 games of the rulebook with its names spelt `n`, once generated code
    is seen to play the same games."""
    path = folder / f"{n}.uno"
    path.write_text(_named_rulebook(n))
    spec = RunSpec(str(path), players=4, agents=("random",), rounds="single")
    same_games(spec, games=8)                 # generated code plays the engine's games
    game = make_game(spec, log_events=True)
    return [play_one(game, spec, i).log for i in range(8)]


@pytest.fixture(scope="module")
def plain_logs(tmp_path_factory):
    return json.dumps(_named_logs(tmp_path_factory.mktemp("plain"), "plain"))


@pytest.mark.parametrize("name", ["_who", "_given", "_color", "_atk", "_batch", "legal_play", "who", "given"])
def test_a_rulebook_name_spelt_like_an_old_internal_one_changes_nothing(tmp_path, name, plain_logs):
    same = json.dumps(_named_logs(tmp_path, name)).replace(f'"{name}"', '"plain"').replace(f'"{name}x"', '"plainx"')
    assert same == plain_logs             # the name changes nothing but itself in the log


def test_the_leader_plays_first_whichever_way_a_round_start_rule_turns_play(tmp_path):
    """`next leader winner` with `on round_start: reverse`: the leader opens each later round
    (unless the first card turned up says otherwise), in the engine and the generated code alike."""
    import random as random_
    import unorules
    path = tmp_path / "lead.uno"
    path.write_text("rulebook lead\nextends classic\non round_start: reverse\n"
                    "scoring {\n  winner scores others\n  rounds 3\n  next leader winner\n}\n")
    same_games(RunSpec(str(path), players=4, agents=("random_play",), rounds="rulebook"), games=12)
    game = unorules.Game(str(path), 4, rounds="match", log_events=True)
    led = opened = 0
    for seed in range(10):
        s = game.new_state(seed)
        rng = random_.Random(seed)
        while not s.terminal:
            d = s.decision
            s.apply_action(rng.choices(d.options, d.probs)[0] if d.probs else rng.choice(d.options))
        leader, first = None, None
        for e in s.log:
            if e["type"] == "round_start":
                leader, first = e.get("leader"), None
            elif e["type"] == "turn_up":
                first = e["card"]
            elif e["type"] == "turn" and leader is not None and first is not None:
                if first.split()[-1] not in ("skip", "reverse", "draw_two", "wild_draw_four"):
                    led += 1
                    opened += e["player"] == leader
                leader = None
    assert led > 5 and opened == led


def test_a_score_that_reads_the_score_logs_what_it_added(tmp_path):
    """`score me.score + 1`: the amount is judged once; the event logs it (the engine had judged it
    again after adding), so generated code's events equal the engine's and replay."""
    path = tmp_path / "self_score.uno"
    path.write_text("rulebook self_score\nextends classic\non play of 7: score me.score + 1\n")
    spec = RunSpec(str(path), players=3, agents=("random_play",), rounds="single")
    same_games(spec, games=20)
    game = make_game(spec, log_events=True)
    events = []
    for i in range(20):
        log = play_one(game, spec, i).log
        events += [e for before, e in zip(log, log[1:]) if e["type"] == "score" and before["type"] == "play"
                   and before["card"].endswith(" 7")]
    assert events and all(e["total"] == 2 * e["points"] - 1 for e in events)


@pytest.mark.parametrize("target, passed_to", [
    ("most(each other as q where q.hand.size > 100: q.hand.size)", "next"),
    ("next", "fewest(each other as q where q.hand.size > 100: q.hand.size)"),
])
def test_an_attack_on_nobody_does_nothing_in_the_engine_and_the_generated_code(tmp_path, target, passed_to):
    """An attack on nobody, or passed to nobody, does nothing (docs/language.md: an action on
    nobody does nothing): the engine had failed with a TypeError, the generated code otherwise."""
    path = tmp_path / "nobody.uno"
    path.write_text(f"rulebook nobody\nextends classic\ncard draw_two {{\n  action\n  points 20\n"
                    f"  on play: attack {target} penalty 2 {{ draw penalty; lose turn }}\n}}\n"
                    f"react to draw_two with draw_two: add 2; pass attack to {passed_to}\n")
    for agents in (("random_play",), ("greedy", "random")):
        spec = RunSpec(str(path), players=3, agents=agents, rounds="single")
        same_games(spec, games=15)
        game = make_game(spec, log_events=True)
        assert all(play_one(game, spec, i).outcome == "win" for i in range(15))


@pytest.mark.parametrize("body, message", [
    ("scoring {\n  winner scores others\n  rounds 3\n  next dealer most(each other as q where q.hand.size > 500: q.score)\n}\n",
     "the next dealer or leader must be a player, not nobody"),
])
def test_the_engines_runtime_errors_name_the_rule_as_the_generated_codes_do(tmp_path, body, message):
    path = tmp_path / "located.uno"
    path.write_text("rulebook located\nextends classic\n" + body)
    for simulator in ("engine", "generated"):
        spec = RunSpec(str(path), players=3, agents=("random_play",), rounds="rulebook", simulator=simulator)
        summary = run_range(spec, 0, 3).as_dict(3)
        errors = summary["errors"]
        assert errors and all(e.startswith(f"{path}:6:") and message in e for e in errors), (simulator, errors)


def test_the_trigger_depth_cap_names_the_rule(tmp_path):
    from unorules.errors import RuleRuntimeError
    from unorules.engine.types import MAX_TRIGGER_DEPTH
    path = tmp_path / "deep.uno"
    path.write_text("rulebook deep\nextends classic\non play: may play any card\n")
    import unorules
    game = unorules.Game(str(path), 2, rounds="single")
    s = game.new_state(0)
    s.depth = MAX_TRIGGER_DEPTH             # as deep as the cap: the next trigger is refused, at its rule
    try:
        while not s.terminal:
            d = s.decision
            s.apply_action(next((a for a in d.options if a.kind == "play"), d.options[0]))
    except RuleRuntimeError as e:
        assert e.where == f"{path}:3:1" and "more than" in str(e)
        return
    assert s.outcome == "error" and s.error.where == f"{path}:3:1", s.error


def test_a_game_stops_as_stalled_after_its_total_turns_in_both_runners(monkeypatch):
    """Rounds are capped in turns, and so is a whole game over all its rounds (MAX_GAME_TURNS,
    here made small): a match of many long rounds ends `stalled` there, the same in both."""
    import unorules.codegen.turns as codegen_turns
    import unorules.engine.turns as turns
    monkeypatch.setattr(turns, "MAX_GAME_TURNS", 60)
    monkeypatch.setattr(codegen_turns, "MAX_GAME_TURNS", 60)
    spec = RunSpec("official", players=4, agents=("random_play",), rounds="match")
    same_games(spec, games=6)
    game = make_game(spec, log_events=True)
    for i in range(6):
        s = play_one(game, spec, i)
        assert s.outcome == "stalled" and s.game_turns <= 61


def test_a_face_predicate_at_the_round_start_needs_no_top_card_with_hands_counted(tmp_path):
    """`on round_start if me.hand.any(card.wild)`: counted code tested the hand with a table indexed
    by the top card, and there is none yet (every game failed); now it plays its reference's games."""
    path = tmp_path / "start.uno"
    path.write_text("rulebook start\nextends classic\non round_start if me.hand.any(card.wild): draw 1\n")
    spec = RunSpec(str(path), players=3, agents=("random_play",), rounds="single")
    assert same_games(spec, games=10) is not None
    game = make_game(spec, log_events=True)
    assert same_as_reference(game, spec, 10) is not None          # counted hands cover it, and agree


def test_the_first_card_flag_is_false_before_any_card_is_turned_up(tmp_path):
    """`on round_start if first_card`: read before the first card is turned up, generated code had
    no value for it yet (UnboundLocalError; found by bench/differential.py, seed 1027)."""
    path = tmp_path / "first.uno"
    path.write_text("rulebook first\nextends classic\non round_start if first_card: draw 1\n"
                    "on round_start if not first_card: next draw 1\n")
    same_games(RunSpec(str(path), players=3, agents=("random_play",), rounds="rulebook"), games=8)


def test_attacks_answered_back_and_forth_without_end_stall_the_round_in_both(tmp_path, monkeypatch):
    """A turn whose attacks are answered back and forth without end (every answer makes the others
    draw, so hands never run out of answers) ends the round as stalled after MAX_TURN_DECISIONS of
    an agent's decisions, in the engine and generated code alike (found by bench/differential.py)."""
    import unorules.codegen.turns as codegen_turns
    import unorules.engine.state as state
    monkeypatch.setattr(state, "MAX_TURN_DECISIONS", 40)
    monkeypatch.setattr(codegen_turns, "MAX_TURN_DECISIONS", 40)
    path = tmp_path / "endless.uno"
    path.write_text("rulebook endless\nextends classic\nreact to skip, reverse, draw_two with any action:\n"
                    "  each other draw 2\n  pass attack to next\non play of skip: attack next penalty 1 { draw penalty }\n")
    spec = RunSpec(str(path), players=3, agents=("greedy",), rounds="single")
    same_games(spec, games=6)
    game = make_game(spec, log_events=True)
    assert any(play_one(game, spec, i).outcome == "stalled" for i in range(6))


LEFT_TO_THE_ENGINE = [
    ("on play of wild: put card in front of me", "the place in front of players"),
    ("play only when card.color != red or me.hand.size > 2",
     "a table-wide play rule (`play only when`, `may play on anything when`)"),
    ("may play on anything when me.hand.size == 1",
     "a table-wide play rule (`play only when`, `may play on anything when`)"),
    ("turn { may pass }", "`may pass`"),
    ("false uno call: draw 2", "a false call's price (`false uno call: ...`)"),
    ("turn { when the draw pile runs out: new deck }", "a fresh deck when the piles are spent (`new deck`)"),
    ("flag hot reset at next turn\non play of 0: set hot\non draw if hot: draw 1",
     "a value kept until a player's next turn begins (`reset at next turn`)"),
    ("on play if me.hand.count(c where c.color == card.color) > 2: draw 1",
     "a method that names its card (`count(c where ...)`)"),
    ("remove scoring target\nscoring { no points\nrounds 3 }",
     "a match of rounds won without points (`no points` with `rounds`)"),
]


@pytest.mark.parametrize("rule, reason", LEFT_TO_THE_ENGINE)
def test_constructs_the_generator_leaves_to_the_engine_name_their_reason(tmp_path, rule, reason):
    from unorules.codegen.generator import coverage
    path = tmp_path / "rule.uno"
    path.write_text(f'rulebook rule "x"\nextends classic\n{rule}\n')
    assert coverage(make_game(RunSpec(str(path), players=4)), ("random",) * 4) == reason
    assert coverage(make_game(RunSpec("classic", players=4)), ("random",) * 4) is None


@pytest.mark.parametrize("module", ["shield", "lucky_charm", "red_lock", "last_of_a_color"])
def test_the_shipped_custom_cards_the_generator_leaves_name_a_reason(module):
    from unorules.codegen.generator import coverage
    reason = coverage(make_game(RunSpec("official", with_=(module,), players=4)), ("random",) * 4)
    assert reason in {r for _, r in LEFT_TO_THE_ENGINE}


RULED_KINDS = """rulebook ruled "Kinds judged by rules of their own: several faces, one face, wild or not"
players 2..6
colors COLORS
card 0..9 {
  number
  points card.rank
  playable when card.rank != 7 or me.hand.size > 3
}
card skip {
  action
  points 20
  legal when me.hand.size < 9
  playable when top.kind != skip
  on play: next lose turn
}
card wild {
  wild
  points 50
  on play: choose color
}
card wild_draw_four {
  wild
  points 50
  playable when not me.hand.any(card.kind != wild_draw_four and (card.wild or card.color == current_color))
  on play:
    choose color
    attack next penalty 4 { draw penalty; lose turn }
}
deck {
  per color: 2 × 0, 2 × 1..9, 2 × skip
  4 × wild
  2 × wild_draw_four
}
setup { hand 7 }
turn { draw only when stuck }
scoring { single round }
"""


@pytest.mark.parametrize("colors, loops, ifs", [("red green blue yellow", 11, 1), ("red", 0, 12)])
@pytest.mark.parametrize("agents", [("random",), ("greedy", "random_play")])
def test_kinds_judged_by_rules_of_their_own_are_judged_face_by_face_with_the_kind_known(colors, loops, ifs, agents,
                                                                                        tmp_path):
    """Counted hands judge each such kind's held faces with its kind written in (RULED_MASKS): a
    kind of several faces in a loop over its mask, a kind of one face (the wild_draw_four; with
    one color, every kind) without one; the tests in the kind's order, the first refusal the last,
    a wild's match not asked. The engine's games and the reference's, game for game."""
    path = tmp_path / "ruled.uno"
    path.write_text(RULED_KINDS.replace("COLORS", colors), encoding="utf-8")
    spec = RunSpec(str(path), players=3, seed=5, agents=agents, rounds="single")
    src = Program(make_game(spec), tuple(seat_agents(spec)), "counted").source
    options = src.split("legal = hm[p] & FACES_TO")[1].split("total =")[0]
    assert options.count("ruled = legal & RULED_MASKS[") == loops
    assert options.count("if legal & RULED_MASKS[") == ifs
    assert "k = CKIND[c]" not in options and "WILD[" not in options      # the kind is known where it is judged
    assert options.count("elif not (CCOLOR[c] == color") == loops + ifs - 1     # but the wild's
    same_games(spec, games=40)


@pytest.mark.parametrize("agents", [("random",), ("greedy", "random"), ("random_play",)])
def test_just_drawn_is_the_turn_s_drawn_card_in_generated_code_as_in_the_engine(agents):
    """tests/data/just_drawn.uno (pinned by tests/scenarios/language/just_drawn.yaml): `just_drawn`
    judged while a card's playability is (its kind's rule) and in its `on play` rule."""
    program = same_games(RunSpec(str(DATA / "just_drawn.uno"), players=3, rounds="single", agents=agents),
                         games=40)
    assert "turn_drawn = card" in program.source
