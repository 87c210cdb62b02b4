#!/usr/bin/env python3
"""A/B of a change to native code's generated source, in one process (issue 31's method).

A change to the native emitter is tried first as a text transform of the source it emits: a
variant file defines `transform(source) -> source`. This script builds the rulebook's native
program (A), compiles the transformed source (B) and a control (C: A's source with a comment
added, so the very same code in another module), asserts that B and C play the same games as A
(every row equal, over several batches), then times A, B and C in alternating, rotated repeats of
the same seeds and prints B/A and C/A (medians and every repeat).

Why the control: the very same code, compiled again and timed in the same repeats, is not always
at 1.000. With A always timed first, the second ran about 1% slower (session 28: C/A 0.988-0.989
over 7 repeats); rotated, C/A still moved 0.985-1.002 from run to run. A change whose B/A is not
clear of C/A did nothing measurable. Run on a quiet machine.

    python bench/native_ab.py variant.py                       # rlcard, random seats, 200,000 games
    python bench/native_ab.py variant.py --rulebook official --agents greedy --games 20000

A variant (the transform must change the source, and must keep the games):
    def transform(source):
        return source.replace("if turns > 10000 or game_turns > 1000000:", "if turns > 10000:")

Only developers' code runs here (the variant file); no rulebook text becomes source.
"""
from __future__ import annotations

import argparse
import copy
import importlib.util
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from unorules.native.program import import_module, write_module          # noqa: E402
from unorules.runs.simulation import RunSpec, make_game, native_program    # noqa: E402


def load_transform(path: str):
    spec = importlib.util.spec_from_file_location("native_variant", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.transform


def program_of(base, source: str):
    """A copy of the native program `base` running `source` instead (compiled now, or read from
    the cache)."""
    other = copy.copy(base)
    other._kept = None
    other.source = source
    other.module = import_module(write_module(source), source)
    other._compile()
    return other


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant", help="a file defining transform(source) -> source")
    ap.add_argument("--rulebook", default="rlcard")
    ap.add_argument("--agents", default="random")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", help="single or rulebook (default: single for rlcard, else the rulebook's)")
    ap.add_argument("--games", type=int, default=200_000, help="games per timed repeat")
    ap.add_argument("--batch", type=int, default=10_000, help="games per call (the arrays are reused)")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--show", help="write B's source here, to read")
    args = ap.parse_args()

    rounds = args.rounds or ("single" if args.rulebook == "rlcard" else "rulebook")   # as bench/speed.py times them
    spec = RunSpec(args.rulebook, players=args.players, agents=tuple(args.agents.split(",")),
                   rounds=rounds, simulator="native")
    a, why = native_program(make_game(spec), spec)
    if a is None:
        sys.exit(f"{args.rulebook} is not native: {why}")
    source = load_transform(args.variant)(a.source)
    if source == a.source:
        sys.exit("the transform changed nothing")
    if args.show:
        Path(args.show).write_text(source)
    b = program_of(a, source)
    c = program_of(a, a.source + "\n# the control: A's code in a module of its own\n")

    import numpy as np
    batch = min(args.batch, args.games)
    seeds = np.arange(batch, dtype=np.int64) * 7919 + 12345
    for r in range(max(1, args.games // batch // 4)):           # the same games, or no timing
        want = a._play(seeds + 7 * r, reuse=True)[0].copy()
        for name, prog in (("B", b), ("C", c)):
            if not (prog._play(seeds + 7 * r, reuse=True)[0] == want).all():
                sys.exit(f"{name} plays other games than A: the transform changed the rules")

    rates = {"A": [], "B": [], "C": []}
    progs = [("A", a), ("B", b), ("C", c)]
    for rep in range(args.repeats):
        order = progs[rep % 3:] + progs[:rep % 3]                # each one first in turn
        for name, prog in order:
            t0 = time.perf_counter()
            for k in range(args.games // batch):
                prog._play(seeds + k * 131, reuse=True)
            rates[name].append(args.games // batch * batch / (time.perf_counter() - t0))
    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"{args.rulebook}, {args.agents} seats, {args.games:,} games a repeat, {args.repeats} rotated repeats")
    print(f"  A (as emitted)   {med['A']:12,.0f} games/s")
    for name in "BC":
        each = [round(x / y, 3) for x, y in zip(rates[name], rates["A"])]
        label = "B (the variant)" if name == "B" else "C (the control)"
        print(f"  {label:<16} {med[name]:12,.0f} games/s  {name}/A {med[name] / med['A']:.3f}  (each repeat: {each})")


if __name__ == "__main__":
    main()
