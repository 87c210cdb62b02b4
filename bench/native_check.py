#!/usr/bin/env python3
"""Native code against its Python reference, game for game, for every shipped rulebook, module and
custom card (tests/test_native.py checks a set of them in CI; this plays all, with every agent).
For each variant: whether native code covers it (else why not), its compile time, the games whose
every field (winner, outcome, rounds with their turns and draws, scores, counts, the players
followed) differ from the reference's (0 expected), and the games that raised inside compiled code
and were played by the reference (rule errors and stalls only).

    pip install '.[native]' && python bench/native_check.py --games 300
    python bench/native_check.py --games 1000 --agents greedy --only official
    python bench/native_check.py --games 200 --fuzzed 50 --only none    # 50 fuzzed rulebooks native covers
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from unorules.codegen.expressions import NotCovered                      # noqa: E402
from unorules.native.program import NativeProgram                          # noqa: E402
from unorules.native.tables import NotNative                               # noqa: E402
from unorules.runs.simulation import RunSpec, game_seed, make_game, seat_agents  # noqa: E402


def variants(only: str):
    for path in sorted((ROOT / "rulebooks").glob("*.uno")):
        yield path.stem, (), ()
    for path in sorted((ROOT / "rulebooks" / "custom").glob("*.uno")):
        yield "official", (), (str(path),)
    for path in sorted((ROOT / "rulebooks" / "modules").glob("*.uno")):
        yield "official", (path.stem,), ()


def check(spec: RunSpec, games: int) -> str:
    game = make_game(spec)
    names = seat_agents(spec)
    t0 = time.perf_counter()
    try:
        program = NativeProgram(game, tuple(names))
    except (NotCovered, NotNative) as e:
        return f"not native: {e}"
    compiled = time.perf_counter() - t0
    out, wrong = program.differing([game_seed(spec.seed, i) for i in range(games)])
    return (f"compile {compiled:5.1f} s   differing games {len(wrong)} of {games}   "
            f"played by the reference {program.replayed} (errors and stalls: {int((out[:, 0] != 0).sum())})")


def fuzzed(count: int, games: int) -> int:
    """The first `count` seeded random rulebooks (tests/fuzz_rulebooks.py: a card's effects, agents,
    players at random) that native code covers, each against its reference; returns how many differ."""
    from fuzz_rulebooks import fuzzed_rulebook
    from unorules.codegen.generated import Program
    from unorules.errors import RulebookError
    from unorules.native.rng import SplitMix
    from unorules.native.source import module_source
    folder, bad, found, seed = Path(tempfile.mkdtemp()), 0, 0, 0
    while found < count and seed < 100 * count:
        rng = random.Random(seed)
        path = folder / f"fuzzed{seed}.uno"
        path.write_text(fuzzed_rulebook(rng).replace(" x ", " × "), encoding="utf-8")
        spec = RunSpec(str(path), players=rng.randint(2, 5), agents=rng.choice([("random",), ("greedy",), ("random_play",)]),
                       rounds="single", seed=seed)
        seed += 1
        try:
            game = make_game(spec)
            module_source(Program(game, tuple(seat_agents(spec)), "counted", rng=SplitMix), spec.players)
        except (RulebookError, NotCovered, NotNative):
            continue
        found += 1
        result = check(spec, games)
        bad += "differing games 0 " not in result
        print(f"fuzzed {seed - 1:<5} [{spec.agents[0]}, {spec.players} players]{'':<14} {result}", flush=True)
    print(f"fuzzed: {found} rulebooks native code covers (of {seed} tried), {bad} with games differing", flush=True)
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--agents", default="random,greedy,random_play")
    ap.add_argument("--only", default="", help="only the variants whose label holds this text")
    ap.add_argument("--fuzzed", type=int, default=0, help="also this many fuzzed rulebooks native code covers")
    args = ap.parse_args()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    bad = 0
    for source, include, with_ in variants(args.only):
        for agent in args.agents.split(","):
            label = f"{source} {' '.join(include + tuple(Path(w).stem for w in with_))} [{agent}]"
            if args.only not in label:
                continue
            spec = RunSpec(source, include=include, with_=with_, players=4, agents=(agent,), seed=1)
            result = check(spec, args.games)
            bad += "differing games 0 " not in result and not result.startswith("not native")
            print(f"{label:<46} {result}", flush=True)
    if args.fuzzed:
        bad += fuzzed(args.fuzzed, args.games)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
