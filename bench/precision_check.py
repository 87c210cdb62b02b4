#!/usr/bin/env python3
"""The error rate of `--precision`'s stopping rule, over many simulated runs (a longer version of
tests/test_precision.py's check, not part of CI), beside a naive rule for contrast.

A made-up pair of variants, played by the look as runs/precision.py plays real ones: seat 0 wins
with `--base` in A and `--base + --diff` in B, four seats, rounds of 20 to 49 turns. For each run:

- **ours**: looks double to the cap and stop when every interval is within ±P; the verdict uses the
  looks' Bonferroni intervals and p-values, then Holm over the figures (compare's own code);
- **naive**: the same looks, compare's fixed-size verdict at each look (Holm over the figures, no
  correction for the looks), stopping as soon as it names a difference ("run until it is
  significant").

It prints how often each declares a difference that is not there (with `--diff 0`) and, with a
difference, how often the reported interval of seat 0 covers it.

    python bench/precision_check.py --runs 5000
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--precision", type=float, default=4.0)
    ap.add_argument("--first", type=int, default=200)
    ap.add_argument("--cap", type=int, default=6400)
    ap.add_argument("--base", type=float, default=0.25)
    ap.add_argument("--diff", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    from test_precision import Pair
    from unorules.runs.comparison import compare_summaries
    from unorules.runs.precision import planned_looks, run_until_precise
    rng = random.Random(args.seed)
    looks = len(planned_looks(args.first, args.cap))
    ours_false = naive_false = covered = 0
    games = []
    for _ in range(args.runs):
        pair = Pair(rng, base=args.base, p0=args.base + args.diff)
        outcome = run_until_precise(pair.advance, lambda z: [(f["figure"], f["half_width"])
                                                             for f in pair.figures(looks)["figures"]],
                                    args.precision, args.first, args.cap)
        games.append(outcome.games)
        comparison = pair.figures(looks)
        ours_false += bool(comparison["verdicts"]) and args.diff == 0
        seat0 = next(f for f in comparison["figures"] if f["figure"] == "seat 0 win rate")
        covered += seat0["ci95"][0] <= args.diff <= seat0["ci95"][1]
        naive = Pair(rng, base=args.base, p0=args.base + args.diff)
        played = 0
        for n in planned_looks(args.first, args.cap):
            naive.advance(played, n)
            played = n
            da, db = (s.as_dict(4) for s in naive.summaries)
            if compare_summaries(["a", "b"], da, db, 4)["verdicts"]:         # Holm over figures, looks ignored
                naive_false += args.diff == 0
                break
    se = math.sqrt(0.05 * 0.95 / args.runs)
    print(f"{args.runs} runs, {looks} planned looks ({args.first} to {args.cap} games), precision ±{args.precision:g}, "
          f"seat 0 at {args.base:.2f} vs {args.base + args.diff:.2f}; median games {sorted(games)[len(games) // 2]:,}")
    if args.diff == 0:
        print(f"ours:  a false verdict in {ours_false / args.runs:.2%} of runs (asked: at most 5%; "
              f"one standard error of 5% here is {se:.2%})")
        print(f"naive: a false verdict in {naive_false / args.runs:.2%} of runs")
    print(f"ours:  seat 0's interval covers the true difference in {covered / args.runs:.2%} of runs (asked: 95%)")


if __name__ == "__main__":
    main()
