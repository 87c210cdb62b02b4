#!/usr/bin/env python3
"""Where simulation time goes: play games of a rulebook under cProfile and print the functions
with the most time of their own, as a share of the games' time (set-up and imports excluded).

    python bench/hotspots.py official --agents random_play --games 3000
    python bench/hotspots.py rlcard --games 5000 --top 30

For a sampling profile without cProfile's overhead on every call (py-spy is not a dependency):
    py-spy record -f raw -o out.txt -- python bench/hotspots.py rlcard --games 20000 --no-profile
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unorules.runs.simulation import RunSpec, make_game, play_one   # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rulebook")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--agents", default="random")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--no-profile", action="store_true", help="only play the games (for an outside profiler)")
    args = ap.parse_args()
    spec = RunSpec(args.rulebook, players=args.players, agents=tuple(args.agents.split(",")), rounds="single")
    game = make_game(spec)

    def games():
        for i in range(args.games):
            play_one(game, spec, i)

    t0 = time.perf_counter()
    if args.no_profile:
        games()
        print(f"{args.games / (time.perf_counter() - t0):.0f} games/s")
        return
    prof = cProfile.Profile()
    prof.runcall(games)
    stats = pstats.Stats(prof)
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])      # (file, line, fn) -> (cc, nc, tt, ct, callers)
    total = sum(v[2] for _, v in rows)
    print(f"{args.games} games of {args.rulebook}, {args.players} players, agents {args.agents}: "
          f"{total:.2f} s of own time under cProfile\n")
    print(f"{'own %':>6} {'calls/game':>11}  function")
    for (file, line, fn), (cc, nc, tt, ct, callers) in rows[:args.top]:
        where = f"{Path(file).name}:{line}" if line else "(built-in)"
        print(f"{100 * tt / total:6.1f} {nc / args.games:11.1f}  {fn}  {where}")


if __name__ == "__main__":
    main()
