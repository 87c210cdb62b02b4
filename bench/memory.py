#!/usr/bin/env python3
"""Memory against the number of games (issue 14): peak RSS of a whole `simulate` run in a fresh
process for each game count, one process per run (workers 1, so the number is one process's).
Statistics stream, so the peak should not grow with the games: the ratio of the largest run's peak
to the smallest's is printed and should be within 1.10.

    python bench/memory.py --rulebook rlcard --agents random_play --games 10000,1000000
    python bench/memory.py --simulator engine ...      # the interpreter instead of the generated code
    python bench/memory.py --simulator generated ...   # the generated code that plays the engine's games
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from unorules.runs.simulation import RunSpec, simulate
spec = RunSpec({rulebook!r}, players={players}, seed=0, agents={agents!r}, rounds="single", simulator={simulator!r})
t = time.perf_counter()
summary = simulate(spec, {games}, workers=1)
print(json.dumps({{"games": summary.games, "seconds": time.perf_counter() - t,
                  "peak_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rulebook", default="rlcard")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--agents", default="random_play")
    ap.add_argument("--games", default="10000,1000000")
    ap.add_argument("--simulator", default="auto", choices=["auto", "counted", "generated", "engine"])
    args = ap.parse_args()
    rows = []
    for n in [int(g) for g in args.games.split(",")]:
        code = CHILD.format(root=str(ROOT), rulebook=args.rulebook, players=args.players,
                            agents=tuple(args.agents.split(",")), simulator=args.simulator, games=n)
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        row = json.loads(out.strip().splitlines()[-1])
        rows.append(row)
        print(f"{n:>9} games  peak RSS {row['peak_rss_kib'] / 1024:7.1f} MiB  "
              f"{row['seconds']:8.1f} s  ({time.perf_counter() - t:.1f} s with start-up)", flush=True)
    print(f"peak RSS, largest run / smallest: {rows[-1]['peak_rss_kib'] / rows[0]['peak_rss_kib']:.3f} (target <= 1.10)")


if __name__ == "__main__":
    main()
