#!/usr/bin/env python3
"""Scaling of `simulate --workers`: the same games in one process and in N, alternating repeats,
median times and their ratio. The totals must be identical (the script checks).

    python bench/workers.py --rulebook official --games 4000 --workers 2 --repeats 5
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unorules.runs.simulation import RunSpec, make_game, simulate   # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rulebook", default="official")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--agents", default="greedy")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    spec = RunSpec(args.rulebook, players=args.players, agents=tuple(args.agents.split(",")), rounds="single")
    make_game(spec)
    times = {1: [], args.workers: []}
    results = {}
    for _ in range(args.repeats):
        for w in times:
            t = time.perf_counter()
            results[w] = simulate(spec, args.games, workers=w).as_dict(args.players)
            times[w].append(time.perf_counter() - t)
    one, many = statistics.median(times[1]), statistics.median(times[args.workers])
    print(f"{args.rulebook}, {args.games} games, {args.players} players, agents {args.agents}")
    print(f"  1 process: {one:.2f} s   {args.workers} workers: {many:.2f} s   speed-up {one / many:.2f}x "
          f"(medians of {args.repeats})   identical totals: {results[1] == results[args.workers]}")
    sys.exit(0 if results[1] == results[args.workers] else 1)


if __name__ == "__main__":
    main()
