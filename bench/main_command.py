#!/usr/bin/env python3
"""The README's main command in two source trees, side by side in one run: this checkout and an
earlier one (a `git worktree` of the commit to compare with), alternating repeats, median wall
time and the ratio. Each tree runs its own `cli.py`, so each uses the code (and the defaults, such
as the number of workers) that tree had.

    git worktree add /tmp/before bc19764
    python bench/main_command.py --before /tmp/before --repeats 3
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = ["simulate", "official", "--games", "2000", "--players", "4"]


def run(tree: Path, extra: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, str(tree / "cli.py"), *COMMAND, *extra], cwd=tree, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, help="the earlier tree (a git worktree)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--extra", default="", help="options added to the command in this tree (e.g. '--workers 1')")
    args = ap.parse_args()
    before, after = [], []
    for _ in range(args.repeats):
        before.append(run(Path(args.before), []))
        after.append(run(ROOT, args.extra.split()))
        print(f"  before {before[-1]:6.1f} s   now {after[-1]:6.1f} s", flush=True)
    b, a = statistics.median(before), statistics.median(after)
    print(f"unorules {' '.join(COMMAND)} {args.extra}: before {b:.1f} s, now {a:.1f} s: {b / a:.2f}x faster")


if __name__ == "__main__":
    main()
