"""The explain-injectivity property at scale: for many seeded random rulebooks (tests/fuzz_rulebooks.py)
and every shipped file, every mutation of the merged IR (tests/ir_mutations.py: a number changed,
a subject swapped, a condition regrouped, an action moved out of its block) and every pair of
neighbouring fuzzed rulebooks, whenever both pass the checker and their canonical IRs differ, their
`explain` texts must differ. Prints the counts and every collision found; exits 1 on a collision.

    python bench/explain_injectivity.py --seeds 500          # about 110 pairs a seed
    python bench/explain_injectivity.py --seeds 0 --shipped   # the shipped files only

tests/test_explain_injective.py runs the same property with 40 seeds and every shipped file in CI.
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fuzz_rulebooks import fuzzed_rulebook          # noqa: E402
from ir_mutations import canonical, mutation_pairs   # noqa: E402
from unorules.errors import RulebookError            # noqa: E402
from unorules.language.explain.rulebook import explain                 # noqa: E402
from unorules.language.loader import load, shipped_names      # noqa: E402


def pairs_of(name: str, ir: dict, collisions: list) -> int:
    pairs, same = mutation_pairs(ir, explain, name)
    collisions += same
    return pairs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=300, help="seeded fuzzed rulebooks to mutate (default 300)")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--shipped", action="store_true", help="also every shipped rulebook, module and custom card")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp())
    collisions: list[str] = []
    counts = {"fuzzed rulebooks": 0, "fuzzed mutation pairs": 0, "fuzzed neighbour pairs": 0,
              "shipped mutation pairs": 0, "rulebooks refused": 0}
    started = time.perf_counter()
    previous = None
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        path = folder / f"fuzzed{seed}.uno"
        path.write_text(fuzzed_rulebook(random.Random(seed)).replace(" x ", " × "), encoding="utf-8")
        try:
            rb = load(path)
        except RulebookError:
            counts["rulebooks refused"] += 1
            continue
        counts["fuzzed rulebooks"] += 1
        counts["fuzzed mutation pairs"] += pairs_of(f"seed {seed}", rb.ir, collisions)
        if previous is not None and canonical(previous.ir) != canonical(rb.ir):
            counts["fuzzed neighbour pairs"] += 1
            if explain(previous) == explain(rb):
                collisions.append(f"seeds {seed - 1} and {seed}")
        previous = rb
    if args.shipped:
        for name in sorted(shipped_names()):
            counts["shipped mutation pairs"] += pairs_of(name, load(name).ir, collisions)
    for k, v in counts.items():
        print(f"{k:>24}: {v:,}")
    total = counts["fuzzed mutation pairs"] + counts["fuzzed neighbour pairs"] + counts["shipped mutation pairs"]
    print(f"{'pairs checked':>24}: {total:,} in {time.perf_counter() - started:.0f} s")
    print(f"{'collisions':>24}: {len(collisions)}")
    for c in collisions[:50]:
        print("  " + c)
    return 1 if collisions else 0


if __name__ == "__main__":
    sys.exit(main())
