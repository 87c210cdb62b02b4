#!/usr/bin/env python3
"""Step speed of the learning adapters against RLCard's own UNO environment, measured side by side
in one run (issue 30, item 3's yardstick): random agents step each environment for `--seconds`;
steps per second and the ratio to RLCard's own env; then the time of PettingZoo's `api_test` and
OpenSpiel's `random_sim_test` on official. Needs `unorules[rlcard,pettingzoo,openspiel]`.

    python bench/env_speed.py --seconds 5
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def steps_per_second(env, seconds: float) -> float:
    """Random legal actions until `seconds` pass, resetting at each game's end."""
    import numpy as np
    rng = np.random.default_rng(0)
    steps, t0 = 0, time.perf_counter()
    state, _ = env.reset()
    while time.perf_counter() - t0 < seconds:
        legal = list(state["legal_actions"])
        state, _ = env.step(legal[int(rng.integers(len(legal)))])
        steps += 1
        if env.is_over():
            state, _ = env.reset()
    return steps / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    import rlcard
    from unorules.envs.rlcard import make
    ref = steps_per_second(rlcard.make("uno", config={"seed": 0}), args.seconds)
    print(f"{'RLCard uno':<38}{ref:>10,.0f} steps/s   1.00x")
    for label, env in (("unorules rlcard (ours)", make("rlcard", players=2, seed=0)),
                       ("unorules rlcard, obs=rlcard", make("rlcard", players=2, seed=0, obs="rlcard")),
                       ("unorules official, 2 players", make("official", players=2, seed=0))):
        sps = steps_per_second(env, args.seconds)
        print(f"{label:<38}{sps:>10,.0f} steps/s   {sps / ref:.2f}x", flush=True)
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
