"""The differential fuzz at scale: grammar-wide random rulebooks (tests/fuzz_rulebooks.py) played by
the engine and the generated code on the same seeds and agents, event for event, and where hands
counted per face cover the rules, the counted code against its reference; a rulebook the generator
does not cover must say why and play to an outcome on the engine. Prints the counts (how many ran
as generated code, how many on the engine and why, how many the checker refused) and every
disagreement; exits 1 on one.

    python bench/differential.py --rulebooks 3000
    python bench/differential.py --rulebooks 500 --first-seed 10000 --games 5

tests/test_differential.py runs the same check over 300 rulebooks in CI.
"""
from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from test_differential import differential      # noqa: E402  (the test's own check)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rulebooks", type=int, default=1000, help="how many rulebooks (default 1000)")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--games", type=int, default=3, help="games per rulebook and way (default 3)")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp())
    counts: collections.Counter = collections.Counter()
    failures = []
    started = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.rulebooks):
        try:
            counts[differential(seed, folder, games=args.games)] += 1
        except Exception as e:           # a disagreement, or a crash: reported with its seed
            counts["disagreed"] += 1
            failures.append((seed, "".join(traceback.format_exception_only(type(e), e)).strip()[:400]))
    for k in ("generated", "engine", "invalid", "disagreed"):
        print(f"{k:>10}: {counts[k]:,}")
    print(f"{'rulebooks':>10}: {sum(counts.values()):,} in {time.perf_counter() - started:.0f} s, "
          f"{args.games} games each way")
    for seed, what in failures[:30]:
        print(f"  seed {seed}: {what}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
