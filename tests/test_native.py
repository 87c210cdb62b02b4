"""Native code (issue 31): the counted program lowered to numba (unorules/native). It must play its
Python reference's very games: the counted Python code on the same SplitMix64 streams, game for
game, every field simulate reads (winner, outcome, rounds with their turns and draws, scores,
counts, the followed players). Distribution against the engine is held in test_codegen.py, beside
the counted code's. Skipped without numba, except in CI (UNORULES_REQUIRE_EXTRAS), which installs
the extra `unorules[native]`; bench/native_check.py plays every shipped rulebook this way."""
from __future__ import annotations

import ast
import io
import os
import random
import re
import subprocess
import sys
import tokenize
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from helpers import run_cli

REQUIRED = bool(os.environ.get("UNORULES_REQUIRE_EXTRAS"))
ROOT = Path(__file__).resolve().parent.parent

from unorules.native.rng import SplitMix, mix  # noqa: E402  (pure Python: always tested)


def test_splitmix_gives_the_published_sequence():
    """SplitMix64 (Vigna's splitmix64.c) from seed 1234567: its first outputs, as published."""
    s = SplitMix(1234567)
    outputs = []
    for _ in range(3):
        s.state = (s.state + 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
        outputs.append(mix(s.state))
    assert outputs == [6457827717110365317, 3203168211198807973, 9817491932198370423]
    r = SplitMix(1234567).random()
    assert r == (6457827717110365317 >> 11) / 2 ** 53 and 0 <= r < 1


numba = pytest.importorskip("numba") if not REQUIRED else __import__("numba")

from unorules.codegen.generated import Program  # noqa: E402
from unorules.native.program import NativeProgram  # noqa: E402
from unorules.native.tables import NotNative  # noqa: E402
from unorules.runs.simulation import RunSpec, make_game, run_range, seat_agents, simulate  # noqa: E402


@pytest.fixture
def cache():
    """The session's native cache (conftest.py points XDG_CACHE_HOME at a fresh folder): each
    variant compiles once in the whole suite."""
    from unorules.native.cache import cache_dir
    return cache_dir()


def native_of(spec: RunSpec) -> NativeProgram:
    game = make_game(spec)
    return NativeProgram(game, tuple(seat_agents(spec)))


def same_games(program: NativeProgram, games: int, seed: int = 0):
    """Native rows against the reference's records, game for game; returns the rows."""
    from unorules.runs.simulation import game_seed
    seeds = [game_seed(seed, i) for i in range(games)]
    out, wrong = program.differing(seeds)
    assert not wrong, [(g, seeds[g], record.outcome, record.error) for g, record in wrong]
    return out


# every construct family the shipped files use, within CI's time (bench/native_check.py: all of them)
SHIPPED = [
    ("rlcard", (), ("random",), "single"),
    ("official", (), ("random_play", "random", "greedy"), "rulebook"),      # a match, every inlined agent
    ("classic", (), ("random",), "single"),
    ("official_swap", (), ("random",), "single"),                          # hands swapped: rows of a grid
    ("nonpartisan", (), ("random",), "single"),                            # lists of pairs
    ("official", ("rulebooks/custom/everyone_draws.uno",), ("random",), "single"),
    ("official", ("rulebooks/custom/rock_paper_scissors.uno",), ("random",), "single"),     # chance
]


@pytest.mark.parametrize("source, with_, agents, rounds", SHIPPED)
def test_native_code_plays_its_references_games(source, with_, agents, rounds):
    spec = RunSpec(source, with_=with_, players=4, agents=agents, rounds=rounds)
    program = native_of(spec)
    out = same_games(program, 150)
    assert program.replayed <= (out[:, 0] != 0).sum()   # only games that end in an error or a stall
    assert (out[:, 0] == 0).sum() >= 100         # most games end in a win, played in compiled code


def fuzzed_spec(seed: int, folder: Path) -> RunSpec:
    from fuzz_rulebooks import fuzzed_rulebook
    rng = random.Random(seed)
    path = folder / f"fuzzed{seed}.uno"
    path.write_text(fuzzed_rulebook(rng).replace(" x ", " × "), encoding="utf-8")
    agents = rng.choice([("random",), ("greedy",), ("random_play",)])
    return RunSpec(str(path), players=rng.randint(2, 5), agents=agents, rounds="single", seed=seed)


def test_an_index_read_unsigned_is_the_reference_s_cell_and_a_negative_one_raises(cache):
    """rlcard's legal set, as the lowering writes it (every index np.uint64: indexes.py), compiled
    with the program's own tables and JIT options: the reference's row for NO_COLOR and every
    colour, over every top; a colour below NO_COLOR or a seat of -1, which Python would read from
    the end, raise IndexError instead, which the program answers by playing the game again in
    Python (program.py's RAISED), so the game still ends as the reference's does."""
    import numpy as np
    from numba import njit
    from unorules.native.program import RAISED
    from unorules.native.runtime import JIT
    prog = native_of(RunSpec("rlcard", players=4, agents=("random",), rounds="single"))
    line = next(l.strip() for l in prog.source.splitlines() if l.strip().startswith("legal = hm[np.uint64(p)] & "))
    assert "FACES_TO[np.uint64(color + 1), " in line
    scope = dict(vars(prog.module))
    exec(f"def legal_of(hm, p, color, discard_top_):\n    {line}\n    return legal\n", scope)
    legal_of = njit(**{**JIT, "cache": False})(scope["legal_of"])
    ref = prog.reference.namespace                      # the counted program the native one was lowered from
    hm = np.array([-1, 0], np.int64)                    # a hand of every face
    for color in range(-1, len(ref["SIDE_COLORS"])):
        for top in range(len(ref["CKIND"])):
            assert legal_of(hm, 0, color, top) == ref["FACES_TO"][color + 1][ref["CKIND"][top]], (color, top)
    for color, p in ((-2, 0), (0, -1)):                 # Python: the last row, the last seat
        with pytest.raises(RAISED):
            legal_of(hm, p, color, 0)


def test_native_code_refuses_to_run_with_numba_s_bounds_checks_turned_off(monkeypatch):
    """NUMBA_BOUNDSCHECK=0 turns numba's bounds checks off in every function; native code relies on
    them (a wrong or negative index raises, and the reference plays that game), so `native` says
    why it cannot run and `auto` stays counted."""
    from numba.core import config
    from unorules.runs import simulation
    monkeypatch.setattr(config, "BOUNDSCHECK", 0)
    code, out, err = run_cli("simulate", "rlcard", "-n", "10", "--simulator", "native")
    assert code != 0 and "NUMBA_BOUNDSCHECK=0" in err and "Traceback" not in err
    spec = RunSpec("rlcard", players=4, agents=("random",), rounds="single", simulator="auto")
    game = make_game(spec)
    assert simulation.resolve_simulator(spec, game, simulation.NATIVE_FROM).simulator != "native"


@pytest.mark.parametrize("k", range(3))
def test_fuzzed_rulebooks_play_their_references_games(k, tmp_path):
    """The k-th seeded random rulebook that native code covers (the lowering is tried on each seed
    in turn; the others must say why in words)."""
    from unorules.codegen.expressions import NotCovered
    from unorules.native.source import module_source
    covered = []
    for seed in range(200):
        spec = fuzzed_spec(seed, tmp_path)
        game = make_game(spec)
        try:
            module_source(Program(game, tuple(seat_agents(spec)), "counted", rng=SplitMix), spec.players)
        except (NotCovered, NotNative) as e:
            assert str(e) and "Traceback" not in str(e)
            continue
        covered.append(spec)
        if len(covered) > k:
            break
    assert len(covered) > k, "fewer than 3 of 200 fuzzed rulebooks run natively"
    same_games(native_of(covered[k]), 40, covered[k].seed)


def dealer_spec(folder: Path, name: str, size: int) -> RunSpec:
    """classic's match of 3 rounds whose next dealer is the other player of most points holding
    more than `size` cards: nobody (a rule error, at line 6) when none does."""
    path = folder / f"{name}.uno"
    path.write_text(f"rulebook {name}\nextends classic\nscoring {{\n  winner scores others\n  rounds 3\n"
                    f"  next dealer most(each other as q where q.hand.size > {size}: q.score)\n}}\n")
    return RunSpec(str(path), players=3, agents=("random_play",), rounds="rulebook", simulator="native")


def test_a_rule_error_in_native_code_is_named_as_the_reference_names_it(tmp_path):
    spec = dealer_spec(tmp_path, "located", 500)
    path = spec.source
    program = native_of(spec)
    out = same_games(program, 3)
    assert (out[:, 0] == 2).all() and program.replayed == 3          # raised out of compiled code
    errors = run_range(spec, 0, 3).as_dict(3)["errors"]
    assert errors and all(e.startswith(f"{path}:6:") and "must be a player, not nobody" in e for e in errors)


def colors_rulebook(folder: Path, colors: int, base: str = "rlcard") -> str:
    """rlcard's rules (or base's) with more colors: 13 faces a color and 2 wilds (6 colors: 80 faces)."""
    names = "red green blue yellow purple orange pink brown white black grey teal".split()[:colors]
    path = folder / f"{base}_colors{colors}.uno"
    path.write_text(f"rulebook colors{colors}\nextends {base}\ncolors {' '.join(names)}\n", encoding="utf-8")
    return str(path)


def test_a_deck_of_more_than_64_faces_plays_its_references_games(tmp_path):
    """80 faces: every mask in two machine words (wide.py), the very games of the reference
    (bench/native_check.py plays hot_death's 66 faces and showdown's 75 the same way)."""
    spec = RunSpec(colors_rulebook(tmp_path, 6), players=4, agents=("greedy",), rounds="single")
    program = native_of(spec)
    assert program.reference.namespace["NFACES"] == 80 and "n_wneg(" in program.source
    out = same_games(program, 150)
    assert (out[:, 0] == 0).sum() >= 100


def test_a_wide_hand_s_faces_are_walked_word_by_word_as_the_list_held_them(tmp_path):
    """nonpartisan's vetoes, played out of turn, are looked for in every other hand on every turn:
    with 6 colors the hands are two words, walked low word first (loops.py), the reference's games."""
    spec = RunSpec(colors_rulebook(tmp_path, 6, "nonpartisan"), players=4, agents=("random",), rounds="single")
    program = native_of(spec)
    assert program.reference.namespace["NFACES"] > 64 and "fw1_ = (hm[" in program.source
    out = same_games(program, 150)
    assert (out[:, 0] == 0).sum() >= 100


@pytest.mark.parametrize("agents", [("random",), ("greedy",)])
def test_a_number_chosen_from_a_range_plays_its_references_games(agents, tmp_path):
    """`choose number from 1 to 3` holds its numbers as a range, which numba cannot index: it is
    an array (scratch.ranges_as_arrays), and the games are the reference's (it fell back to counted
    code before, with numba's own error as the reason)."""
    card = tmp_path / "pick_a_number.uno"
    card.write_text('module pick_a_number "name a number, the next player draws that many"\nfor official\n'
                    'card wild_customizable {\n  on play:\n    choose color\n    choose number from 1 to 3 as k\n'
                    '    next draw k\n}\n', encoding="utf-8")
    spec = RunSpec("official", with_=(str(card),), players=4, agents=agents, rounds="single")
    program = native_of(spec)
    assert "vals = np.arange(lo, hi + 1)" in program.source
    out = same_games(program, 150)
    assert (out[:, 0] == 0).sum() >= 100


def test_a_deck_of_more_than_128_faces_is_refused_with_its_reason(tmp_path):
    path = colors_rulebook(tmp_path, 10)                              # 132 faces
    with pytest.raises(NotNative, match="more than 128 faces"):
        native_of(RunSpec(path, players=4, agents=("random",), rounds="single"))
    code, out, err = run_cli("simulate", path, "-n", "10", "--simulator", "native")
    assert code == 2 and "cannot run as native code" in err and "this deck has 132" in err


def test_a_cache_folder_that_cannot_be_written_is_a_reason_not_a_traceback(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("UNORULES_NATIVE_CACHE", str(blocker / "native"))
    code, out, err = run_cli("simulate", "rlcard", "-n", "10", "--simulator", "native")
    assert code == 2 and "cannot be made" in err and "UNORULES_NATIVE_CACHE" in err and "Traceback" not in err


def test_a_division_in_a_rule_is_refused_with_its_reason():
    """average_scoring divides: its result may be a fraction, and native code holds whole numbers."""
    with pytest.raises(NotNative, match="a division in a rule"):
        native_of(RunSpec("official", include=("average_scoring",), players=4, agents=("random",)))


def test_a_list_only_ever_empty_is_looped_over_by_nothing():
    """lazy_scoring's scoring gives nobody points: its list of gains is only ever empty, which
    numba cannot type; the loop over it is left out (bench/native_check.py plays its games)."""
    from unorules.native.source import module_source
    spec = RunSpec("official", include=("lazy_scoring",), players=4, agents=("random",))
    game = make_game(spec)
    source = module_source(Program(game, ("random",) * 4, "counted", rng=SplitMix), 4)
    assert "gained" not in source and "def play_game" in source


def test_no_array_is_assigned_to_a_slice_in_native_code():
    """numba compiles `x[i, :] = T` with the message of its shape error (about 1.6 s of a cold
    compile): official clears a hand from a table, play_batch copies the seats' agents, and killer
    passes hands round the table; each is a loop of runtime.py, which writes the same cells and
    raises on a length that differs."""
    import re
    import numpy as np
    from unorules.native.runtime import n_copy1, n_copy_row
    from unorules.native.source import module_source
    spec = RunSpec("official", players=4, agents=("greedy",))
    game = make_game(spec)
    source = module_source(Program(game, ("greedy",) * 4, "counted", rng=SplitMix), 4)
    assert "n_copy_row(hc, " in source and ", NO_FACES)" in source
    assert not re.search(r"\[[^\]]*:[^\]]*\] = [A-Za-z_]", source)
    spec = RunSpec("killer", players=4, agents=("greedy",))
    source = module_source(Program(make_game(spec), ("greedy",) * 4, "counted", rng=SplitMix), 4)
    assert "n_copy_row(hc, " in source and not re.search(r"\bhc\[q\] = ", source)
    grid = np.arange(12, dtype=np.int64).reshape(3, 4)
    n_copy_row(grid, 1, np.array([9, 8, 7, 6], np.int64))
    assert grid.tolist() == [[0, 1, 2, 3], [9, 8, 7, 6], [8, 9, 10, 11]]
    row = np.zeros(3, np.int64)
    n_copy1(row, np.array([4, 5, 6], np.int64))
    assert row.tolist() == [4, 5, 6]
    with pytest.raises(ValueError):
        n_copy_row(grid, 0, np.zeros(3, np.int64))
    with pytest.raises(ValueError):
        n_copy1(row, np.zeros(4, np.int64))


def test_a_list_as_a_stack_answers_as_python_s_list_does():
    """runtime.py's stack helpers for lists of numbers (stacks.lists_as_stacks) against a Python
    list over random operations: membership, remove, pop(i) with negative indexes, copy; the
    same values and the same errors (ValueError, IndexError)."""
    import numpy as np
    from unorules.native.runtime import n_stack_copy, n_stack_has, n_stack_new, n_stack_pop_at, n_stack_remove
    rng = random.Random(31)
    s, ref = n_stack_new(12), []
    for _ in range(3000):
        op, x = rng.randrange(5), rng.randrange(-3, 5)
        if op == 0 and len(ref) < 12:
            s[len(ref) + 1] = x
            s[0] += 1
            ref.append(x)
        elif op == 1:
            assert n_stack_has(s, x) == (x in ref)
        elif op == 2:
            if x in ref:
                ref.remove(x)
                n_stack_remove(s, x)
            else:
                with pytest.raises(ValueError):
                    n_stack_remove(s, x)
        elif op == 3:
            if -len(ref) <= x < len(ref):
                assert n_stack_pop_at(s, x) == ref.pop(x)
            else:
                with pytest.raises(IndexError):
                    n_stack_pop_at(s, x)
        else:
            t = n_stack_new(12)
            n_stack_copy(t, s)
            assert list(t[1:t[0] + 1]) == ref
        assert list(s[1:s[0] + 1]) == ref
    with pytest.raises(IndexError):
        n_stack_copy(n_stack_new(0), np.array([1, 5], np.int64))


def test_games_won_in_compiled_code_keep_their_rounds_when_a_later_game_of_the_batch_raises(tmp_path):
    """Some games raise (the next dealer may be nobody) and the rest end in compiled code, in one
    batch: the reference replays a raised game from where the batch stood at its start (now[1]),
    so the rounds of the games before it in the batch stay theirs. (Before, a raised game's rounds
    were written over those of the batch's first games.)"""
    program = native_of(dealer_spec(tmp_path, "sometimes", 4))
    out = same_games(program, 60)
    raised = int((out[:, 0] == 2).sum())
    assert program.replayed == raised and 5 <= raised <= 55 and (out[:, 12] > 1).any()


def test_n_below_is_int_of_n_rand_times_n():
    import numpy as np
    from unorules.native.runtime import n_below, n_rand
    a, b = np.zeros(1, np.uint64), np.zeros(1, np.uint64)
    a[0] = b[0] = np.uint64(12345)
    for n in [1, 2, 3, 7, 108, 2 ** 31 - 1, 2 ** 40 + 3] * 50:
        assert n_below(a, n) == int(n_rand(b) * n)
    assert a[0] == b[0]


def test_a_pick_in_integers_is_the_float_pick_even_where_rounding_reaches_the_next_number():
    """runtime._pick: int(a / 2**53 * n) in integers for a whole n below 2048, the float product
    where a * n lies near a multiple of 2**53 (there the float rounds up to the next number)."""
    import numpy as np
    from numba import njit
    from unorules.native.runtime import _pick

    @njit
    def picks(a, n, out):
        for j in range(a.shape[0]):
            out[j] = _pick(a[j], n[j])
    rng = random.Random(11)
    pairs = [(rng.getrandbits(53), rng.randrange(1, 2100)) for _ in range(20000)]
    for _ in range(20000):                              # a * n just below, at and above k * 2**53
        n = rng.randrange(2, 2048)
        a = ((rng.randrange(1, n) << 53) + n - 1) // n + rng.randrange(-4, 3)
        pairs.append((min(max(a, 0), (1 << 53) - 1), n))
    pairs += [(0, 1), ((1 << 53) - 1, 1), ((1 << 53) - 1, 2047), ((1 << 53) - 1, 2048), (12345, 0), (5, -3)]
    a = np.array([x for x, _ in pairs], np.uint64)
    n = np.array([k for _, k in pairs], np.int64)
    out = np.zeros(len(pairs), np.int64)
    picks(a, n, out)
    want = [int(x * (1.0 / (1 << 53)) * k) for x, k in pairs]
    assert out.tolist() == want
    rounded_up = sum(1 for (x, k), w in zip(pairs, want) if 0 < k < 2048 and w != (x * k) >> 53)
    assert rounded_up > 0          # the cases the integers alone would get wrong were among them


def test_the_nth_bit_of_a_mask_is_its_nth_face():
    import numpy as np
    from numba import njit
    from unorules.native.runtime import n_nth_bit

    @njit
    def nth(m, i):
        return n_nth_bit(np.int64(m), i)
    rng = random.Random(3)
    for _ in range(3000):
        m = rng.getrandbits(64)
        faces = [f for f in range(64) if m >> f & 1]
        for i in range(len(faces)):
            assert nth(m - (1 << 64) if m >> 63 else m, i) & ((1 << 64) - 1) == 1 << faces[i]


def test_where_numba_compiles_for_a_cpu_without_bmi2_the_nth_bit_is_a_loop(tmp_path):
    """NUMBA_CPU_NAME=generic (a portable cache): no pdep is declared, and the loop answers the same."""
    code = ("import numpy as np\nfrom numba import njit\nfrom unorules.native import runtime as R\n"
            "f = njit(lambda m, i: R.n_nth_bit(m, i))\n"
            "print(R._compiles_pdep(), [int(f(np.int64(0b1011001), i)) for i in range(4)])")
    env = dict(os.environ, NUMBA_CPU_NAME="generic", NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "[1,", "8,", "16,", "64]"]


def test_a_batch_s_rows_are_counted_in_one_compiled_pass_as_add_game_counts_them():
    """tally.py: every histogram, sum and tracked count of a batch of rows, against the same
    counting in Python, game by game (Summary.add_game's rules). The rows are random and hostile:
    negative and huge scores, rounds of 10,000 turns and more (past the bins), games of no
    round and of several, games won, stalled and lost to errors, tracked cards; and batches of
    no game and one. Arrays of another shape are refused, not written past."""
    import numpy as np
    from unorules.native.tally import BINS, histograms, tally, values_outside
    rng = random.Random(11)
    for games, players in ((0, 4), (1, 2), (3000, 3), (500, 6)):
        fields = 13
        rows, rounds, starts, at = [], [], [], 0
        for g in range(games):
            outcome = rng.choice((0, 0, 0, 1, 2))
            winner = rng.randrange(-1, players) if outcome == 0 else -1
            n = rng.choice((0, 1, 1, 1, 2, 5))
            row = [outcome, winner, rng.choice((1, 1, 3)), *(rng.randrange(50) for _ in range(8)),
                   rng.randrange(1 << (players + 2)) if rng.random() < 0.3 else 0, n]
            scores = [rng.choice((0, 0, rng.randrange(-90, 300), rng.randrange(-10 ** 12, 10 ** 12)))
                      for _ in range(players)]
            seats = rng.sample(range(players), players)
            rows.append(row + scores + seats)
            starts.append(at)
            for _ in range(n):
                rounds.append((rng.choice((rng.randrange(200), 10_000, BINS, BINS - 1, 10 ** 7)),
                               rng.randrange(-3, 90)))
            at += n
        expect = {h: Counter() for h in ("outcomes", "wins_by_seat", "original_wins", "round_turns",
                                         "round_drawn", "game_rounds", "score_spread", "winning_score")}
        tracked_expect = [0, 0]
        for g, row in enumerate(rows):
            outcome, winner, n, scores, seats = row[0], row[1], row[12], row[13:13 + players], row[13 + players:]
            expect["outcomes"][outcome] += 1
            won = outcome == 0 and winner >= 0
            if won:
                expect["wins_by_seat"][winner] += 1
                expect["original_wins"][seats[winner]] += 1
            tracked_expect[0] += sum(row[11] >> q & 1 for q in range(players))
            if won:
                tracked_expect[1] += row[11] >> seats[winner] & 1
            for turns, drawn in rounds[starts[g]:starts[g] + n]:
                expect["round_turns"][turns] += 1
                expect["round_drawn"][drawn] += 1
            expect["game_rounds"][n] += 1
            if row[2] > 1 or any(scores):
                expect["score_spread"][max(scores) - min(scores)] += 1
                if won:
                    expect["winning_score"][scores[winner]] += 1
        h = len(expect)
        arrays = (np.zeros(fields, np.int64), np.zeros((h, BINS), np.int64),
                  np.full((h, max(games, len(rounds), 1)), 7, np.int64), np.zeros(h, np.int64),
                  np.zeros(2, np.int64))
        rows_a = np.array(rows, np.int64).reshape(games, fields + 2 * players)
        rounds_a, starts_a = np.array(rounds, np.int64).reshape(len(rounds), 2), np.array(starts, np.int64)
        totals, bins, values, used, tracked = arrays
        half, outside = games // 2, {}         # counted in two parts into the same counts, as summarise's pieces are
        tally(rows_a[:half], rounds_a, starts_a[:half], players, fields, *arrays)
        if games > 1:
            values_outside(values, used, outside)
            assert not used.any() and (games < 3000 or outside)
        tally(rows_a[half:], rounds_a, starts_a[half:], players, fields, *arrays)
        got = histograms(bins, values, used, outside)
        assert got == {k: dict(v) for k, v in expect.items()}
        assert all(type(k) is int and type(v) is int for c in got.values() for k, v in c.items())
        assert totals.tolist() == [sum(r[f] for r in rows) for f in range(fields)]
        assert tracked.tolist() == tracked_expect
        if games == 3000:          # the test's values reach past the bins, on both sides
            assert used[3] and used[4] and used[7] and {"round_turns", "round_drawn", "winning_score"} <= set(outside)
    with pytest.raises(ValueError):
        tally(np.zeros((3, 20), np.int64), np.zeros((3, 2), np.int64), np.zeros(3, np.int64), 4, 13,
              *arrays)


def test_the_discard_s_top_card_is_read_from_a_local_that_raises_on_an_empty_pile_as_the_pile_does():
    """tops.py: rlcard's turns read the top card from play_game's local, not the pile (every
    read of it); n_top of an empty pile raises IndexError, as the pile's own read (n_cell) does,
    and the games are the reference's (test_native_code_plays_its_references_games)."""
    from unorules.native.runtime import n_cell, n_top
    program = native_of(RunSpec("rlcard", players=4, agents=("random",), rounds="single"))
    game = program.source[program.source.index("def play_game("):]
    assert "discard[n_cell(discard[0], -1)]" not in game and game.count("n_top(discard_top_)") >= 2
    assert "discard_top_ = card" in game
    assert n_top(7) == 7
    for read in (lambda: n_top(-1), lambda: n_cell(0, -1)):
        with pytest.raises(IndexError):
            read()
    same_games(program, 60)


def test_a_list_is_sorted_by_a_loop_of_runtime_py_in_the_order_python_sorts_it():
    """killer sorts a hand's reaction options (tuples): numba's own sort of a list of tuples cost
    about 5 s of a cold compile. n_sort (a list that stays a list) and n_rows_sort (the options
    as a stack of rows, rows.py) order as Python's sort does (bench/native_check.py plays killer's
    games against the reference)."""
    import numpy as np
    from numba.typed import List
    from unorules.native.runtime import n_rows_sort, n_sort
    from unorules.native.source import module_source
    spec = RunSpec("killer", players=4, agents=("greedy",))
    game = make_game(spec)
    source = module_source(Program(game, ("greedy",) * 4, "counted", rng=SplitMix), 4)
    assert "n_rows_sort(ropts)" in source and ".sort()" not in source and "ropts = []" not in source
    rng = random.Random(7)
    for n in (0, 1, 2, 5, 17, 40):
        items = [(rng.randrange(4), rng.random() < 0.5, rng.randrange(3)) for _ in range(n)]
        typed = List.empty_list(numba.types.Tuple((numba.types.int64, numba.types.boolean, numba.types.int64)))
        for x in items:
            typed.append(x)
        n_sort(typed)
        assert list(typed) == sorted(items)
        rows = np.full((n + 3, 3), -7, np.int64)                 # row 0 the length; rows past it untouched
        rows[0, 0] = n
        rows[1:n + 1] = np.array(items, np.int64).reshape(n, 3)
        n_rows_sort(rows)
        assert [tuple(r) for r in rows[1:n + 1].tolist()] == sorted(items)
        assert (rows[n + 1:] == -7).all() and rows[0, 0] == n


def test_rlcard_s_skip_and_reverse_are_selects_and_its_games_are_the_reference_s():
    """rlcard's skip and reverse, when played and when turned up, are done without a branch on
    the card's kind (the predictor missed about 19 times a game on those jumps); its draw two and
    wilds stay in the chain; the games are the reference's, game for game."""
    from unorules.runs.simulation import game_seeds
    program = native_of(RunSpec("rlcard", players=4, agents=("random",), rounds="single"))
    game = program.source[program.source.index("def play_game("):]
    assert game.count("direction = -direction if k == 11 else direction") == 2
    skip = r"skips\[np\.uint64\((p\d+)\)\] = 1 if k == 10 and \1 != NONE else skips\[np\.uint64\(\1\)\]"
    assert len(re.findall(skip, game)) == 2                 # played and turned up (the names are the compiler's)
    assert "if HAS_PLAY_LEFT[np.uint64(k)]:" in game and "if HAS_PLAY[" not in game
    assert "k == 12:" in game and "k == 13:" in game and "k == 14:" in game
    rows, wrong = program.differing(game_seeds(7, 0, 300))
    assert not wrong and program.replayed == 0


def test_a_chunk_is_played_and_counted_in_pieces_that_add_up_to_the_whole(monkeypatch):
    """summarise plays and counts PIECE games at a time into counts kept across the pieces (their
    rows stay in cache). In pieces of 7 games, with histograms of 8 bins (so that most values are
    counted apart, and moved out between pieces) and a rounds buffer of one round a game (so that
    matches grow it mid-chunk), a chunk's summary is the one it has in one piece, and the
    reference's games added one by one."""
    import unorules.native.program as native_program_module
    import unorules.native.tally as tally_module
    from unorules.runs.simulation import game_seeds
    from unorules.runs.stats import Summary
    spec = RunSpec("official", players=4, agents=("random",), track=("wild",))
    names = seat_agents(spec)
    seeds = game_seeds(5, 0, 60)
    whole = native_of(spec).summarise(Summary(), seeds, names)
    expect = Summary()
    program = native_of(spec)
    for s in seeds:
        expect.add_game(program.reference.play(int(s), names), names)
    assert whole == expect and whole.games == 60 and whole.rounds > 60 and whole.tracked_players
    monkeypatch.setattr(native_program_module, "PIECE", 7)
    monkeypatch.setattr(native_program_module, "ROUNDS_PER_GAME", 1)
    monkeypatch.setattr(tally_module, "BINS", 8)
    assert program.summarise(Summary(), seeds, names) == expect
    assert program._kept_tally[1].shape[1] == 8 and program._kept[2].shape[0] > 16     # bins of 8; rounds grown
    assert program.summarise(Summary(), seeds[:9], names) == program.summarise(Summary(), seeds[:9], names)


def test_a_chunk_summarised_in_the_arrays_of_the_chunk_before_counts_only_its_own_games():
    """summarise keeps its arrays from chunk to chunk (fresh ones cost a page fault per 4 kB).
    Matches of several rounds fill them with a larger chunk first; the next, smaller chunk must
    add up as it does in a program that never played before."""
    from unorules.runs.simulation import game_seeds
    from unorules.runs.stats import Summary
    spec = RunSpec("official", players=4, agents=("random",))
    names = seat_agents(spec)
    used = native_of(spec)
    used.summarise(Summary(), game_seeds(1, 0, 300), names)
    after = used.summarise(Summary(), game_seeds(2, 0, 120), names)
    fresh = native_of(spec).summarise(Summary(), game_seeds(2, 0, 120), names)
    assert after == fresh and after.games == 120 and sum(after.game_rounds.values()) == 120
    assert after.rounds > 120                       # matches: rounds left in the arrays before


@pytest.mark.parametrize("rounds", ["single", "match"])
def test_simulate_native_totals_equal_the_reference_s_and_workers_change_nothing(rounds):
    """Every figure of simulate's summary (histograms of turns, draws, rounds, scores; the tracked
    card's players and wins) from native rows equals the reference's games added one by one."""
    spec = RunSpec("official", players=4, agents=("greedy",), rounds=rounds, seed=3, simulator="native",
                   track=("wild",))
    native = run_range(spec, 0, 400).as_dict(4)
    program = native_of(spec)
    from unorules.runs.stats import Summary
    from unorules.runs.simulation import game_seed
    reference = Summary()
    names = seat_agents(spec)
    for i in range(400):
        reference.add_game(program.reference.play(game_seed(3, i), names), names)
    assert native == reference.as_dict(4)
    assert native["tracked_card"]["players"] > 0
    assert simulate(spec, 400, workers=2).as_dict(4) == native


def test_the_cli_runs_native_and_says_so():
    code, out, err = run_cli("simulate", "rlcard", "-n", "300", "--simulator", "native", "--agents", "random")
    assert code == 0, err
    assert "simulator: native code (numba)" in out and ": 300 games" in out and "outcomes: win 300" in out


def test_auto_chooses_native_only_for_long_runs(monkeypatch, tmp_path):
    from unorules.runs import simulation
    spec = RunSpec("rlcard", players=4, agents=("random",), rounds="single")
    game = make_game(spec)
    assert simulation.resolve_simulator(spec, game, simulation.NATIVE_FROM - 1).simulator == "auto"
    assert simulation.resolve_simulator(spec, game, simulation.NATIVE_FROM).simulator == "native"
    wide = RunSpec(colors_rulebook(tmp_path, 10), players=4, agents=("random",), rounds="single")
    assert simulation.resolve_simulator(wide, make_game(wide), 10 ** 6).simulator == "auto"    # not covered
    monkeypatch.setattr(simulation, "NATIVE_FROM", 200)
    code, out, _ = run_cli("simulate", "rlcard", "-n", "300", "--agents", "random")
    assert code == 0 and "simulator: native code" in out


def test_auto_leaves_a_run_with_an_events_file_to_counted_code(tmp_path, monkeypatch):
    """The events are written by the Python reference, game by game: a native compile would buy
    nothing (and would delay the file: test_hostile_input's Ctrl-C test waits for it)."""
    from unorules.runs import simulation
    monkeypatch.setattr(simulation, "NATIVE_FROM", 200)
    code, out, _ = run_cli("simulate", "rlcard", "-n", "300", "--agents", "random", "--events", tmp_path / "e.jsonl")
    assert code == 0 and "hands counted per face" in out and "native" not in out


def test_an_events_file_of_a_native_run_holds_its_games_and_replays(tmp_path):
    """--events with native: the reference writes the events of the very games native code plays,
    and `replay` plays them again from the file, without numba's code."""
    events = tmp_path / "e.jsonl"
    code, out, err = run_cli("simulate", "rlcard", "-n", "20", "--simulator", "native", "--agents", "random",
                             "--events", events, "--json")
    assert code == 0, err
    lines = events.read_text().splitlines()
    assert '"simulator": "native"' in lines[0]
    turns = sum(1 for line in lines[1:] if '"type":"turn"' in line)
    spec = RunSpec("rlcard", players=4, agents=("random",), simulator="native")
    native = run_range(spec, 0, 20).as_dict(4)
    assert turns == sum(t * c for t, c in native["histograms"]["turns_per_round"])
    code, out, err = run_cli("replay", events)
    assert code == 0, err + out


def test_hostile_names_and_strings_cannot_change_the_native_source(tmp_path):
    from test_codegen import BENIGN, HOSTILE, named_rulebook
    sources = []
    for names in (BENIGN, HOSTILE):
        path = tmp_path / f"{len(sources)}.uno"
        path.write_text(named_rulebook(names), encoding="utf-8")
        program = native_of(RunSpec(str(path), players=3, agents=("random",), rounds="single"))
        same_games(program, 10)
        sources.append(program.source)
    assert sources[0] == sources[1]
    lines = sources[1].split("\n")
    first = 1 + next(i for i, line in enumerate(lines[1:]) if not line.startswith(("import ", "from ")))
    assert lines[1:first] == ["import numpy as np", "from numba import njit", lines[3], lines[4]]
    assert lines[3].startswith("from unorules.native.runtime import ") and \
        lines[4].startswith("from unorules.native.arithmetic import ")
    body = "\n".join(lines[first:])                 # after the fixed docstring and imports
    tokens = list(tokenize.generate_tokens(io.StringIO(body).readline))
    assert not [t for t in tokens if t.type == tokenize.STRING and not t.string.startswith('"""')]
    names = {t.string for t in tokens if t.type == tokenize.NAME}
    for word in ("import", "os", "system", "exec", "eval", "__import__", "__builtins__", "lambda", "open"):
        assert word not in names
    for node in ast.walk(ast.parse(sources[1])):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            assert node.value.startswith("unorules native code") or node.value.startswith(("Games seeds",))


def test_a_second_process_loads_the_machine_code_from_the_cache(cache):
    """The module is a file named by its hash and numba keeps its machine code beside it: a second
    process compiles nothing."""
    script = ("import sys; sys.path.insert(0, %r)\n"
              "from unorules.runs.simulation import RunSpec, make_game, seat_agents\n"
              "from unorules.native.program import NativeProgram\n"
              "spec = RunSpec('rlcard', players=4, agents=('random',), rounds='single')\n"
              "p = NativeProgram(make_game(spec), tuple(seat_agents(spec)))\n"
              "p.play_rows([1, 2, 3])\n"
              "stats = p.module.play_batch.stats\n"
              "print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))\n") % str(ROOT)
    env = dict(os.environ, UNORULES_NATIVE_CACHE=str(cache / "fresh"))
    first = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    second = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    hits1, misses1 = (int(x) for x in first.stdout.split())
    hits2, misses2 = (int(x) for x in second.stdout.split())
    assert misses1 == 1 and hits1 == 0           # compiled once, and written to the cache
    assert hits2 == 1 and misses2 == 0           # read back: no compile
    assert len(list((cache / "fresh").glob("unorules_native_*.py"))) == 1


def test_replay_of_the_reference_needs_no_numba(tmp_path):
    """The reference is the counted Python code on SplitMix streams: it plays without numba."""
    spec = RunSpec("rlcard", players=4, agents=("random",), rounds="single")
    game = make_game(spec)
    a = Program(game, ("random",) * 4, "counted", rng=SplitMix).play(7, ["random"] * 4)
    b = Program(game, ("random",) * 4, "counted", rng=SplitMix).play(7, ["random"] * 4)
    c = Program(game, ("random",) * 4, "counted").play(7, ["random"] * 4)
    assert a.counts == b.counts and a.winner == b.winner
    assert (a.counts, a.turns_per_round) != (c.counts, c.turns_per_round)        # not random.Random's game
    assert replace(spec, simulator="native").simulator == "native"


def test_a_rules_arithmetic_past_int64_is_played_by_the_reference(tmp_path):
    """`x * x * x` of values inside the limits (x set at run time, so numba cannot fold it) wrapped
    in int64: 195 of 200 games differed from the reference. A rule's * + - and sums are checked,
    and a game that leaves ±2^60 is played by the reference in Python's exact integers."""
    path = tmp_path / "big.uno"
    path.write_text("rulebook big\nextends classic\noption big = 1000000000 \"large\"\ncounter x\n"
                    "card draw_two {\n  action\n  points 20\n  on play:\n    set x to big - me.hand.size\n"
                    "    if x * x * x > 0 { next draw 1 } else { next draw 3 }\n"
                    "    if sum(each other as p: x * big * 4 + p.hand.size) < 0 { me draw 1 }\n}\n")
    program = native_of(RunSpec(str(path), players=3, agents=("random",), rounds="single", simulator="native"))
    same_games(program, 200)
    assert program.replayed > 150                  # raised out of compiled code, played by the reference


def test_more_players_than_a_machine_word_holds_are_refused(tmp_path):
    path = tmp_path / "many.uno"
    path.write_text("rulebook many\nextends classic\nplayers 2..70\nsetup { hand 1 }\n")
    with pytest.raises(NotNative, match="64 players"):
        native_of(RunSpec(str(path), players=64, agents=("random",), rounds="single", simulator="native"))


def test_just_drawn_plays_its_references_games_in_native_code():
    """`just_drawn` judged for the drawn card's playability (tests/data/just_drawn.uno) is the
    turn's drawn card in native code too."""
    program = native_of(RunSpec(str(ROOT / "tests" / "data" / "just_drawn.uno"), players=3, rounds="single",
                                agents=("random",)))
    out = same_games(program, 100)
    assert (out[:, 0] == 0).sum() >= 80
