#!/usr/bin/env python3
"""Step speed of the learning adapters against RLCard's own UNO environment, measured side by side
in one run (issue 30, item 3's yardstick): random agents step each environment for `--seconds`;
steps per second and the ratio to RLCard's own env; then the time of PettingZoo's `api_test` and
OpenSpiel's `random_sim_test` on official. Needs `unorules[rlcard,pettingzoo,openspiel]`.

    python bench/env_speed.py --seconds 5 --repeats 5
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def stepping(env, seed: int = 0):
    """Random legal actions forever, resetting at each game's end: next() is one step. The action
    is drawn with Python's random (a fraction of a microsecond), so the time is the environment's."""
    import random
    rng = random.Random(seed)
    state, _ = env.reset()
    while True:
        legal = list(state["legal_actions"])
        state, _ = env.step(legal[int(rng.random() * len(legal))])
        yield
        if env.is_over():
            state, _ = env.reset()


def steps_per_second(walk, seconds: float) -> float:
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(200):
            next(walk)
        steps += 200
    return steps / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0, help="each environment's time in all")
    ap.add_argument("--repeats", type=int, default=5, help="alternating windows per environment (the median counts)")
    args = ap.parse_args()
    import statistics
    import rlcard
    from unorules.envs.rlcard import make
    envs = {"RLCard uno": rlcard.make("uno", config={"seed": 0}),
            "unorules rlcard (generated steps)": make("rlcard", players=2, seed=0),
            "unorules rlcard (engine steps)": make("rlcard", players=2, seed=0, steps="engine"),
            "unorules rlcard, obs=rlcard": make("rlcard", players=2, seed=0, obs="rlcard"),
            "unorules official, 2 players": make("official", players=2, seed=0),
            "unorules official, engine steps": make("official", players=2, seed=0, steps="engine")}
    walks = {label: stepping(env) for label, env in envs.items()}
    rates = {label: [] for label in envs}
    for _ in range(args.repeats):          # alternating windows: a load that comes and goes hits each alike
        for label, walk in walks.items():
            rates[label].append(steps_per_second(walk, args.seconds / args.repeats))
    # each ratio is the median over the repeats of the two rates of one repeat (adjacent windows)
    ref = rates["RLCard uno"]
    print(f"{'':<38}{'steps/s':>10}   ratio to RLCard uno (median of the repeats' ratios)")
    for label, r in rates.items():
        ratio = statistics.median(a / b for a, b in zip(r, ref))
        print(f"{label:<38}{statistics.median(r):>10,.0f}   {ratio:.2f}x"
              + ("   (target >= 2x)" if label == "unorules rlcard (generated steps)" else ""), flush=True)
    from pettingzoo.test import api_test
    from unorules.envs.pettingzoo import env as pz_env
    t = time.perf_counter()
    api_test(pz_env(rulebook="official", players=4), num_cycles=1000, verbose_progress=False)
    print(f"PettingZoo api_test, official:         {time.perf_counter() - t:.1f} s (target < 5 s)")
    import pyspiel
    import unorules.envs.openspiel  # noqa: F401
    t = time.perf_counter()
    pyspiel.random_sim_test(pyspiel.load_game("unorules", {"rulebook": "official", "players": 4}),
                            num_sims=3, serialize=False, verbose=False)
    print(f"OpenSpiel random_sim_test, 3 games:    {time.perf_counter() - t:.1f} s (target < 5 s)")


if __name__ == "__main__":
    main()
