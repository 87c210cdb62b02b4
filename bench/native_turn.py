#!/usr/bin/env python3
"""What binds a native turn: issue width, or the chain the game waits on? (issue 31)

This machine gives no hardware counters (perf stat: "not supported"), so this script asks the
question by experiment, on generated rlcard code and on the sketch's hand-written numba game
(../shared/bench/native_sketch/uno_numba.py) alike. Each game is compiled four more times from
its own source, changed as text:

  control  the very same code in a module of its own (what noise and code placement alone do);
  work     WORK lines a turn of extra arithmetic that no decision waits on: each line adds the
           hand's mask, shifted, to one of four sums kept to the end (about 3 instructions);
  no turns the game ends right after its deal (other games: not checked, timed only), which
           splits a game's time into what comes before its first turn and its turns;
  chain    three multiplies by a number that is 1 at run time, with an xor by 0 between them (LLVM
           can neither know the numbers nor merge the multiplies), on the colour, just before the
           turn looks up what may be played on the pile's top: about 11 cycles added to the chain
           from one turn's card to the next turn's choice.

Every variant but `no turns` must play the very same games as the code it changes (or the script
stops); then all five are timed in rotated repeats and the cost of each change is printed in ns a
turn. A turn
bound by how many instructions it issues pays for `work` in full (about 4 instructions a cycle)
and little for `chain`; a turn bound by the chain (and by how late a mispredicted branch learns
its answer) absorbs `work` in idle slots and pays for `chain`.

    python bench/native_turn.py                        # 200,000 games a repeat, 7 repeats
    python bench/native_turn.py --games 100000 --work 30

Only developers' code becomes source here: the generated program's own text and the sketch's, and
the fixed lines above. Session 29's run is in docs/performance.md.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# the transforms' text: sums kept in four locals, read back where the compiler cannot drop them
SUMS = ("acc0_", "acc1_", "acc2_", "acc3_")
KEEP = " ^ ".join(SUMS)
NEVER = 1234567890123      # a value the four sums are compared with, so that they stay live


def work_lines(indent: str, mask: str, other: str, n: int) -> str:
    return "".join(f"{indent}{SUMS[j % 4]} = {SUMS[j % 4]} + (({mask} >> {j}) ^ ({other} + {j}))\n"
                   for j in range(1, n + 1))


def chained(value: str, one: str, zero: str) -> str:
    """value, through three multiplies by `one` with an xor by `zero` between them (1 and 0 at run
    time, unknown to LLVM, which cannot merge the multiplies across the xors): about 11 cycles."""
    return f"(((({value} * {one}) ^ {zero}) * {one}) ^ {zero}) * {one}"


def replace_once(source: str, old: str, new: str, what: str) -> str:
    if source.count(old) < 1:
        sys.exit(f"cannot find {what} in the source: this experiment knows rlcard's turn and the sketch's")
    return source.replace(old, new, 1)


# ---- generated code (the native program of a rulebook) ----------------------------------------

TURN_LOOKUP = re.compile(r"^(?P<indent>\s*)legal = hm\[(?:np\.uint64\(p\)|p)\] & (?P<table>\w+)"
                         r"\[(?:np\.uint64\(color \+ 1\)|color \+ 1), ", re.M)     # indexes unsigned (indexes.py) or not


def generated_variant(source: str, kind: str, work: int) -> str:
    """The native program's source with `kind`'s change (see the docstring)."""
    m = TURN_LOOKUP.search(source)
    if m is None:
        sys.exit("cannot find the turn's lookup of what may be played (legal = hm[p] & ...[color + 1, ...])")
    indent = m.group("indent")
    top = "    for b_g in range(b_seeds.shape[0]):\n"
    if kind == "control":
        return source + "\n# the control: the same code in a module of its own\n"
    if kind == "no turns":                 # the round ends as a stall before its first turn
        return replace_once(source, "            while True:\n                if override >= 0:",
                            "            stalled = True\n            while False:\n                if override >= 0:",
                            "the round's loop over turns")
    if kind == "chain":
        s = source[:m.start()] + m.group(0).replace("color + 1", f"{chained('color', 'one_', 'zero_')} + 1", 1) + source[m.end():]
        return replace_once(s, top, "    zero_ = b_seeds.shape[0] >> 62\n    one_ = 1 + zero_\n" + top,
                            "play_game's loop over games")
    s = source[:m.start()] + work_lines(indent, "hm[p]", "color", work) + source[m.start():]
    s = replace_once(s, top, "".join(f"    {a} = 0\n" for a in SUMS) + top, "play_game's loop over games")
    ret = "    return (b_seeds.shape[0], b_at)\n"
    return replace_once(s, ret, f"    if {KEEP} == {NEVER}:\n        b_now[0] = -1\n" + ret, "play_game's return")


# ---- the sketch's hand-written numba game ----------------------------------------------------


def hand_variant(source: str, kind: str, work: int) -> str:
    if kind == "control":
        return source + "\n# the control: the same code in a module of its own\n"
    if kind == "no turns":                 # the game ends before its first turn
        return replace_once(source, "    nact = 0\n    while True:\n",
                            "    nact = 0\n    if n > 0:\n        return 0, -1, s\n    while True:\n", "play_one's turn loop")
    if kind == "chain":
        s = replace_once(source, "        t = colour * 15 + top\n", f"        t = {chained('colour', 'one', 'zero')} * 15 + top\n",
                         "the turn's target (t = colour * 15 + top)")
        s = replace_once(s, "def play_one(s, n, counts, masks, sizes, pile, disc):\n",
                         "def play_one(s, n, counts, masks, sizes, pile, disc):\n    zero = n >> 62\n    one = 1 + zero\n",
                         "play_one")
        return s
    s = replace_once(source, "        legal = hm & MATCH[t]\n",
                     "        legal = hm & MATCH[t]\n" + work_lines("        ", "hm", "t", work), "the turn's lookup")
    s = replace_once(s, "def play_one(s, n, counts, masks, sizes, pile, disc):\n",
                     "def play_one(s, n, counts, masks, sizes, pile, disc):\n" + "".join(f"    {a} = 0\n" for a in SUMS),
                     "play_one")
    s = replace_once(s, "                return nact, cur, s\n",
                     f"                if {KEEP} == {NEVER}:\n                    nact = -nact\n"
                     "                return nact, cur, s\n", "the winner's return")
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200_000, help="games per timed repeat")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--work", type=int, default=15, help="lines of extra work a turn (about 3 instructions each)")
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "bench"), help="folder of the reference scripts")
    args = ap.parse_args()

    import numpy as np
    from native_ab import program_of               # bench/: a native program running other source
    from speed import load_reference
    from unorules.runs.simulation import RunSpec, make_game, native_program

    kinds = ("as is", "control", "work", "chain", "no turns")
    same_games = kinds[:4]                         # "no turns" plays only the deal
    batch = 10_000
    seeds = np.arange(batch, dtype=np.int64) * 7919 + 12345
    spec = RunSpec("rlcard", players=4, agents=("random",), rounds="single", simulator="native")
    base, why = native_program(make_game(spec), spec)
    if base is None:
        sys.exit(f"rlcard is not native here: {why}")

    generated = {"as is": base}
    for kind in kinds[1:]:
        generated[kind] = program_of(base, generated_variant(base.source, kind, args.work))
    want = base._play(seeds, reuse=True)[0].copy()
    for kind in same_games:
        prog = generated[kind]
        if not (prog._play(seeds, reuse=True)[0] == want).all():
            sys.exit(f"generated code, {kind}: other games than the code as emitted")

    def run_generated(prog):
        for k in range(args.games // batch):
            prog._play(seeds + k * 131, reuse=True)
        return args.games // batch * batch

    sketch = Path(args.shared) / "native_sketch" / "uno_numba.py"
    hand = {}
    with tempfile.TemporaryDirectory() as tmp:
        if sketch.exists():
            sys.path.insert(0, str(sketch.parent))             # its uno_tables and common
            text = sketch.read_text()
            for i, kind in enumerate(kinds):
                path = Path(tmp) / f"uno_numba_turn{i}.py"
                path.write_text(text if kind == "as is" else hand_variant(text, kind, args.work))
                hand[kind] = load_reference(path, path.stem)
            acts = {k: np.zeros(args.games, np.int64) for k in kinds}
            wins = {k: np.zeros(args.games, np.int64) for k in kinds}
            for kind, mod in hand.items():
                mod.play_range(1, 0, args.games, 4, acts[kind], wins[kind])
                if kind in same_games and not ((acts[kind] == acts["as is"]).all() and (wins[kind] == wins["as is"]).all()):
                    sys.exit(f"the hand-written game, {kind}: other games than the sketch's")
            turns_hand = float(acts["as is"].mean())
        else:
            print(f"(no sketch at {sketch}: generated code only)")

        rates = {(g, k): [] for g in ("generated", "hand") for k in kinds if g == "generated" or hand}
        for rep in range(args.repeats):
            order = list(kinds[rep % len(kinds):] + kinds[:rep % len(kinds)])
            for kind in order:
                t0 = time.perf_counter()
                n = run_generated(generated[kind])
                rates["generated", kind].append(n / (time.perf_counter() - t0))
                if hand:
                    t0 = time.perf_counter()
                    hand[kind].play_range(1, 0, args.games, 4, acts[kind], wins[kind])
                    rates["hand", kind].append(args.games / (time.perf_counter() - t0))

    out = base._play(seeds, reuse=True)[0]
    turns_generated = float(np.mean(out[:, 7]))               # turns with a decision: every turn, in rlcard
    print(f"{args.games:,} games a repeat, {args.repeats} rotated repeats; work = {args.work} lines a turn, "
          "chain = 3 multiplies and 2 xors on the colour")
    for game, turns in (("generated", turns_generated), ("hand", turns_hand if hand else None)):
        if turns is None:
            continue
        med = {k: statistics.median(rates[game, k]) for k in kinds}
        label = "generated rlcard code" if game == "generated" else "the sketch's hand-written numba game"
        print(f"  {label}: {med['as is']:,.0f} games/s, {turns:.1f} turns a game")
        for kind in same_games[1:]:
            ns = (1 / med[kind] - 1 / med["as is"]) * 1e9 / turns
            print(f"    {kind:<8} {med[kind]:12,.0f} games/s  {med[kind] / med['as is']:.3f}  {ns:+.2f} ns a turn")
        before = 1e9 / med["no turns"]
        print(f"    no turns {med['no turns']:12,.0f} games/s  {before:.0f} ns a game before the first turn (setup, "
              f"deal, bookkeeping); the turns {(1e9 / med['as is'] - before) / turns:.1f} ns each")


if __name__ == "__main__":
    main()
