#!/usr/bin/env python3
"""How much the search's belief (unorules/belief.py) knows of the other hands (issue 15).

Four greedy players; at each of seat 0's decisions, the other hands are dealt `--deals` times
by the belief and by `resample_hidden`, and each deal is held against the true hands: the share
of a hand's faces it got right (the multiset overlap over the hand's size), and of its colors.
Seeing the hands would score 1.0 on both.

    python bench/belief_info.py --games 40
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unorules.agents.base import GreedyAgent                      # noqa: E402
from unorules.agents.belief import Belief                           # noqa: E402
from unorules.runs.simulation import RunSpec, make_game           # noqa: E402


def overlap(truth, dealt, key) -> float:
    t, d = Counter(key(c) for c in truth), Counter(key(c) for c in dealt)
    return sum((t & d).values()) / len(truth)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rulebook", default="official")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--deals", type=int, default=4)
    args = ap.parse_args()
    game = make_game(RunSpec(args.rulebook, players=4, agents=("greedy",), rounds="single"))
    faces = {"belief": 0.0, "uniform": 0.0}
    colors = {"belief": 0.0, "uniform": 0.0}
    n = 0
    for seed in range(args.games):
        s = game.new_state(seed)
        belief = Belief(0, GreedyAgent(0))
        agents = [GreedyAgent(random.Random(seed + k)) for k in range(4)]
        while not s.terminal:
            d = s.decision
            if d.probs is not None:
                s.apply_unchecked(s.rng.choices(d.options, d.probs)[0])
                continue
            if d.player == 0 and belief.follow(s):
                for k in range(args.deals):
                    deals = {"belief": belief.deal(s, random.Random(k)), "uniform": s.resample_hidden(0, random.Random(k))}
                    for q in range(1, 4):
                        if not s.hands[q]:
                            continue
                        n += 1
                        for name, r in deals.items():
                            faces[name] += overlap(s.hands[q], r.hands[q], s.face_of)
                            colors[name] += overlap(s.hands[q], r.hands[q], s.color_of)
            s.apply_unchecked(agents[d.player].act(s, d.options))
    for name in faces:
        print(f"{name:>8}: faces right {faces[name] / n:.3f}, colors right {colors[name] / n:.3f}  ({n} hands dealt)")


if __name__ == "__main__":
    main()
